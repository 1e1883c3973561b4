// Custom types (set_custom_types, reference/actions.md §1) checked as Hasura v2 checks them
// (Hasura.RQL.DDL.CustomTypes: its reasons, its order, one inconsistent object `custom_types`):
// duplicate type, field and enum-value names; field types that exist (a custom type, a GraphQL
// built-in, or a database scalar such as `uuid`, which is then reused); relationships whose fields
// are non-list fields of the object and whose columns exist on a tracked table of one source.

import type {
  CustomEnumModel, CustomFieldModel, CustomInputObjectModel, CustomObjectModel, CustomRelationshipModel, CustomScalarModel, Json, TableModel,
} from '../../runtime/bundle/index.js';
import type { Issues } from './issues.js';
import { tableId } from './tables.js';

/** The GraphQL scalars every schema has (Hasura's defaultGraphQLScalars). */
export const GRAPHQL_SCALARS: ReadonlySet<string> = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

/** Custom types as the schema and the actions read them, plus the database scalars they reuse. */
export interface ResolvedCustomTypes {
  readonly scalars: readonly CustomScalarModel[];
  readonly enums: readonly CustomEnumModel[];
  readonly inputObjects: readonly CustomInputObjectModel[];
  readonly objects: readonly CustomObjectModel[];
  readonly reused: ReadonlySet<string>;
}

type Obj = { readonly [k: string]: Json };

const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const listOf = (v: Json | undefined): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const text = (v: Json | undefined): string => (typeof v === 'string' ? v : '');
const textOrNull = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);
const q = (s: string): string => JSON.stringify(s);
const quoteList = (names: readonly string[]): string => [...new Set(names)].map(q).join(', ');

/** The named type at the bottom of a type text (`[String!]!` gives `String`). */
export function baseOf(type: string): string {
  return type.replace(/[[\]!\s]/g, '');
}

/** True when a type text is a list at its top (`[T]`, `[T]!`). */
export function isListType(type: string): boolean {
  return type.trim().startsWith('[');
}

function duplicates(names: readonly string[]): string[] {
  return names.filter((n, i) => names.indexOf(n) !== i);
}

/**
 * Resolves `custom_types` against the tracked tables and the database scalars. A problem makes
 * the whole section inconsistent (reported once, with every reason as Hasura joins them) and
 * resolves to no custom types.
 */
export function resolveCustomTypes(raw: Json | undefined, tables: ReadonlyMap<string, TableModel>, dbScalars: ReadonlySet<string>,
  issues: Issues): ResolvedCustomTypes {
  const doc = isObj(raw) ? raw : {};
  const scalars = listOf(doc['scalars']).map((s): CustomScalarModel => ({ name: text(s['name']), description: textOrNull(s['description']) }));
  const enums = listOf(doc['enums']).map((e): CustomEnumModel => ({ name: text(e['name']), description: textOrNull(e['description']),
    values: listOf(e['values']).map((v) => ({ value: text(v['value']), description: textOrNull(v['description']), isDeprecated: v['is_deprecated'] === true })) }));
  const fieldsOf = (o: Obj): CustomFieldModel[] => listOf(o['fields']).map((f) => ({ name: text(f['name']), type: text(f['type']), description: textOrNull(f['description']) }));
  const inputObjects = listOf(doc['input_objects']).map((o): CustomInputObjectModel => ({ name: text(o['name']), description: textOrNull(o['description']), fields: fieldsOf(o) }));
  const rawObjects = listOf(doc['objects']);
  const reasons: string[] = [];
  const reused = new Set<string>();
  const all = [...scalars, ...enums, ...inputObjects, ...rawObjects.map((o) => ({ name: text(o['name']) }))].map((t) => t.name);
  const dup = duplicates(all);
  if (dup.length > 0) reasons.push(`duplicate type names: ${quoteList(dup)}`);
  const scalarNames = new Set([...scalars.map((s) => s.name), ...GRAPHQL_SCALARS]);
  const enumNames = new Set(enums.map((e) => e.name));
  const inputNames = new Set(inputObjects.map((o) => o.name));
  const objectNames = new Set(rawObjects.map((o) => text(o['name'])));
  for (const e of enums) {
    const d = duplicates(e.values.map((v) => v.value));
    if (d.length > 0) reasons.push(`the enum type ${q(e.name)} has duplicate values: ${quoteList(d)}`);
  }
  for (const o of inputObjects) {
    const d = duplicates(o.fields.map((f) => f.name));
    if (d.length > 0) reasons.push(`the input object ${q(o.name)} has duplicate fields: ${quoteList(d)}`);
    for (const f of o.fields) {
      const base = baseOf(f.type);
      if (scalarNames.has(base) || enumNames.has(base) || inputNames.has(base)) continue;
      if (dbScalars.has(base)) { reused.add(base); continue; }
      // Hasura stops at the first input field whose type is unknown (refute).
      reasons.push(`the type ${q(base)} for field ${q(f.name)} in  input object type ${q(o.name)} does not exist`);
      break;
    }
  }
  const objects: CustomObjectModel[] = [];
  for (const o of rawObjects) {
    const name = text(o['name']);
    const fields = fieldsOf(o);
    const rels = listOf(o['relationships']);
    const d = duplicates([...fields.map((f) => f.name), ...rels.map((r) => text(r['name']))]);
    if (d.length > 0) reasons.push(`the object ${q(name)} has duplicate fields: ${quoteList(d)}`);
    for (const f of listOf(o['fields'])) if (f['arguments'] !== undefined && f['arguments'] !== null) reasons.push(`the object ${q(name)} can't have arguments`);
    let known = true;
    for (const f of fields) {
      const base = baseOf(f.type);
      if (scalarNames.has(base) || enumNames.has(base) || objectNames.has(base)) continue;
      if (dbScalars.has(base)) { reused.add(base); continue; }
      reasons.push(`the type ${q(base)} for field ${q(f.name)} in  object type ${q(name)} does not exist`);
      known = false;
      break;
    }
    if (!known) continue;
    const relationships = resolveRelationships(name, fields, rels, tables, reasons);
    objects.push({ name, description: textOrNull(o['description']), fields, relationships });
  }
  if (reasons.length > 0) {
    const reason = reasons.length === 1 ? `because ${reasons[0]!}` : `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
    issues.add({ type: 'custom_types', name: 'custom_types custom_types', definition: hasuraCustomTypes(doc), reason: `validation for the given custom types failed ${reason}` });
    return { scalars: [], enums: [], inputObjects: [], objects: [], reused: new Set() };
  }
  return { scalars, enums, inputObjects, objects, reused };
}

/**
 * The custom types as Hasura writes them in an inconsistent object's `definition`: aeson's ToJSON
 * of its parsed `CustomTypes` (Hasura.RQL.Types.CustomTypes), so every key of every record is
 * there, `null` where the metadata gave none (`input_objects`, `description`, a field's
 * `arguments`, an object's `relationships`), and a relationship carries its `source` and its
 * `remote_table` as `{schema, name}`.
 */
export function hasuraCustomTypes(doc: Obj): Json {
  const given = (o: Obj, k: string): Json => o[k] ?? null;
  const list = (o: Obj, k: string, each: (x: Obj) => Json): Json => (Array.isArray(o[k]) ? listOf(o[k]).map(each) : given(o, k));
  const relationship = (r: Obj): Json => {
    const ref = r['remote_table'];
    const remoteTable = typeof ref === 'string' ? { schema: 'public', name: ref } : isObj(ref) ? { schema: ref['schema'] ?? 'public', name: given(ref, 'name') } : given(r, 'remote_table');
    return { name: given(r, 'name'), type: given(r, 'type'), source: r['source'] ?? 'default', remote_table: remoteTable, field_mapping: given(r, 'field_mapping') };
  };
  return {
    input_objects: list(doc, 'input_objects', (o) => ({ name: given(o, 'name'), description: given(o, 'description'),
      fields: list(o, 'fields', (f) => ({ name: given(f, 'name'), description: given(f, 'description'), type: given(f, 'type') })) })),
    objects: list(doc, 'objects', (o) => ({ name: given(o, 'name'), description: given(o, 'description'),
      fields: list(o, 'fields', (f) => ({ name: given(f, 'name'), arguments: given(f, 'arguments'), description: given(f, 'description'), type: given(f, 'type') })),
      relationships: list(o, 'relationships', relationship) })),
    scalars: list(doc, 'scalars', (x) => ({ name: given(x, 'name'), description: given(x, 'description') })),
    enums: list(doc, 'enums', (e) => ({ name: given(e, 'name'), description: given(e, 'description'),
      values: list(e, 'values', (v) => ({ value: given(v, 'value'), description: given(v, 'description'), is_deprecated: given(v, 'is_deprecated') })) })),
  };
}

function resolveRelationships(objectName: string, fields: readonly CustomFieldModel[], rels: readonly Obj[], tables: ReadonlyMap<string, TableModel>,
  reasons: string[]): CustomRelationshipModel[] {
  const sources = new Set(rels.map((r) => textOrNull(r['source']) ?? 'default'));
  if (sources.size > 1) {
    reasons.push(`the object ${q(objectName)} has relationships refers to tables in multiple sources`);
    return [];
  }
  const out: CustomRelationshipModel[] = [];
  for (const r of rels) {
    const relName = text(r['name']);
    const ref = r['remote_table'];
    const schema = isObj(ref) ? text(ref['schema']) || 'public' : 'public';
    const tableName = isObj(ref) ? text(ref['name']) : text(ref);
    const tableText = schema === 'public' ? tableName : `${schema}.${tableName}`;
    const t = tables.get(tableId(textOrNull(r['source']) ?? 'default', schema, tableName));
    if (!t) {
      reasons.push(`the remote table ${q(tableText)} for relationship ${q(relName)} of object type ${q(objectName)} does not exist`);
      continue;
    }
    const mapping: [string, string][] = [];
    const fieldMapping = isObj(r['field_mapping']) ? r['field_mapping'] : {};
    for (const [field, column] of Object.entries(fieldMapping)) {
      const f = fields.find((x) => x.name === field);
      if (!f) reasons.push(`the field ${q(field)} for relationship ${q(relName)} in object type ${q(objectName)} does not exist`);
      else if (isListType(f.type)) reasons.push(`the type of the field ${q(field)} for relationship ${q(relName)} in object type ${q(objectName)} is a list type`);
      const col = text(column);
      if (!t.columns.some((c) => c.name === col)) {
        reasons.push(`the column ${q(col)} of remote table ${q(tableText)} for relationship ${q(relName)} of object type ${q(objectName)} does not exist`);
        continue;
      }
      mapping.push([field, col]);
    }
    mapping.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out.push({ name: relName, kind: r['type'] === 'array' ? 'array' : 'object', target: t.id, mapping });
  }
  return out;
}
