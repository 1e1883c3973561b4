// Types of scripts/bigquery/zetasql.mjs (ZetaSQL's local server) for the tests that analyse SQL.

export interface ZetaTypeProto { readonly typeKind: string; readonly [k: string]: unknown }

export interface ZetaSql {
  tableNames(sql: string): Promise<string[]>;
  analyze(sql: string, tables: { readonly [name: string]: readonly { readonly name: string; readonly type: ZetaTypeProto }[] }): Promise<void>;
  close(): void;
}

export function startZetaSql(): Promise<ZetaSql>;
