// query-log: the SQL a request ran. The engine does not know the request (nor should it), so the
// server runs each request inside an AsyncLocalStorage scope holding its record, and the drivers
// the engine is given are wrapped to write a line per statement run in such a scope. Only read
// statements are wrapped (queryText: one statement answering JSON), as Hasura logs the SQL of
// database queries and not of mutations. Nothing of this runs unless query-log is enabled.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Driver } from '../drivers/index.js';
import { logs, writeQueryLog, type LogSettings, type RequestRecord } from './request-log.js';

/** The record of the request being served, in the async context of its handling. */
export const requestScope = new AsyncLocalStorage<RequestRecord>();

/** True when these settings write query-log lines (so the server opens a scope per request). */
export function queryLogOn(s: LogSettings | undefined): boolean {
  return s !== undefined && logs(s, 'query-log', 'info');
}

/**
 * Wraps drivers so their statements are logged in the request that ran them; answers the same
 * wrapper for the same driver (kept while the driver lives). Without query-log, drivers pass as they are.
 */
export function queryLogDrivers(s: LogSettings): (d: Driver) => Driver {
  if (!queryLogOn(s)) return (d) => d;
  const wrapped = new WeakMap<Driver, Driver>();
  return (d) => {
    let w = wrapped.get(d);
    if (!w) {
      const inner = d;
      w = Object.assign(Object.create(inner) as Driver, {
        queryText(text: string, params: readonly unknown[], name?: string, valueSensitive?: boolean, opts?: Parameters<Driver['queryText']>[4]) {
          const r = requestScope.getStore();
          if (r) writeQueryLog(s, r, text, params);
          return inner.queryText(text, params, name, valueSensitive, opts);
        },
      });
      wrapped.set(d, w);
    }
    return w;
  };
}
