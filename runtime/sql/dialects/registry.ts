// The dialects by name: what a source's `dialect` in the bundle model renders with.

import type { Dialect } from '../dialect.js';
import { mssql } from './mssql.js';
import { postgres } from './postgres.js';

const DIALECTS: { readonly [name in Dialect['name']]?: Dialect } = {
  postgres,
  mssql,
};

/** The dialect of a source kind; null when Kiln renders none for it. */
export function dialectNamed(name: Dialect['name']): Dialect | null {
  return DIALECTS[name] ?? null;
}
