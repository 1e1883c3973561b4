// What a table's GraphQL names and scalars depend on per dialect: the schema whose tables keep
// their bare name (`public`, MSSQL's `dbo`; none on BigQuery), and the type-to-scalar mapping.

import type { Introspection } from '../introspect/index.js';
import { mssqlScalarFor } from './mssql-scalars.js';
import { scalarFor, type ScalarInfo } from './scalars.js';

type DialectName = Introspection['dialect'];

/** The schema whose tables are named without a `<schema>_` prefix; null when every name has one. */
export function homeSchema(dialect: DialectName): string | null {
  switch (dialect) {
    case 'postgres': return 'public';
    case 'mssql': return 'dbo';
    case 'bigquery': return null;
  }
}

/** `album` in the home schema, else `<schema>_album`. */
export function defaultTableName(dialect: DialectName, schema: string, name: string): string {
  return schema === homeSchema(dialect) ? name : `${schema}_${name}`;
}

/** A catalog type's GraphQL scalar in the source's dialect. */
export function scalarOf(dialect: DialectName, type: string, isArray: boolean): ScalarInfo {
  return dialect === 'mssql' ? mssqlScalarFor(type) : scalarFor(type, isArray);
}

/** Type schemas whose types are written without a schema (`pg_catalog`, `public`, MSSQL's `sys`). */
export function isBuiltinTypeSchema(schema: string): boolean {
  return schema === 'pg_catalog' || schema === 'public' || schema === 'sys';
}
