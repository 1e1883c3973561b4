import type { ColumnModel, SourceNamespace, TableModel, TypeAffix } from '../../runtime/bundle/index.js';
import { typeNameOf } from '../../runtime/bundle/index.js';
import type { Introspection, IntrospectedTable } from '../introspect/index.js';
import type { Source, TableEntry, Json } from '../metadata/index.js';
import type { Issues } from './issues.js';
import { tableObjectName } from './names.js';
import { enumTableProblem } from './enum-table.js';
import { isGraphqlName } from './scalars.js';
import { defaultTableName, isBuiltinTypeSchema, isIdentityColumn, scalarOf } from './dialect-names.js';

/** `source:schema.name` */
export function tableId(source: string, schema: string, name: string): string {
  return `${source}:${schema}.${name}`;
}

/**
 * A root field's name with the source's `customization.root_fields` prefix and suffix (applied on
 * top, as Hasura does); under a namespace, the RoleRoots key `<namespace>.<field>`.
 */
export function rootFieldName(source: Source, name: string): string {
  const rf = source.customization?.root_fields;
  const field = `${rf?.prefix ?? ''}${name}${rf?.suffix ?? ''}`;
  return rf?.namespace ? `${rf.namespace}.${field}` : field;
}

/** The source's `customization.type_names` as a TypeAffix; undefined when it adds nothing. */
export function typeAffixOf(source: Source): TypeAffix | undefined {
  const tn = source.customization?.type_names;
  if (!tn?.prefix && !tn?.suffix) return undefined;
  return { prefix: tn.prefix ?? '', suffix: tn.suffix ?? '' };
}

/** The source's root-field namespace and the names of its types (Hasura: `<ns>_query`, `<ns>_mutation_frontend`); undefined without one. */
export function namespaceOf(source: Source): SourceNamespace | undefined {
  const field = source.customization?.root_fields?.namespace;
  if (!field) return undefined;
  const affix = typeAffixOf(source);
  const named = (kind: string): string => typeNameOf({ typeName: field, ...(affix ? { typeAffix: affix } : {}) }, kind);
  return { field, queryType: named('_query'), mutationType: named('_mutation_frontend') };
}

/** Hasura's `textToName` refusal of a name it would put in the schema (a column's, a relationship's). */
export function notAName(name: string): string {
  return `cannot include ${JSON.stringify(name)} in the GraphQL schema because  it is not a valid GraphQL identifier`;
}

/** What the later stages need beside the TableModel itself. */
export interface TableDraft {
  readonly model: TableModel;
  readonly entry: TableEntry;
  readonly db: IntrospectedTable;
}

const ROOT_KEYS = ['select', 'select_by_pk', 'select_aggregate', 'select_stream', 'insert', 'insert_one',
  'update', 'update_by_pk', 'update_many', 'delete', 'delete_by_pk'] as const;

function defaultRootName(key: string, t: string): string {
  switch (key) {
    case 'select': return t;
    case 'select_by_pk': return `${t}_by_pk`;
    case 'select_aggregate': return `${t}_aggregate`;
    case 'select_stream': return `${t}_stream`;
    case 'insert': return `insert_${t}`;
    case 'insert_one': return `insert_${t}_one`;
    case 'update': return `update_${t}`;
    case 'update_by_pk': return `update_${t}_by_pk`;
    case 'update_many': return `update_${t}_many`;
    case 'delete': return `delete_${t}`;
    default: return `delete_${t}_by_pk`;
  }
}

/** Joins each tracked table with its catalog entry; a table missing from the database is inconsistent. */
export function resolveTables(source: Source, db: Introspection, issues: Issues): TableDraft[] {
  const byName = new Map(db.tables.map((t) => [`${t.schema}.${t.name}`, t]));
  const enumTables = new Set<string>();
  for (const entry of source.tables) if (entry.is_enum) enumTables.add(`${entry.table.schema}.${entry.table.name}`);
  const drafts: TableDraft[] = [];
  for (const entry of source.tables) {
    const key = `${entry.table.schema}.${entry.table.name}`;
    const dbTable = byName.get(key);
    if (!dbTable) {
      issues.add({ type: 'table', name: tableObjectName(source.name, entry.table), definition: { ...entry.table },
        reason: `no such table/view exists in source: "${entry.table.name}"` });
      continue;
    }
    const model = buildTable(source, entry, dbTable, db, enumTables, issues);
    if (model) drafts.push({ model, entry, db: dbTable });
  }
  return drafts;
}

function buildTable(source: Source, entry: TableEntry, t: IntrospectedTable, db: Introspection,
  enumTables: ReadonlySet<string>, issues: Issues): TableModel | null {
  const cfg = entry.configuration ?? {};
  const defaultName = defaultTableName(db.dialect, t.schema, t.name);
  const typeName = cfg.custom_name ?? defaultName;
  const fail = (reason: string): null => {
    issues.add({ type: 'table', name: tableObjectName(source.name, entry.table), definition: { ...entry.table } as Json, reason });
    return null;
  };
  // Hasura v2's wordings: qualifiedObjectToName for the table, textToName (with its two spaces) for
  // a column; the table is then inconsistent and so not tracked.
  if (!isGraphqlName(typeName)) {
    return fail(`cannot include ${JSON.stringify(t.schema === 'public' ? t.name : `${t.schema}.${t.name}`)} in the GraphQL schema because ${JSON.stringify(typeName)} is not a valid GraphQL identifier`);
  }
  const enumRefs = new Map<string, string>();
  for (const fk of t.foreignKeys) {
    const target = `${fk.refSchema}.${fk.refTable}`;
    if (fk.columns.length === 1 && enumTables.has(target)) {
      const refTypeName = defaultTableName(db.dialect, fk.refSchema, fk.refTable);
      const customized = source.tables.find((e) => `${e.table.schema}.${e.table.name}` === target)?.configuration?.custom_name;
      enumRefs.set(fk.columns[0]!, `${customized ?? refTypeName}_enum`);
    }
  }
  // Configuration of a column the table does not have makes the table inconsistent (Hasura's
  // collectColumnConfiguration), as do two columns given one GraphQL name (assertNoDuplicateFieldNames).
  const configured = [...new Set([...Object.keys(cfg.column_config ?? {}), ...Object.keys(cfg.custom_column_names ?? {})])].sort();
  const unknown = configured.find((name) => !t.columns.some((c) => c.name === name));
  if (unknown !== undefined) return fail(`configuration was given for the column ${JSON.stringify(unknown)}, but no such column exists`);
  const columns: ColumnModel[] = [];
  for (const c of t.columns) {
    const field = cfg.column_config?.[c.name]?.custom_name ?? cfg.custom_column_names?.[c.name] ?? c.name;
    const isArray = c.typeKind === 'array';
    const type = isBuiltinTypeSchema(c.typeSchema) ? c.type : `${c.typeSchema}.${c.type}`;
    const info = scalarOf(db.dialect, c.type, isArray);
    const enumScalar = enumRefs.get(c.name);
    if (!isGraphqlName(field)) return fail(notAName(field));
    if (!enumScalar && !isGraphqlName(info.scalar)) {
      return fail(`cannot use SQL type "${c.type}" in the GraphQL schema because its name is not a valid GraphQL identifier`);
    }
    columns.push({
      name: c.name, field, type, nullable: c.nullable, isArray,
      scalar: enumScalar ?? info.scalar, category: enumScalar ? 'enum' : info.category,
      comparable: enumScalar ? false : info.comparable, numeric: enumScalar ? false : info.numeric,
      comment: cfg.column_config?.[c.name]?.comment ?? c.comment,
      ...(isIdentityColumn(db.dialect, c.generated) ? { identity: true as const } : {}),
    });
  }
  const clash = sameFieldName(columns);
  if (clash) return fail(clash);
  const rootFieldNames: Record<string, string> = {};
  const rootFieldComments: Record<string, string | null> = {};
  for (const key of ROOT_KEYS) {
    const custom = cfg.custom_root_fields?.[key];
    const name = typeof custom === 'string' ? custom : custom?.name ?? null;
    rootFieldNames[key] = rootFieldName(source, name ?? defaultRootName(key, typeName));
    rootFieldComments[key] = typeof custom === 'object' && custom !== null && custom.comment !== undefined ? custom.comment ?? '' : null;
  }
  let enumValues: TableModel['enumValues'] = null;
  if (entry.is_enum) {
    const values = db.enumValues.find((e) => e.schema === t.schema && e.name === t.name);
    const problem = enumTableProblem(t, values?.values ?? null);
    if (problem || !values) return fail(problem ?? `the table "${t.name}" cannot be used as an enum`);
    enumValues = values.values;
  }
  const typeAffix = typeAffixOf(source);
  return {
    id: tableId(source.name, t.schema, t.name), source: source.name, schema: t.schema, name: t.name, typeName,
    ...(typeAffix ? { typeAffix } : {}),
    comment: cfg.comment ?? t.comment, columns, primaryKey: t.primaryKey?.columns ?? [],
    // A constraint whose name is no GraphQL name cannot be a value of `<t>_constraint`: it is left
    // out (Hasura 2.x refused the whole table for it at first, then left such names out).
    uniqueConstraints: [...(t.primaryKey ? [t.primaryKey] : []), ...t.uniqueConstraints].filter((u) => isGraphqlName(u.name)),
    relationships: [], computedFields: [], rootFieldNames, rootFieldComments, enumValues,
  };
}

// Columns mapped to one GraphQL name, in Hasura's words (the first such name), or null.
function sameFieldName(columns: readonly ColumnModel[]): string | null {
  for (const c of columns) {
    const same = columns.filter((x) => x.field === c.field);
    if (same.length < 2) continue;
    const names = same.map((x) => JSON.stringify(x.name));
    const listed = names.length === 2 ? `${names[0]} and ${names[1]}` : `${names.slice(0, -1).join(', ')}, and ${names[names.length - 1]}`;
    return `the definitions of columns ${listed} are in conflict: they are mapped to the same field name, ${JSON.stringify(c.field)}`;
  }
  return null;
}
