// The plain JSON snapshot of a database catalog: what `kiln introspect` writes and `compile` reads.
// Dialect-neutral: the Postgres, MSSQL and BigQuery readers all produce this shape.

export interface Introspection {
  readonly dialect: 'postgres' | 'mssql' | 'bigquery';
  /** Server version string, informational only (not part of the bundle hash). */
  readonly serverVersion?: string;
  readonly schemas: readonly string[];
  /** Tables, views and materialized views, sorted by (schema, name). */
  readonly tables: readonly IntrospectedTable[];
  /** Functions, sorted by (schema, name); overloads appear once each. */
  readonly functions: readonly IntrospectedFunction[];
  /** Enum (and other non-table) types known to the catalog, sorted. */
  readonly types?: readonly IntrospectedType[];
  /** Rows of every table shaped like an enum table (single-column text primary key, plus at most
   *  one more text column), sorted by value, so that `compile` needs no database. */
  readonly enumValues: readonly EnumTableValues[];
}

export interface IntrospectedTable {
  readonly schema: string;
  readonly name: string;
  readonly kind: 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';
  readonly comment: string | null;
  /** In ordinal order. */
  readonly columns: readonly IntrospectedColumn[];
  readonly primaryKey: { readonly name: string; readonly columns: readonly string[] } | null;
  readonly uniqueConstraints: readonly { readonly name: string; readonly columns: readonly string[] }[];
  readonly foreignKeys: readonly IntrospectedForeignKey[];
  /** Views: whether insert/update/delete work through it. Tables: all true. */
  readonly mutable?: { readonly insertable: boolean; readonly updatable: boolean; readonly deletable: boolean };
}

export interface IntrospectedColumn {
  readonly name: string;
  readonly position: number;
  /** The catalog type name: `int4`, `text`, `numeric`, `jsonb`, `_text` for text[], `mood` for an enum. */
  readonly type: string;
  /** Schema of the type (`pg_catalog` for built-ins). */
  readonly typeSchema: string;
  /** `b` base, `e` enum, `c` composite, `d` domain, `r` range, `a` array (element in `elementType`). */
  readonly typeKind: 'base' | 'enum' | 'composite' | 'domain' | 'range' | 'array' | 'pseudo' | 'multirange';
  readonly elementType?: string | null;
  readonly nullable: boolean;
  readonly default: string | null;
  /** Identity (`always`, `by_default`) or a generated column (`stored`; `virtual` from PostgreSQL 18).
   *  A generated column has `default: null`: its expression is not a default. */
  readonly generated: 'always' | 'by_default' | 'stored' | 'virtual' | null;
  readonly comment: string | null;
}

export interface IntrospectedForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly refSchema: string;
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

export interface IntrospectedFunction {
  readonly schema: string;
  readonly name: string;
  readonly comment: string | null;
  readonly volatility: 'immutable' | 'stable' | 'volatile';
  /** In declaration order; input arguments only (IN, INOUT, VARIADIC). */
  readonly args: readonly { readonly name: string | null; readonly type: string; readonly typeSchema: string; readonly hasDefault: boolean }[];
  readonly returnType: string;
  readonly returnTypeSchema: string;
  /** `table` when the return type is the row type of a table or view, `void`, `scalar` for a base,
   *  enum or domain type (arrays included), `other` for anything else (record, trigger, a
   *  standalone composite type, a range). */
  readonly returnKind: 'table' | 'scalar' | 'void' | 'other';
  readonly returnsSet: boolean;
  /** How many overloads share this schema-qualified name. */
  readonly overloads: number;
  /** Set when its last argument is VARIADIC (Hasura does not track such a function). */
  readonly variadic?: true;
}

export interface IntrospectedType {
  readonly schema: string;
  readonly name: string;
  readonly kind: 'enum' | 'composite' | 'domain' | 'range' | 'base';
  /** Enum labels in their declared order (enums only). */
  readonly enumValues?: readonly string[];
  /** The underlying type of a domain, and its schema (domains only). */
  readonly baseType?: string;
  readonly baseTypeSchema?: string;
}

/** Rows of an enum-shaped table, read at introspection time (the metadata decides which tables
 *  are `is_enum`); at most 10,000 rows, the lowest values in byte order. */
export interface EnumTableValues {
  readonly schema: string;
  readonly name: string;
  readonly values: readonly { readonly value: string; readonly comment: string | null }[];
}

