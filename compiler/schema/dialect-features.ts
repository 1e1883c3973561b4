// What a table's schema offers depends on its source's dialect, as in Hasura v2: an MSSQL source
// has no `distinct_on`, no `on_conflict` (Hasura's MSSQL upsert argument is `if_matched`), and of
// the text operators only the LIKE family (`_ilike` compares under a case-insensitive collation).

import type { TableModel } from '../../runtime/bundle/index.js';
import type { SchemaContext } from './context.js';

export interface SchemaFeatures {
  readonly distinctOn: boolean;
  readonly onConflict: boolean;
  /** The text operators offered; null: all of PostgreSQL's. */
  readonly textOps: ReadonlySet<string> | null;
}

const POSTGRES: SchemaFeatures = { distinctOn: true, onConflict: true, textOps: null };
const MSSQL: SchemaFeatures = { distinctOn: false, onConflict: false, textOps: new Set(['_like', '_nlike', '_ilike', '_nilike']) };

/** The features of the dialect of `t`'s source. */
export function featuresOf(ctx: SchemaContext, t: Pick<TableModel, 'source'>): SchemaFeatures {
  const dialect = ctx.model.sources.find((s) => s.name === t.source)?.dialect;
  return dialect === 'mssql' ? MSSQL : POSTGRES;
}
