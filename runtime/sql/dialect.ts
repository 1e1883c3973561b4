import type { Sql } from './fragment.js';

/** What generic SQL code asks of a dialect; no shared code branches on a dialect name. */
export interface Dialect {
  readonly name: 'postgres' | 'mssql' | 'bigquery';
  readonly can: { readonly returning: boolean; readonly outputClause: boolean; readonly transactions: boolean };
  quoteIdent(part: string): string;
  placeholder(index: number): string;
  /** `$1::int4`, or just the placeholder when the dialect binds types itself. */
  typedPlaceholder(index: number, type: string | null): string;
  /** A string literal for a JSON key (already checked to be a GraphQL name). */
  keyLiteral(name: string): string;
  jsonObject(pairs: ReadonlyArray<readonly [Sql, Sql]>): Sql;
  jsonArrayAgg(row: Sql, orderBy: Sql | null): Sql;
  emptyJsonArray(): Sql;
  page(limit: Sql | null, offset: Sql | null): Sql;
}
