// Remote relationship fields in a role's schema text: a field on the table's type whose type is
// the remote field's (in client names) or the target table's, visible when the role may select
// every join column (and sees the remote schema, or the target table). Arguments bound in
// `remote_field` are not the client's to give; the remote field's other arguments stay.

import {
  getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, Kind, parse, print, type DocumentNode,
  type FieldDefinitionNode, type GraphQLField, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema, type GraphQLType,
  type InputValueDefinitionNode, type ObjectTypeDefinitionNode, type TypeNode,
} from 'graphql';
import { typeNameOf, type BundleModel, type Json, type RemoteRelationshipModel, type TableModel } from '../bundle/index.js';
import { joinFieldsOf, type SchemaJoin } from './schema-joins.js';
import type { RemoteView } from './view.js';

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The path of a `remote_field` tree: each step's field name and its arguments. */
export function remoteFieldPath(tree: Json): { readonly name: string; readonly args: Obj }[] {
  const out: { name: string; args: Obj }[] = [];
  let node: Json | undefined = tree;
  while (isObj(node)) {
    const first: [string, Json] | undefined = Object.entries(node)[0];
    if (first === undefined) break;
    const name: string = first[0];
    const body: Json = first[1];
    out.push({ name, args: isObj(body) && isObj(body['arguments']) ? body['arguments'] : {} });
    node = isObj(body) ? body['field'] : undefined;
  }
  return out;
}

/** The remote field at the end of a relationship's path in the remote's schema (null: not there). */
export function leafField(schema: GraphQLSchema, tree: Json): GraphQLField<unknown, unknown> | null {
  let parent = schema.getQueryType() ?? null;
  let field: GraphQLField<unknown, unknown> | null = null;
  for (const step of remoteFieldPath(tree)) {
    if (!parent || !('getFields' in parent)) return null;
    field = (parent.getFields() as Record<string, GraphQLField<unknown, unknown>>)[step.name] ?? null;
    if (!field) return null;
    const named = getNamedType(field.type);
    parent = 'getFields' in named ? named as typeof parent : null;
  }
  return field;
}

function typeText(t: GraphQLType, rename: (n: string) => string): string {
  if (isNonNullType(t)) return `${typeText(t.ofType, rename)}!`;
  if (isListType(t)) return `[${typeText(t.ofType, rename)}]`;
  return rename(t.name);
}

/**
 * Why a remote relationship to a remote schema cannot be served (null: it can). With the table,
 * its `remote_field` is judged against the remote's schema as Hasura judges it
 * (RQL/DDL/RemoteRelationship/Validate.hs): each field of the path is on its parent type, each
 * argument given is one of the field's, an input object's keys are its fields, a list holds at
 * most one element, and a `$field` names a join field whose GraphQL scalar is the argument's
 * (or a singleton for a list of it; `ID` takes ID, Int, String, bigint, smallint, uuid); a literal
 * is an Int, Float, String or Boolean of the argument's type; null and enum values are refused.
 */
export function remoteRelationshipProblem(rel: RemoteRelationshipModel, view: RemoteView | undefined, table?: TableModel): string | null {
  if (rel.kind !== 'remote_schema') return null;
  if (!view) return `remote schema ${JSON.stringify(rel.remoteSchema)} is not consistent`;
  const path = remoteFieldPath(rel.remoteField);
  if (path.length === 0) return 'remote_field is empty';
  if (table) return remoteFieldProblem(view.schema, path, joinScalars(table, rel.lhsColumns));
  if (!leafField(view.schema, rel.remoteField)) return `field ${JSON.stringify(path.map((p) => p.name).join('.'))} does not exist in remote schema ${JSON.stringify(rel.remoteSchema)}`;
  return null;
}

// The GraphQL scalar of each join field: a column's, or a scalar computed field's return.
function joinScalars(t: TableModel, lhs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of lhs) {
    const column = t.columns.find((c) => c.name === f);
    const cf = column ? undefined : t.computedFields.find((c) => c.name === f);
    const scalar = column?.scalar ?? (cf?.returns.kind === 'scalar' ? cf.returns.scalar : undefined);
    if (scalar !== undefined) out.set(f, scalar);
  }
  return out;
}

const q = (s: string): string => JSON.stringify(s);

// A type as `(base name, list depth)`.
function baseAndDepth(t: GraphQLType): [string, number] {
  let depth = 0;
  let x: GraphQLType = t;
  for (;;) {
    if (isNonNullType(x)) x = x.ofType;
    else if (isListType(x)) { depth++; x = x.ofType; }
    else return [x.name, depth];
  }
}

function coercible(actual: string, expected: GraphQLType): string | null {
  const [base] = baseAndDepth(expected);
  if (base === 'ID') return ['ID', 'Int', 'String', 'bigint', 'smallint', 'uuid'].includes(actual) ? null
    : `Only ID, Int, uuid or String scalar types can be joined to the ID type, but received ${q(actual)}`;
  // A singleton goes to a list of any depth; the base types must be the same.
  return actual === base ? null : `expected type ${q(base)} but got ${q(actual)}`;
}

function valueProblem(v: Json, expected: GraphQLType, schema: GraphQLSchema, joins: ReadonlyMap<string, string>): string | null {
  if (typeof v === 'string' && v.startsWith('$')) {
    const scalar = joins.get(v.slice(1));
    return scalar === undefined ? `variable ${q(v.slice(1))} is not found` : coercible(scalar, expected);
  }
  if (v === null) return 'null is not allowed here';
  if (typeof v === 'number') return coercible(Number.isInteger(v) ? 'Int' : 'Float', expected);
  if (typeof v === 'boolean') return coercible('Boolean', expected);
  if (typeof v === 'string') {
    // Kiln's leniency (Hasura refuses enum values here): a string naming a value of an enum argument.
    const named = schema.getType(baseAndDepth(expected)[0]);
    if (isEnumType(named) && named.getValue(v)) return null;
    return coercible('String', expected);
  }
  if (Array.isArray(v)) {
    if (v.length > 1) return 'multiple elements in list value is not supported';
    const inner = isNonNullType(expected) ? expected.ofType : expected;
    if (!isListType(inner)) return `type ${q(baseAndDepth(expected)[0])}is not a list type`;
    for (const x of v) { const p = valueProblem(x, inner.ofType, schema, joins); if (p) return p; }
    return null;
  }
  const named = getNamedType(expected);
  const type = schema.getType(named.name);
  if (!type) return `type with name ${q(named.name)} not found`;
  for (const [k, x] of Object.entries(v)) {
    if (!isInputObjectType(type)) return `type ${q(k)}not an input object type`;
    const field = type.getFields()[k];
    if (!field) return `argument with name ${q(k)} not found in remote schema`;
    const p = valueProblem(x, field.type, schema, joins);
    if (p) return p;
  }
  return null;
}

function remoteFieldProblem(schema: GraphQLSchema, path: ReturnType<typeof remoteFieldPath>, joins: ReadonlyMap<string, string>): string | null {
  const root = schema.getQueryType();
  if (!root) return 'field with name "query_root" not found in remote schema';
  let parent: GraphQLObjectType = root;
  for (const step of path) {
    const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[step.name];
    if (!field) return `remote field with name ${q(step.name)} and type ${q(parent.name)} not found`;
    for (const [k, v] of Object.entries(step.args)) {
      const a = field.args.find((x) => x.name === k);
      if (!a) return `argument with name ${q(k)} not found in remote schema`;
      const p = valueProblem(v, a.type, schema, joins);
      if (p) return p;
    }
    // The next step is on the field's object type (Hasura looks no further than objects).
    const named = getNamedType(field.type);
    if (isObjectType(named)) parent = named;
  }
  return null;
}

/**
 * The suffix of the input types a table's remote relationship makes of the remote's (Hasura's
 * renameTypeForRelationship: `_remote_rel_` then the table, `schema_name` outside public, then the
 * relationship's name).
 */
export function strippedTypeSuffix(t: TableModel, rel: string): string {
  return `_remote_rel_${t.schema === 'public' ? t.name : `${t.schema}_${t.name}`}${rel}`;
}

type Stripping = { readonly suffix: string; readonly rename: (n: string) => string; readonly types: Map<string, string> };

/**
 * The arguments (or input fields) `defs` leave to the client once `template` binds some, as
 * Hasura's stripInMap (RQL/DDL/RemoteRelationship/Validate.hs): one not bound stays as it is;
 * one bound to a scalar, a variable or an empty list goes; one bound to an input object stays with
 * a new input type holding the fields the object does not bind (`<Type><suffix>`, added to
 * `types`), one bound to a one-element list keeps what its element leaves.
 */
function strippedArgs(defs: readonly { readonly name: string; readonly type: GraphQLInputType }[], template: Obj, st: Stripping): string[] {
  const out: string[] = [];
  for (const d of defs) {
    if (!(d.name in template)) { out.push(`${d.name}: ${typeText(d.type, st.rename)}`); continue; }
    const t = strippedType(d.type, template[d.name]!, st);
    if (t !== null) out.push(`${d.name}: ${t}`);
  }
  return out;
}

function strippedType(type: GraphQLInputType, v: Json, st: Stripping): string | null {
  const bang = isNonNullType(type) ? '!' : '';
  const inner = isNonNullType(type) ? type.ofType : type;
  if (Array.isArray(v)) {
    if (v.length !== 1 || !isListType(inner)) return null;
    const t = strippedType(inner.ofType, v[0]!, st);
    return t === null ? null : `[${t}]${bang}`;
  }
  if (!isObj(v) || !isInputObjectType(inner)) return null;
  const name = `${st.rename(inner.name)}${st.suffix}`;
  const fields = strippedArgs(Object.values(inner.getFields()), v, st);
  if (fields.length === 0) return null;
  st.types.set(name, `input ${name} { ${fields.join(' ')} }`);
  return `${name}${bang}`;
}

// A table's select field: at the query root, or, for a source with a root-field namespace
// (`ns.field`), among the fields of the namespace's type.
function selectField(doc: DocumentNode, queryRoot: ObjectTypeDefinitionNode | undefined, path: string): FieldDefinitionNode | undefined {
  let owner = queryRoot;
  const names = path.split('.');
  for (const ns of names.slice(0, -1)) {
    const field = owner?.fields?.find((f) => f.name.value === ns);
    if (!field) return undefined;
    const typeName = namedType(field.type);
    owner = doc.definitions.find((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === typeName);
  }
  return owner?.fields?.find((f) => f.name.value === names[names.length - 1]);
}

function namedType(t: TypeNode): string {
  return t.kind === Kind.NAMED_TYPE ? t.name.value : namedType(t.type);
}

function fieldText(rel: RemoteRelationshipModel, doc: DocumentNode, model: BundleModel, view: RemoteView | undefined, queryRoot: ObjectTypeDefinitionNode | undefined,
  owner?: { readonly table: TableModel; readonly types: Map<string, string> }): string | null {
  if (rel.kind === 'source') {
    const target = model.tables[rel.target];
    const type = target ? typeNameOf(target) : null;
    if (!type || !doc.definitions.some((d) => 'name' in d && d.name?.value === type && d.kind === Kind.OBJECT_TYPE_DEFINITION)) return null;
    if (rel.cardinality === 'object') return `${rel.name}: ${type}`;
    const root = selectField(doc, queryRoot, target!.rootFieldNames['select']!);
    const args = (root?.arguments ?? []).map((a: InputValueDefinitionNode) => print({ ...a, description: undefined }));
    return `${rel.name}${args.length ? `(${args.join(', ')})` : ''}: [${type}!]!`;
  }
  if (!view) return null;
  const leaf = leafField(view.schema, rel.remoteField);
  if (!leaf) return null;
  const template = remoteFieldPath(rel.remoteField).at(-1)!.args;
  const rename = (n: string): string => view.renaming.typeToClient(n);
  // A table's relationship takes its arguments in name order, as the table's other fields do.
  const args = owner
    ? strippedArgs(leaf.args, template, { suffix: strippedTypeSuffix(owner.table, rel.name), rename, types: owner.types }).sort()
    : leaf.args.filter((a) => !(a.name in template)).map((a) => `${a.name}: ${typeText(a.type, rename)}`);
  // The remote field's own nullability is not kept: a row whose join value is null gets null.
  const type = typeText(isNonNullType(leaf.type) ? leaf.type.ofType : leaf.type, rename);
  return `${rel.name}${args.length ? `(${args.join(', ')})` : ''}: ${type}`;
}

/** `sdl` with the remote relationship fields the role may see added to their tables' types. */
export function addRelationshipFields(sdl: string, role: string, model: BundleModel, views: readonly RemoteView[]): string {
  const tables = Object.values(model.tables).filter((t) => t.remoteRelationships?.length);
  if (tables.length === 0) return sdl;
  const doc = parse(sdl, { noLocation: true });
  const added = new Map<string, FieldDefinitionNode[]>();
  const types = new Map<string, string>();
  const queryRoot = doc.definitions.find((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'query_root');
  for (const t of tables) {
    const perm = model.select[role]?.[t.id];
    if (!perm) continue;
    for (const rel of t.remoteRelationships!) {
      const lhs = rel.kind === 'source' ? rel.mapping.map(([c]) => c) : rel.lhsColumns;
      if (!lhs.every((c) => perm.columns.includes(c) || perm.computedFields.includes(c))) continue;
      const view = rel.kind === 'remote_schema' ? views.find((v) => v.def.name === rel.remoteSchema) : undefined;
      const text = fieldText(rel, doc, model, view, queryRoot, { table: t, types });
      if (text === null) continue;
      const field = (parse(`type X { ${text} }`, { noLocation: true }).definitions[0] as ObjectTypeDefinitionNode).fields![0]!;
      added.set(typeNameOf(t), [...(added.get(typeNameOf(t)) ?? []), field]);
    }
  }
  if (added.size === 0) return sdl;
  const inputs = types.size === 0 ? [] : parse([...types.values()].join('\n'), { noLocation: true }).definitions;
  // A table's fields are in name order (compiler/schema/object-type.ts), the relationships' among them.
  const byName = (a: FieldDefinitionNode, b: FieldDefinitionNode): number => (a.name.value < b.name.value ? -1 : a.name.value > b.name.value ? 1 : 0);
  return print({ ...doc, definitions: [...doc.definitions.map((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION && added.has(d.name.value)
    ? { ...d, fields: [...(d.fields ?? []), ...added.get(d.name.value)!].sort(byName) } : d)), ...inputs] });
}

/** The remote relationship of a table by its field name. */
export function remoteRelationshipOf(t: TableModel, field: string): RemoteRelationshipModel | undefined {
  return t.remoteRelationships?.find((r) => r.name === field);
}

/**
 * `sdl` with the relationships from remote types the role may use added to those types (in client
 * names): the role sees the remote type with every join field, and may select the target table, or
 * sees the target remote with the called field.
 */
export function addSchemaJoinFields(sdl: string, role: string, model: BundleModel, views: readonly RemoteView[], joins: readonly SchemaJoin[]): string {
  if (joins.length === 0) return sdl;
  const doc = parse(sdl, { noLocation: true });
  const queryRoot = doc.definitions.find((d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'query_root');
  const added = new Map<string, FieldDefinitionNode[]>();
  for (const j of joins) {
    const view = views.find((v) => v.def.name === j.remote);
    const type = view?.schema.getType(j.typeName);
    if (!view || !type || !('getFields' in type)) continue;
    const fields = type.getFields() as Record<string, unknown>;
    if (!joinFieldsOf(j).every((f) => f in fields)) continue;
    let text: string | null;
    if (j.kind === 'source') {
      // The role may select the table and its join columns (the join filters on them, as the role).
      const perm = model.select[role]?.[j.target];
      if (!perm || !j.mapping.every(([, c]) => perm.columns.includes(c))) continue;
      text = fieldText({ kind: 'source', name: j.name, cardinality: j.cardinality, target: j.target, mapping: [] }, doc, model, undefined, queryRoot);
    } else {
      // The role sees the other remote (with permissions on, its own view of it: the field path must be in it).
      const target = views.find((v) => v.def.name === j.remoteSchema);
      text = fieldText({ kind: 'remote_schema', name: j.name, remoteSchema: j.remoteSchema, lhsColumns: j.lhsFields, remoteField: j.remoteField }, doc, model, target, queryRoot);
    }
    if (text === null) continue;
    const field = (parse(`type X { ${text} }`, { noLocation: true }).definitions[0] as ObjectTypeDefinitionNode).fields![0]!;
    const client = view.renaming.typeToClient(j.typeName);
    added.set(client, [...(added.get(client) ?? []), field]);
  }
  if (added.size === 0) return sdl;
  return print({ ...doc, definitions: doc.definitions.map((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION && added.has(d.name.value)
    ? { ...d, fields: [...(d.fields ?? []), ...added.get(d.name.value)!] } : d)) });
}
