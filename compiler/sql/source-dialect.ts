// The dialect a root field's statement is rendered in: its table's source's.

import type { BundleModel } from '../../runtime/bundle/index.js';
import { dialectNamed, postgres, type Dialect } from '../../runtime/sql/index.js';

/** The dialect of the source of table `tableId` (PostgreSQL for sources Kiln renders no other way). */
export function tableDialect(model: BundleModel, tableId: string): Dialect {
  const source = model.tables[tableId]?.source;
  const name = model.sources.find((s) => s.name === source)?.dialect ?? 'postgres';
  return dialectNamed(name) ?? postgres;
}

/** The dialect of source `name` (PostgreSQL for sources Kiln renders no other way). */
export function sourceDialect(model: BundleModel, name: string): Dialect {
  return dialectNamed(model.sources.find((s) => s.name === name)?.dialect ?? 'postgres') ?? postgres;
}
