// Reads a BigQuery source's catalog through the BigQuery API (datasets' tables, tables.get for
// each schema) into the dialect-neutral Introspection snapshot. BigQuery has no primary, unique or
// foreign keys that Hasura reads, no defaults Kiln uses, no functions here: those lists are empty.

import type { BigQueryDriver, TableField, TableMetadata } from '../../runtime/drivers/index.js';
import type { IntrospectedColumn, IntrospectedTable, Introspection } from './types.js';

/** BigQuery's legacy type names as the Standard SQL ones (`INTEGER` is `INT64`). */
const STANDARD: { readonly [t: string]: string } = {
  INTEGER: 'INT64', FLOAT: 'FLOAT64', BOOLEAN: 'BOOL', RECORD: 'STRUCT',
};

const KINDS: { readonly [t: string]: IntrospectedTable['kind'] } = {
  TABLE: 'table', VIEW: 'view', MATERIALIZED_VIEW: 'materialized_view', EXTERNAL: 'foreign_table', SNAPSHOT: 'table',
};

/** The tables of `datasets`, sorted by (dataset, name), with their columns in schema order. */
export async function introspectBigQuery(driver: Pick<BigQueryDriver, 'tablesOf'>, datasets: readonly string[]): Promise<Introspection> {
  const tables: IntrospectedTable[] = [];
  const sorted = [...new Set(datasets)].sort();
  for (const dataset of sorted) {
    for (const t of await driver.tablesOf(dataset)) tables.push(tableOf(dataset, t.name, t.metadata));
  }
  return { dialect: 'bigquery', schemas: sorted, tables, functions: [], enumValues: [] };
}

/** One table's snapshot from its tables.get metadata. */
export function tableOf(dataset: string, name: string, m: TableMetadata): IntrospectedTable {
  return {
    schema: dataset, name, kind: KINDS[m.type ?? 'TABLE'] ?? 'table', comment: m.description ?? null,
    columns: (m.schema?.fields ?? []).map((f, i) => columnOf(f, i + 1)),
    primaryKey: null, uniqueConstraints: [], foreignKeys: [],
    mutable: { insertable: false, updatable: false, deletable: false },
  };
}

function columnOf(f: TableField, position: number): IntrospectedColumn {
  const type = STANDARD[f.type] ?? f.type;
  const repeated = f.mode === 'REPEATED';
  return {
    name: f.name, position, type: repeated ? `ARRAY<${type}>` : type, typeSchema: 'bigquery',
    typeKind: repeated ? 'array' : type === 'STRUCT' ? 'composite' : 'base', elementType: repeated ? type : null,
    nullable: f.mode !== 'REQUIRED', default: null, generated: null, comment: f.description ?? null,
  };
}
