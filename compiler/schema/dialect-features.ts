// What a table's schema offers depends on its source's dialect, as in Hasura v2: an MSSQL source
// has no `distinct_on`, `if_matched` instead of `on_conflict` (Hasura's MSSQL upsert argument), and of
// the text operators only the LIKE family (`_ilike` compares under a case-insensitive collation);
// each backend's comparison types carry its name, as Hasura's do.

import type { TableModel } from '../../runtime/bundle/index.js';
import type { SchemaContext } from './context.js';

export interface SchemaFeatures {
  readonly distinctOn: boolean;
  readonly onConflict: boolean;
  /** Hasura's MSSQL upsert argument of inserts. */
  readonly ifMatched: boolean;
  /** The text operators offered; null: all of PostgreSQL's. */
  readonly textOps: ReadonlySet<string> | null;
  /**
   * How a scalar's comparison type is named after the scalar: Hasura gives each backend its own
   * (`String_comparison_exp`, `String_MSSQL_comparison_exp`, `Int_BigQuery_comparison_exp`), so
   * sources of several kinds in one schema keep their own operators.
   */
  readonly comparisonSuffix: string;
}

const POSTGRES: SchemaFeatures = { distinctOn: true, onConflict: true, ifMatched: false, textOps: null, comparisonSuffix: '_comparison_exp' };
const MSSQL: SchemaFeatures = { distinctOn: false, onConflict: false, ifMatched: true, textOps: new Set(['_like', '_nlike', '_ilike', '_nilike']), comparisonSuffix: '_MSSQL_comparison_exp' };
const BIGQUERY: SchemaFeatures = { ...POSTGRES, onConflict: false, comparisonSuffix: '_BigQuery_comparison_exp' };

/** The features of the dialect of `t`'s source. */
export function featuresOf(ctx: SchemaContext, t: Pick<TableModel, 'source'>): SchemaFeatures {
  const dialect = ctx.model.sources.find((s) => s.name === t.source)?.dialect;
  return dialect === 'mssql' ? MSSQL : dialect === 'bigquery' ? BIGQUERY : POSTGRES;
}
