/** Reads a live PostgreSQL catalog into an Introspection snapshot. */
export { introspectPostgres, isEnumShaped, ENUM_TABLE_ROW_LIMIT, type CatalogConnection } from './postgres.js';
/** Checks parsed JSON against the snapshot shape (`parse-failed` with a path when it is not one). */
export { introspectionFromJson } from './snapshot.js';
/** The snapshot types, shared by every dialect's reader. */
export type {
  Introspection, IntrospectedTable, IntrospectedColumn, IntrospectedForeignKey, IntrospectedFunction,
  IntrospectedType, EnumTableValues,
} from './types.js';
/** Reads a live SQL Server catalog (one query over sys.*) into an Introspection snapshot. */
export { introspectMssql, introspectionFromMssqlCatalog, type MssqlCatalogConnection } from './mssql.js';
/** The catalog reader of a driver's dialect. */
export { introspectWith } from './by-dialect.js';
/** Reads a BigQuery source's datasets (tables and their schemas) through the BigQuery API. */
export { introspectBigQuery } from './bigquery.js';
