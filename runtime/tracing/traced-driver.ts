// A driver whose statements are spans of the request that runs them: the engine is given this
// wrapper only while tracing is on (the catalog server builds a new engine on every metadata
// change, so switching tracing off drops the wrapper too). A statement run outside a traced
// request (a poll, a worker) passes through unrecorded.

import type { Driver } from '../drivers/index.js';
import { activeSpan } from './tracing.js';
import type { Span } from './span.js';

// The statement text kept on a span, at most (the SQL of a large selection can run to many KB).
const MAX_SQL = 8192;

function statementSpan(parent: Span, name: string, source: string, text: string | null): Span {
  const span = parent.child(name, 'client').set('db.system.name', 'postgresql').set('db.namespace', source);
  if (text !== null) {
    const keyword = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase();
    if (keyword) span.set('db.operation.name', keyword);
    span.set('db.query.text', text.length > MAX_SQL ? `${text.slice(0, MAX_SQL)}…` : text);
  }
  return span;
}

async function traced<T>(name: string, source: string, text: string | null, run: () => Promise<T>): Promise<T> {
  const parent = activeSpan();
  if (!parent) return run();
  const span = statementSpan(parent, name, source, text);
  try {
    return await run();
  } catch (e) {
    span.fail((e as Error).message ?? 'failed');
    throw e;
  } finally {
    span.end();
  }
}

/** The driver of `source` with its statements traced (same wrapper for the same driver while it lives). */
export function tracedDrivers(): (d: Driver, source: string) => Driver {
  const wrapped = new WeakMap<Driver, Driver>();
  return (d, source) => {
    let w = wrapped.get(d);
    if (!w) {
      const inner = d;
      w = Object.assign(Object.create(inner) as Driver, {
        queryText: (text: string, params: readonly unknown[], name?: string, valueSensitive?: boolean, opts?: Parameters<Driver['queryText']>[4]) =>
          traced(`query ${source}`, source, text, () => inner.queryText(text, params, name, valueSensitive, opts)),
        query: (text: string, params?: readonly unknown[], opts?: Parameters<Driver['query']>[2]) =>
          traced(`query ${source}`, source, text, () => inner.query(text, params, opts)),
        transaction: <T>(fn: Parameters<Driver['transaction']>[0], opts?: Parameters<Driver['transaction']>[1]) =>
          traced(`transaction ${source}`, source, null, () => inner.transaction(fn as never, opts) as Promise<T>),
      });
      wrapped.set(d, w);
    }
    return w;
  };
}
