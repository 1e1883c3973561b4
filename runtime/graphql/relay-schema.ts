// The Relay schema of a role (POST /v1beta1/relay), as Hasura v2 builds it (GraphQL/Schema.hs
// buildRelayRoleContext, Schema/Relay.hs, Schema/Select.hs): its query root holds `node(id: ID!):
// Node` and a `<select>_connection` per table with a primary key the role reads (and per function
// returning rows of one), each answering `<table>Connection!`; a table with a key is an object
// implementing the Node interface, its global `id: ID!` in place of any column so named, each array
// relationship to such a table also given as `<rel>_connection`; remote relationships are not in
// it. The mutation root is the ordinary one; the subscription root has the query root's fields. The schema is made from the role's
// ordinary SDL, so types, arguments and descriptions are the ordinary schema's; types no root
// reaches (actions, remote schemas, the plain select fields' only types) are left out.

import { Kind, parse, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type InputValueDefinitionNode, type NamedTypeNode,
  type ObjectTypeDefinitionNode, type OperationTypeDefinitionNode, type StringValueNode, type TypeNode } from 'graphql';
import type { BundleModel, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';

const nameNode = (value: string) => ({ kind: Kind.NAME, value } as const);
const namedType = (name: string): NamedTypeNode => ({ kind: Kind.NAMED_TYPE, name: nameNode(name) });
const nonNull = (type: NamedTypeNode): TypeNode => ({ kind: Kind.NON_NULL_TYPE, type });
const text = (value: string | undefined): StringValueNode | undefined => (value === undefined ? undefined : { kind: Kind.STRING, value, block: false });
const field = (name: string, type: TypeNode, args: readonly InputValueDefinitionNode[] = [], description?: string): FieldDefinitionNode =>
  ({ kind: Kind.FIELD_DEFINITION, name: nameNode(name), type, arguments: args, description: text(description), directives: [] });
const byName = <T extends { readonly name: { readonly value: string } }>(a: T, b: T): number => (a.name.value < b.name.value ? -1 : a.name.value > b.name.value ? 1 : 0);

// A connection's paging arguments (Hasura's tableConnectionArgs: first/last non-negative, cursors
// base64 text), in place of limit and offset; the select arguments (where, order_by, distinct_on,
// a function's args) stay.
const PAGING: readonly InputValueDefinitionNode[] = (parse('type X { f(after: String, before: String, first: Int, last: Int): Int }').definitions[0] as ObjectTypeDefinitionNode)
  .fields![0]!.arguments!;

function connectionArgs(args: readonly InputValueDefinitionNode[] | undefined): InputValueDefinitionNode[] {
  return [...(args ?? []).filter((a) => a.name.value !== 'limit' && a.name.value !== 'offset'), ...PAGING].sort(byName);
}

const qualified = (t: TableModel): string => JSON.stringify(t.schema === 'public' ? t.name : `${t.schema}.${t.name}`);

// The types every Relay schema has and those of each table with a key (Hasura's descriptions: the
// Node interface's and a connection's; PageInfo, edges and the node id have none).
const COMMON = `"""An object with globally unique ID"""
interface Node {
  """A globally unique identifier"""
  id: ID!
}

type PageInfo {
  endCursor: String!
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String!
}`;

const tableTypes = (t: TableModel): string => {
  const name = typeNameOf(t);
  return `${JSON.stringify(`A Relay connection object on ${qualified(t)}`)}
type ${name}Connection {
  edges: [${name}Edge!]!
  pageInfo: PageInfo!
}

type ${name}Edge {
  cursor: String!
  node: ${name}!
}`;
};

/** The tables of a role's Relay schema: those it reads that have a primary key, by their type name. */
export function relayTables(model: BundleModel, role: string): Map<string, TableModel> {
  const out = new Map<string, TableModel>();
  for (const t of Object.values(model.tables)) {
    if (t.primaryKey.length > 0 && model.select[role]?.[t.id] !== undefined) out.set(typeNameOf(t), t);
  }
  return out;
}

/** The SDL of a role's Relay schema, made from the SDL of its ordinary schema. */
export function relaySchemaSdl(model: BundleModel, role: string, sdl: string): DocumentNode {
  const doc = parse(sdl, { noLocation: true });
  const nodes = relayTables(model, role);
  const byId = new Map([...nodes.values()].map((t) => [t.id, t]));
  const schemaDef = doc.definitions.find((d) => d.kind === Kind.SCHEMA_DEFINITION);
  const rootName = (op: 'query' | 'mutation' | 'subscription'): string | undefined =>
    schemaDef ? schemaDef.operationTypes.find((o) => o.operation === op)?.type.name.value : { query: 'query_root', mutation: 'mutation_root', subscription: 'subscription_root' }[op];
  const queryName = rootName('query');
  const subscriptionName = rootName('subscription');
  const types = new Map<string, DefinitionNode & { readonly name: { readonly value: string } }>();
  for (const d of doc.definitions) if ('name' in d && d.name && d.kind !== Kind.DIRECTIVE_DEFINITION) types.set(d.name.value, d as never);

  // The query root: node, then a connection per table select field and per function the role has.
  const query = queryName ? types.get(queryName) as ObjectTypeDefinitionNode | undefined : undefined;
  const roots: FieldDefinitionNode[] = [field('node', namedType('Node'), [{ kind: Kind.INPUT_VALUE_DEFINITION, name: nameNode('id'), type: nonNull(namedType('ID')),
    description: text('A globally unique id') }])];
  for (const f of query?.fields ?? []) {
    const root = model.roots[role]?.query[f.name.value];
    const t = root && (root.kind === 'select' || root.kind === 'function') ? byId.get(root.table) : undefined;
    if (t) roots.push({ ...f, name: nameNode(`${f.name.value}_connection`), arguments: connectionArgs(f.arguments), type: nonNull(namedType(`${typeNameOf(t)}Connection`)) });
  }
  roots.sort(byName);
  const out: DefinitionNode[] = [];
  const operationTypes: OperationTypeDefinitionNode[] = [];
  const root = (op: 'query' | 'subscription', name: string): void => {
    out.push({ kind: Kind.OBJECT_TYPE_DEFINITION, name: nameNode(name), fields: roots, interfaces: [], directives: [] });
    operationTypes.push({ kind: Kind.OPERATION_TYPE_DEFINITION, operation: op as never, type: namedType(name) });
  };
  root('query', queryName ?? 'query_root');
  // The mutation root is the ordinary one (tables, functions, actions), its rows the Relay types.
  const mutationName = rootName('mutation');
  const mutation = mutationName ? types.get(mutationName) : undefined;
  if (mutationName && mutation?.kind === Kind.OBJECT_TYPE_DEFINITION) {
    out.push(mutation);
    operationTypes.push({ kind: Kind.OPERATION_TYPE_DEFINITION, operation: 'mutation' as never, type: namedType(mutationName) });
  }
  if (subscriptionName && types.has(subscriptionName)) root('subscription', subscriptionName);
  out.unshift({ kind: Kind.SCHEMA_DEFINITION, operationTypes, directives: [] });

  // Each table with a key: its object type as a node, its connection and edge types.
  const common = parse(COMMON, { noLocation: true }).definitions;
  const made = new Map<string, DefinitionNode>(common.map((d) => [(d as ObjectTypeDefinitionNode).name.value, d]));
  for (const [name, t] of nodes) {
    const type = types.get(name);
    if (!type || type.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    made.set(name, nodeType(type, t, model, byId));
    for (const d of parse(tableTypes(t), { noLocation: true }).definitions) made.set((d as ObjectTypeDefinitionNode).name.value, d);
  }
  // A table without a key is no node, but its column named `id` is left out all the same (Hasura's
  // fieldSelection drops a column field so named from every Relay object), and its remote relationships.
  for (const t of Object.values(model.tables)) {
    const name = typeNameOf(t);
    const type = types.get(name);
    if (nodes.has(name) || model.select[role]?.[t.id] === undefined || type?.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const remote = new Set((t.remoteRelationships ?? []).map((r) => r.name));
    const idColumn = t.columns.some((c) => c.field === 'id');
    made.set(name, { ...type, fields: (type.fields ?? []).filter((f) => !remote.has(f.name.value) && !(idColumn && f.name.value === 'id')) });
  }
  const isRoot = (name: string): boolean => name === queryName || name === mutationName || name === subscriptionName;
  const lookup = (name: string): DefinitionNode | undefined => made.get(name) ?? (isRoot(name) ? undefined : types.get(name));
  // Only what the roots reach (and every node type, which `node` may answer) is kept.
  const reached = new Set<string>([queryName ?? 'query_root', mutationName ?? '', subscriptionName ?? '']);
  const queue: string[] = ['Node', 'PageInfo', ...nodes.keys()].filter((n) => lookup(n) !== undefined);
  for (const r of out) if (r.kind === Kind.OBJECT_TYPE_DEFINITION) queue.push(...typesIn(r));
  const kept: DefinitionNode[] = [];
  while (queue.length) {
    const n = queue.pop()!;
    if (reached.has(n)) continue;
    reached.add(n);
    const d = lookup(n);
    if (!d) continue;
    kept.push(d);
    queue.push(...typesIn(d));
  }
  const directives = doc.definitions.filter((d) => d.kind === Kind.DIRECTIVE_DEFINITION);
  return { kind: Kind.DOCUMENT, definitions: [...out, ...directives, ...kept.sort((a, b) => byName(a as never, b as never))] };
}

// A table's object type as a Relay node: the global `id` in place of a column named so, a
// connection beside each array relationship to a table with a key, no remote relationships.
function nodeType(type: ObjectTypeDefinitionNode, t: TableModel, model: BundleModel, nodes: ReadonlyMap<string, TableModel>): ObjectTypeDefinitionNode {
  const remote = new Set((t.remoteRelationships ?? []).map((r) => r.name));
  const fields: FieldDefinitionNode[] = [field('id', nonNull(namedType('ID')))];
  for (const f of type.fields ?? []) {
    if (f.name.value === 'id' || remote.has(f.name.value)) continue;
    fields.push(f);
    const rel = t.relationships.find((r) => r.kind === 'array' && r.name === f.name.value);
    const target = rel ? nodes.get(rel.target) : undefined;
    if (rel && target && model.tables[rel.target]) {
      fields.push(field(`${rel.name}_connection`, nonNull(namedType(`${typeNameOf(target)}Connection`)), connectionArgs(f.arguments), 'An array relationship connection'));
    }
  }
  return { ...type, interfaces: [namedType('Node')], fields: fields.sort(byName) };
}

// The names of the types a definition refers to.
function typesIn(d: DefinitionNode): string[] {
  const out: string[] = [];
  const of = (t: TypeNode): void => { if (t.kind === Kind.NAMED_TYPE) out.push(t.name.value); else of(t.type); };
  switch (d.kind) {
    case Kind.OBJECT_TYPE_DEFINITION: case Kind.INTERFACE_TYPE_DEFINITION:
      for (const i of d.interfaces ?? []) out.push(i.name.value);
      for (const f of d.fields ?? []) { of(f.type); for (const a of f.arguments ?? []) of(a.type); }
      break;
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      for (const f of d.fields ?? []) of(f.type);
      break;
    case Kind.UNION_TYPE_DEFINITION:
      for (const m of d.types ?? []) out.push(m.name.value);
      break;
    default:
  }
  return out;
}
