// The catalog reader of a driver's dialect.

import type { Driver } from '../../runtime/drivers/index.js';
import { introspectMssql } from './mssql.js';
import { introspectPostgres } from './postgres.js';
import type { Introspection } from './types.js';

const READERS: { readonly [d in Driver['dialect']['name']]?: (driver: Driver) => Promise<Introspection> } = {
  postgres: introspectPostgres,
  mssql: introspectMssql,
};

/** Reads the catalog behind `driver` with its dialect's reader. */
export function introspectWith(driver: Driver): Promise<Introspection> {
  const read = READERS[driver.dialect.name];
  if (!read) throw new Error(`no catalog reader for ${driver.dialect.name} sources`);
  return read(driver);
}
