// The Relay API (POST /v1beta1/relay, Hasura v2 beyond the specification): `node(id:)` and
// `<table>_connection` with edges, cursors and pageInfo. A Relay operation is rewritten into an
// operation on the role's ordinary schema (tables with a primary key only), run by the engine,
// and its answer reshaped: a node's `id` is the base64 of `[1, "<schema>", "<table>", <pk>...]`
// and a cursor the base64 of the JSON object of the row's order columns (order_by's, then the key's), both in PostgreSQL's JSON
// text (`, ` and ` : ` separators), as Hasura writes them.
// `__schema` and `__type` are answered from the role's Relay schema (relay-schema.ts).
// Mutations are the ordinary ones, their rows read as nodes; subscriptions (over WebSocket) are
// live queries of the rewrite, each result reshaped.

import { Kind, parse, print, visit, type ArgumentNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode,
  type SelectionNode, type ValueNode } from 'graphql';
import type { BundleModel, GraphQLRequest, TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { pickOperation } from './prepare.js';
import { checkLimit, checkLimitValue } from './check.js';
import { MULTIPLE_ROOT_FIELDS } from './hasura-directives.js';
import { allOf, decodeCursor, literal, nameNode, object, orderNode, pastCursor } from './relay-cursor.js';
import { compareKeys, cursorObject, cursorValue, keyValue, orderKeys, type CursorKey } from './relay-order.js';
import { readNodeId } from './relay-node-id.js';

type Vars = { readonly [k: string]: unknown };
type Json = unknown;


/**
 * The rows a connection ordered by a relationship or an aggregate is read through when a cursor
 * cuts it (such a key is no column of `where`, so the page is cut here from the whole order).
 */
export const MAX_CURSOR_SCAN_ROWS = 10_000;
/** How an answer of the rewritten operation becomes the Relay answer. */
type Shape =
  | { readonly kind: 'value'; readonly key: string }
  | { readonly kind: 'static'; readonly key: string; readonly value: Json }
  /** `__schema` / `__type`: answered from the role's Relay schema (relay-schema.ts). */
  | { readonly kind: 'introspection'; readonly key: string }
  | { readonly kind: 'node_id'; readonly key: string; readonly table: TableModel }
  /** `single`: the answer is a list of at most one row (a node read by its key). */
  | { readonly kind: 'object'; readonly key: string; readonly fields: readonly Shape[]; readonly single?: boolean }
  /** An array relationship read as a plain list: each row a node. */
  | { readonly kind: 'list'; readonly key: string; readonly fields: readonly Shape[] }
  /**
   * `keys`: the order's keys a cursor carries; `cut`: the cursor the rows are cut at here (an order
   * on a relationship or an aggregate); `previous`/`following`: the aliases of the rows read beyond the cursors.
   */
  | { readonly kind: 'connection'; readonly key: string; readonly table: TableModel; readonly page: Page; readonly keys: readonly CursorKey[]; readonly cut: Cut | null;
    readonly previous: string | null; readonly following: string | null; readonly fields: readonly ConnectionField[] };

type ConnectionField =
  | { readonly kind: 'typename'; readonly key: string; readonly name: string }
  | { readonly kind: 'edges'; readonly key: string; readonly fields: readonly EdgeField[] }
  | { readonly kind: 'page_info'; readonly key: string; readonly fields: readonly { readonly key: string; readonly name: string }[] };

type EdgeField =
  | { readonly kind: 'typename'; readonly key: string; readonly name: string }
  | { readonly kind: 'cursor'; readonly key: string }
  | { readonly kind: 'node'; readonly key: string; readonly fields: readonly Shape[] };

/** A cursor's key values, and whether the rows wanted are before it (else after it). */
interface Cut {
  readonly values: readonly unknown[];
  readonly before: boolean;
}

interface Page {
  readonly first: number | null;
  readonly last: number | null;
}

const PK = '__relay_pk_';
// The aliases of a row's order columns, which its cursor carries.
const KEY = '__relay_key_';
const BUILT_IN = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

/** The JSON text PostgreSQL's json_build_array / json_build_object write (Hasura's ids and cursors). */
function pgJson(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(pgJson).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)} : ${pgJson(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

function valueOf(node: ValueNode, vars: Vars): unknown {
  switch (node.kind) {
    case Kind.VARIABLE: return vars[node.name.value] ?? null;
    case Kind.INT: return Number(node.value);
    case Kind.FLOAT: return Number(node.value);
    case Kind.STRING: case Kind.ENUM: return node.value;
    case Kind.BOOLEAN: return node.value;
    case Kind.NULL: return null;
    case Kind.LIST: return node.values.map((v) => valueOf(v, vars));
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, vars)]));
  }
}

const fieldNode = (name: string, alias: string | null, args: readonly ArgumentNode[], selections: readonly SelectionNode[] | null): FieldNode => ({
  kind: Kind.FIELD, name: nameNode(name), ...(alias ? { alias: nameNode(alias) } : {}), arguments: args,
  ...(selections ? { selectionSet: { kind: Kind.SELECTION_SET, selections } } : {}),
});
const arg = (name: string, value: ValueNode): ArgumentNode => ({ kind: Kind.ARGUMENT, name: nameNode(name), value });

interface Rewrite {
  readonly model: BundleModel;
  readonly role: string;
  readonly vars: Vars;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

// The fields of a selection on `typeName`, fragments (named and inline) of that type flattened.
function fieldsOn(selections: readonly SelectionNode[], typeName: string, rw: Rewrite): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of selections) {
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (!s.typeCondition || s.typeCondition.name.value === typeName || s.typeCondition.name.value === 'Node') out.push(...fieldsOn(s.selectionSet.selections, typeName, rw));
    } else {
      const f = rw.fragments.get(s.name.value);
      if (f && (f.typeCondition.name.value === typeName || f.typeCondition.name.value === 'Node')) out.push(...fieldsOn(f.selectionSet.selections, typeName, rw));
    }
  }
  return out;
}

const keyOf = (f: FieldNode): string => f.alias?.value ?? f.name.value;
const visible = (rw: Rewrite, t: TableModel): boolean => rw.model.select[rw.role]?.[t.id] !== undefined && t.primaryKey.length > 0;
const pkFields = (t: TableModel): FieldNode[] => t.primaryKey.map((c, i) => fieldNode(t.columns.find((x) => x.name === c)?.field ?? c, `${PK}${i}`, [], null));

// A node's selection on the ordinary schema, and how its answer is reshaped.
function rewriteNode(t: TableModel, selections: readonly SelectionNode[], rw: Rewrite, path: readonly string[]): { selections: SelectionNode[]; shape: Shape[] } {
  const typeName = typeNameOf(t);
  const out: SelectionNode[] = pkFields(t);
  const shape: Shape[] = [];
  for (const f of fieldsOn(selections, typeName, rw)) {
    const name = f.name.value;
    const key = keyOf(f);
    if (name === '__typename') { shape.push({ kind: 'static', key, value: typeName }); continue; }
    // `id` is the node's global id (Hasura's Relay schema puts it in place of any column so named).
    if (name === 'id') { shape.push({ kind: 'node_id', key, table: t }); continue; }
    const rel = t.relationships.find((r) => (r.kind === 'array' ? `${r.name}_connection` : r.name) === name);
    const target = rel ? rw.model.tables[rel.target] : undefined;
    if (rel && target && visible(rw, target)) {
      if (rel.kind === 'object') {
        const inner = rewriteNode(target, f.selectionSet?.selections ?? [], rw, [...path, 'selectionSet', name]);
        out.push(fieldNode(rel.name, key, [], inner.selections));
        shape.push({ kind: 'object', key, fields: inner.shape });
      } else {
        const c = rewriteConnection(target, rel.name, f, rw, [...path, 'selectionSet', name]);
        out.push(...c.fields);
        shape.push(c.shape);
      }
      continue;
    }
    // An array relationship asked as a plain list keeps its arguments; its rows are nodes too (their
    // `id` the global id), as in Hasura's Relay schema, where the target type is the Node one.
    const list = t.relationships.find((r) => r.kind === 'array' && r.name === name);
    const listTarget = list ? rw.model.tables[list.target] : undefined;
    if (list && listTarget && visible(rw, listTarget)) {
      const inner = rewriteNode(listTarget, f.selectionSet?.selections ?? [], rw, [...path, 'selectionSet', name]);
      out.push(fieldNode(list.name, key, f.arguments ?? [], inner.selections));
      shape.push({ kind: 'list', key, fields: inner.shape });
      continue;
    }
    // A connection field is an array relationship's, to a table the role reads: no other is a field.
    if (name.endsWith('_connection')) throw new ApiError('validation-failed', `field "${name}" not found in type: '${typeName}'`, 400, [...path, 'selectionSet', name]);
    // The key is readable for ids and cursors only: a key column the role may not read is no field.
    const column = t.columns.find((c) => c.field === name);
    // Remote relationships are no fields of the Relay schema (Hasura's Schema/Select.hs serves them
    // on its own schema only, hasura/graphql-engine#5144).
    if ((column && !rw.model.select[rw.role]?.[t.id]?.columns.includes(column.name)) || (!column && t.remoteRelationships?.some((r) => r.name === name))) {
      throw new ApiError('validation-failed', `field "${name}" not found in type: '${typeName}'`, 400, [...path, 'selectionSet', name]);
    }
    out.push({ ...f, alias: nameNode(key) });
    shape.push({ kind: 'value', key });
  }
  return { selections: out, shape };
}

function rewriteConnection(t: TableModel, selectName: string, f: FieldNode, rw: Rewrite, path: readonly string[]): { fields: FieldNode[]; shape: Shape } {
  const key = keyOf(f);
  const given = new Map((f.arguments ?? []).map((a) => [a.name.value, a.value]));
  // `first` and `last` are read by Hasura's nonNegativeInt parser, as `limit` is (its words).
  const num = (n: string): number | null => {
    const node = given.get(n);
    if (node === undefined) return null;
    const at = [...path, 'args', n];
    if (node.kind === Kind.VARIABLE) checkLimitValue(rw.vars[node.name.value] ?? null, at);
    else checkLimit(node, at);
    return valueOf(node, rw.vars) as number | null;
  };
  const first = num('first');
  const last = num('last');
  if (first !== null && last !== null) throw new ApiError('validation-failed', '"first" and "last" are not allowed at once', 400, [...path]);
  const after = given.has('after') ? valueOf(given.get('after')!, rw.vars) : null;
  const before = given.has('before') ? valueOf(given.get('before')!, rw.vars) : null;
  if (after !== null && before !== null) throw new ApiError('validation-failed', '"after" and "before" are not allowed at once', 400, [...path]);
  // Arguments of the rows before any cursor: the function's, the filter and distinct_on.
  const base: ArgumentNode[] = [];
  for (const n of ['args', 'distinct_on']) if (given.has(n)) base.push(arg(n, given.get(n)!));
  const where = given.get('where');
  // The order: the user's order_by, then the key's columns it does not name (Hasura's connection
  // order); `last` reads it backwards and turns the page round. Cursors carry the order's columns.
  const userOrder = given.has('order_by') ? valueOf(given.get('order_by')!, rw.vars) : null;
  const items = userOrder === null ? [] : Array.isArray(userOrder) ? userOrder : [userOrder];
  const keys: CursorKey[] = [];
  for (const k of orderKeys(rw.model, t, items)) {
    if (k.field === null || !keys.some((e) => e.field !== null && e.path[0] === k.path[0])) keys.push(k);
  }
  const keyOrder: unknown[] = [];
  for (const c of t.primaryKey) {
    if (keys.some((k) => k.field !== null && k.path[0] === c)) continue;
    const column = t.columns.find((x) => x.name === c)!;
    keys.push(...orderKeys(rw.model, t, [{ [column.field]: 'asc' }]).map((k) => ({ ...k, nullable: false })));
    keyOrder.push({ [column.field]: 'asc' });
  }
  const order = arg('order_by', orderNode([...items, ...keyOrder], last !== null));
  // A key on a relationship or an aggregate is no column of `where`: past such a cursor, the
  // rows are read in order and cut where the cursor's keys fall (connectionOf).
  const nested = keys.some((k) => k.field === null);
  let cut: Cut | null = null;
  const bounds: ValueNode[] = [];
  const cursorCond = (cursor: unknown, isBefore: boolean): ValueNode | null | undefined => {
    const at = [...path, 'args', isBefore ? 'before' : 'after'];
    const decoded = decodeCursor(String(cursor), at);
    const values = keys.map((k) => cursorValue(decoded, k));
    if (values.some((v) => v === undefined)) throw new ApiError('validation-failed', 'the cursor is invalid', 400, at);
    if (nested) { cut = { values, before: isBefore }; return undefined; }
    return pastCursor(keys.map((k) => ({ column: k.path[0]!, field: k.field!, dir: k.dir, nullable: k.nullable })), values, isBefore);
  };
  const afterCond = after !== null ? cursorCond(after, false) : undefined;
  const beforeCond = before !== null ? cursorCond(before, true) : undefined;
  const NONE: ValueNode = object([['_or', { kind: Kind.LIST, values: [] }]]);
  for (const c of [afterCond, beforeCond]) if (c !== undefined) bounds.push(c ?? NONE);
  const whereOf = (extra: readonly ValueNode[]): ArgumentNode[] => {
    const all = [...(where ? [where] : []), ...extra];
    return all.length === 0 ? [] : [arg('where', allOf(all))];
  };
  const args: ArgumentNode[] = [...base, ...whereOf(bounds), order];
  const limit = first ?? last;
  if (limit !== null && cut === null) args.push(arg('limit', { kind: Kind.INT, value: String(limit + 1) }));
  // Cut here, the connection is read from its start: at most MAX_CURSOR_SCAN_ROWS rows (one more
  // tells that the bound was met, and connectionOf refuses it rather than answer a wrong page).
  if (cut !== null) args.push(arg('limit', { kind: Kind.INT, value: String(MAX_CURSOR_SCAN_ROWS + 1) }));
  const keyFields = keys.map((k, i) => k.select(`${KEY}${i}`));
  const fields: ConnectionField[] = [];
  let node: SelectionNode[] = [...pkFields(t), ...keyFields];
  const asked = new Set<string>();
  for (const c of f.selectionSet?.selections ? fieldsOn(f.selectionSet.selections, `${typeNameOf(t)}Connection`, rw) : []) {
    const ck = keyOf(c);
    if (c.name.value === '__typename') fields.push({ kind: 'typename', key: ck, name: `${typeNameOf(t)}Connection` });
    else if (c.name.value === 'pageInfo') {
      const info = fieldsOn(c.selectionSet?.selections ?? [], 'PageInfo', rw).map((p) => ({ key: keyOf(p), name: p.name.value }));
      for (const p of info) asked.add(p.name);
      fields.push({ kind: 'page_info', key: ck, fields: info });
    } else if (c.name.value === 'edges') {
      const edge: EdgeField[] = [];
      for (const e of fieldsOn(c.selectionSet?.selections ?? [], `${typeNameOf(t)}Edge`, rw)) {
        if (e.name.value === '__typename') edge.push({ kind: 'typename', key: keyOf(e), name: `${typeNameOf(t)}Edge` });
        else if (e.name.value === 'cursor') edge.push({ kind: 'cursor', key: keyOf(e) });
        else if (e.name.value === 'node') {
          const inner = rewriteNode(t, e.selectionSet?.selections ?? [], rw, [...path, 'selectionSet', 'edges', 'selectionSet', 'node']);
          node = [...node, ...inner.selections.slice(t.primaryKey.length).map((s) => (s.kind === Kind.FIELD ? { ...s, alias: nameNode(`${keyOf(e)}__${keyOf(s)}`) } : s))];
          edge.push({ kind: 'node', key: keyOf(e), fields: inner.shape });
        } else throw new ApiError('validation-failed', `field "${e.name.value}" not found in type: '${typeNameOf(t)}Edge'`, 400, [...path, 'selectionSet', 'edges', 'selectionSet', e.name.value]);
      }
      fields.push({ kind: 'edges', key: ck, fields: edge });
    } else throw new ApiError('validation-failed', `field "${c.name.value}" not found in type: '${typeNameOf(t)}Connection'`, 400, [...path, 'selectionSet', c.name.value]);
  }
  // Whether rows lie before the page (after the page) though the cursor left them out: one row of
  // the rows up to the `after` cursor (from the `before` cursor) is read beside the page.
  const out: FieldNode[] = [fieldNode(selectName, key, args, node)];
  const probe = (alias: string, cond: ValueNode | null): string => {
    out.push(fieldNode(selectName, alias, [...base, ...whereOf(cond === null ? [] : [object([['_not', cond]])]),
      arg('limit', { kind: Kind.INT, value: '1' })], pkFields(t)));
    return alias;
  };
  const previous = afterCond !== undefined && asked.has('hasPreviousPage') ? probe(`__relay_previous_${key}`, afterCond) : null;
  const following = beforeCond !== undefined && asked.has('hasNextPage') ? probe(`__relay_following_${key}`, beforeCond) : null;
  return { fields: out, shape: { kind: 'connection', key, table: t, page: { first, last }, keys, cut, previous, following, fields } };
}

/**
 * The model and SDL the Relay API plans on: every table a role reads is read with its primary key
 * (a node id and a cursor carry it, whatever the column permissions; Hasura's Relay schema does
 * so), in the select list, in `order_by` and in `where` (for cursors).
 */
export function relayVariant(model: BundleModel, sdl: { readonly [role: string]: string }, role: string): { model: BundleModel; sdl: string } | null {
  const perms = model.select[role];
  const text = sdl[role];
  if (!perms || text === undefined) return null;
  const extensions: string[] = [];
  const select: { [id: string]: BundleModel['select'][string][string] } = { ...perms };
  for (const [id, perm] of Object.entries(perms)) {
    const t = model.tables[id];
    if (!t || t.primaryKey.length === 0) continue;
    const missing = t.primaryKey.filter((c) => !perm.columns.includes(c)).map((c) => t.columns.find((x) => x.name === c)).filter((c) => c !== undefined);
    if (missing.length === 0) continue;
    select[id] = { ...perm, columns: t.columns.map((c) => c.name).filter((c) => perm.columns.includes(c) || t.primaryKey.includes(c)) };
    const type = typeNameOf(t);
    const has = (name: string): boolean => new RegExp(`^(type|input|enum|scalar) ${name}\\b`, 'm').test(text);
    for (const c of missing) {
      if (!BUILT_IN.has(c.scalar) && !has(c.scalar) && !extensions.includes(`scalar ${c.scalar}`)) extensions.push(`scalar ${c.scalar}`);
    }
    extensions.push(`extend type ${type} { ${missing.map((c) => `${c.field}: ${c.scalar}!`).join(' ')} }`);
    if (has(typeNameOf(t, '_order_by'))) extensions.push(`extend input ${typeNameOf(t, '_order_by')} { ${missing.map((c) => `${c.field}: order_by`).join(' ')} }`);
    if (has(typeNameOf(t, '_bool_exp'))) {
      // Cursors and node lookups compare the key: a comparison type the role's schema lacks is added with those operators.
      for (const c of missing) {
        const cmp = `${c.scalar}_comparison_exp`;
        if (!has(cmp) && !extensions.some((e) => e.startsWith(`input ${cmp} `))) extensions.push(`input ${cmp} { _eq: ${c.scalar} _gt: ${c.scalar} _lt: ${c.scalar} }`);
      }
      extensions.push(`extend input ${typeNameOf(t, '_bool_exp')} { ${missing.map((c) => `${c.field}: ${c.scalar}_comparison_exp`).join(' ')} }`);
    }
  }
  if (extensions.length === 0) return { model, sdl: `${text}\n\n` };
  // The root templates fix the columns the compiled schema grants: with the key added to some
  // table, the Relay API plans from the widened permissions instead.
  const { rootTemplates: _compiled, ...rest } = model;
  return { model: { ...rest, select: { ...model.select, [role]: select } }, sdl: `${text}\n${extensions.join('\n')}\n` };
}

// A mutation_root field, as Hasura's Relay schema has them (the ordinary mutations, their rows the
// Relay types): the rows a write returns (`returning`, `_one`, `_by_pk`, a function's) are nodes.
function rewriteMutation(f: FieldNode, rw: Rewrite): { selection: FieldNode; shape: Shape } {
  const key = keyOf(f);
  const root = rw.model.roots[rw.role]?.mutation?.[f.name.value];
  const t = root ? rw.model.tables[root.table] : undefined;
  const path = ['selectionSet', f.name.value];
  if (!root || !t || !visible(rw, t)) return { selection: { ...f, alias: nameNode(key) }, shape: { kind: 'value', key } };
  if (root.kind === 'insert_one' || root.kind === 'update_by_pk' || root.kind === 'delete_by_pk' || root.kind === 'function') {
    const inner = rewriteNode(t, f.selectionSet?.selections ?? [], rw, path);
    return { selection: fieldNode(f.name.value, key, f.arguments ?? [], inner.selections),
      shape: root.kind === 'function' ? { kind: 'list', key, fields: inner.shape } : { kind: 'object', key, fields: inner.shape } };
  }
  const typeName = typeNameOf(t, '_mutation_response');
  const out: SelectionNode[] = [];
  const fields: Shape[] = [];
  for (const c of fieldsOn(f.selectionSet?.selections ?? [], typeName, rw)) {
    const ck = keyOf(c);
    if (c.name.value === '__typename') { fields.push({ kind: 'static', key: ck, value: typeName }); continue; }
    if (c.name.value === 'returning') {
      const inner = rewriteNode(t, c.selectionSet?.selections ?? [], rw, [...path, 'selectionSet', 'returning']);
      out.push(fieldNode('returning', ck, [], inner.selections));
      fields.push({ kind: 'list', key: ck, fields: inner.shape });
      continue;
    }
    out.push({ ...c, alias: nameNode(ck) });
    fields.push({ kind: 'value', key: ck });
  }
  // update_many answers a response per update.
  return { selection: fieldNode(f.name.value, key, f.arguments ?? [], out), shape: { kind: root.kind === 'update_many' ? 'list' : 'object', key, fields } };
}

// The function root field a `<function>_connection` reads, when the role may call it and its table has a key.
function functionConnection(rw: Rewrite, name: string): { field: string; table: TableModel } | undefined {
  if (!name.endsWith('_connection')) return undefined;
  const field = name.slice(0, -'_connection'.length);
  const root = rw.model.roots[rw.role]?.query[field];
  const table = root?.kind === 'function' ? rw.model.tables[root.table] : undefined;
  return table && visible(rw, table) ? { field, table } : undefined;
}

/**
 * A Relay request as an ordinary one on the role's schema (null when it asks nothing of it), how
 * to reshape its answer, and the operation of its introspection fields alone (null when none).
 */
export function rewriteRelay(model: BundleModel, role: string, req: GraphQLRequest): { request: GraphQLRequest | null; shape: Shape[]; introspection: DocumentNode | null } {
  let document: DocumentNode;
  try { document = parse(req.query); } catch (e) { throw new ApiError('validation-failed', e instanceof Error ? e.message : String(e), 400, []); }
  const op: OperationDefinitionNode = pickOperation(document, req.operationName ?? null);
  const rootName = op.operation === 'mutation' ? 'mutation_root' : op.operation === 'subscription' ? 'subscription_root' : 'query_root';
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const rw: Rewrite = { model, role, vars: req.variables ?? {}, fragments };
  const tables = Object.values(model.tables).filter((t) => visible(rw, t));
  const selections: SelectionNode[] = [];
  const shape: Shape[] = [];
  const introspection: FieldNode[] = [];
  for (const f of fieldsOn(op.selectionSet.selections, rootName, rw)) {
    const key = keyOf(f);
    if (f.name.value === '__typename') { shape.push({ kind: 'static', key, value: rootName }); continue; }
    if (op.operation === 'mutation') {
      const m = rewriteMutation(f, rw);
      selections.push(m.selection);
      shape.push(m.shape);
      continue;
    }
    if (f.name.value === '__schema' || f.name.value === '__type') { introspection.push(f); shape.push({ kind: 'introspection', key }); continue; }
    if (f.name.value === 'node') {
      const idNode = f.arguments?.find((a) => a.name.value === 'id')?.value;
      if (!idNode) { shape.push({ kind: 'static', key, value: null }); continue; }
      const found = readNodeId(String(valueOf(idNode, rw.vars)), tables, ['selectionSet', key]);
      const inner = rewriteNode(found.table, f.selectionSet?.selections ?? [], rw, ['selectionSet', f.name.value]);
      // Read through the table's select field (its `_by_pk` is absent when the role cannot read the key).
      const byKey = found.table.primaryKey.map((c, i) => ({ kind: Kind.OBJECT_FIELD, name: nameNode(found.table.columns.find((x) => x.name === c)?.field ?? c),
        value: { kind: Kind.OBJECT, fields: [{ kind: Kind.OBJECT_FIELD, name: nameNode('_eq'), value: literal(found.pk[i]) }] } } as const));
      selections.push(fieldNode(found.table.rootFieldNames['select']!, key, [arg('where', { kind: Kind.OBJECT, fields: byKey })], inner.selections));
      shape.push({ kind: 'object', key, fields: inner.shape, single: true });
      continue;
    }
    // `<table>_connection`, or `<function>_connection` for a function returning rows of a table with a key.
    const t = tables.find((x) => `${x.rootFieldNames['select']}_connection` === f.name.value);
    const fn = t ? undefined : functionConnection(rw, f.name.value);
    const on = t ?? fn?.table;
    if (!on) throw new ApiError('validation-failed', `field "${f.name.value}" not found in type: 'query_root'`, 400, ['selectionSet', f.name.value]);
    const c = rewriteConnection(on, t ? t.rootFieldNames['select']! : fn!.field, f, rw, ['selectionSet', f.name.value]);
    selections.push(...c.fields);
    shape.push(c.shape);
  }
  // Variables the rewrite read (`id`, `first`, cursors) are gone from the document: their
  // definitions and values go too (a value for an unused variable is refused).
  const used = new Set<string>();
  visit({ kind: Kind.SELECTION_SET, selections }, { Variable: (v) => { used.add(v.name.value); } });
  // A subscription's connection may read rows beyond its cursors beside it (the probes): the
  // rewrite then has several root fields, which the client's document did not.
  const probes = op.operation === 'subscription' && selections.length > 1
    ? [{ kind: Kind.DIRECTIVE, name: nameNode(MULTIPLE_ROOT_FIELDS), arguments: [] } as const] : [];
  const rewritten: OperationDefinitionNode = { ...op, variableDefinitions: (op.variableDefinitions ?? []).filter((d) => used.has(d.variable.name.value)),
    directives: [...(op.directives ?? []), ...probes], selectionSet: { kind: Kind.SELECTION_SET, selections } };
  // Fragments stay for the fields passed through unchanged (their spreads on Relay types were inlined).
  const definitions = document.definitions.filter((d) => d === op || d.kind === Kind.FRAGMENT_DEFINITION).map((d) => (d === op ? rewritten : d));
  const variables = Object.fromEntries(Object.entries(req.variables ?? {}).filter(([k]) => used.has(k)));
  const request = selections.length === 0 ? null : { query: print({ ...document, definitions }), variables, operationName: req.operationName ?? null };
  const introspecting: OperationDefinitionNode = { ...op, selectionSet: { kind: Kind.SELECTION_SET, selections: introspection } };
  return { request, shape, introspection: introspection.length === 0 ? null
    : { ...document, definitions: document.definitions.filter((d) => d === op || d.kind === Kind.FRAGMENT_DEFINITION).map((d) => (d === op ? introspecting : d)) } };
}

/** The Relay answer from the rewritten operation's answer text (and the introspection fields' values). */
export function reshapeRelay(text: string, shape: readonly Shape[], introspection: { readonly [key: string]: Json } = {}): string {
  const body = JSON.parse(text) as { data?: { [k: string]: Json }; errors?: unknown };
  if (!body.data) return text;
  return JSON.stringify({ ...body, data: objectOf({ ...body.data, ...introspection }, shape, '') });
}

function objectOf(row: { readonly [k: string]: Json }, shape: readonly Shape[], prefix: string): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const s of shape) {
    const raw = row[`${prefix}${s.key}`];
    switch (s.kind) {
      case 'value': out[s.key] = raw ?? null; break;
      case 'static': out[s.key] = s.value; break;
      case 'introspection': out[s.key] = raw ?? null; break;
      case 'node_id': out[s.key] = b64(pgJson([1, s.table.schema, s.table.name, ...s.table.primaryKey.map((_, i) => row[`${PK}${i}`])])); break;
      case 'object': {
        const one = s.single ? (raw as Json[] | undefined)?.[0] : raw;
        out[s.key] = one === null || one === undefined ? null : objectOf(one as { [k: string]: Json }, s.fields, '');
        break;
      }
      case 'list':
        // (A function returning one row answers it alone.)
        out[s.key] = raw === null || raw === undefined ? null : Array.isArray(raw) ? (raw as { [k: string]: Json }[]).map((r) => objectOf(r, s.fields, ''))
          : objectOf(raw as { [k: string]: Json }, s.fields, '');
        break;
      case 'connection': {
        const some = (alias: string | null): boolean => alias !== null && ((row[`${prefix}${alias}`] ?? []) as Json[]).length > 0;
        out[s.key] = connectionOf((raw ?? []) as { [k: string]: Json }[], s, some(s.previous), some(s.following));
        break;
      }
    }
  }
  return out;
}

function connectionOf(all: readonly { [k: string]: Json }[], s: Extract<Shape, { kind: 'connection' }>, before: boolean, beyond: boolean): { [k: string]: Json } {
  const values = (r: { [k: string]: Json }): unknown[] => s.keys.map((k, i) => keyValue(r, `${KEY}${i}`, k));
  let rows = all;
  if (s.cut) {
    const cut = s.cut;
    if (all.length > MAX_CURSOR_SCAN_ROWS) {
      throw new ApiError('not-supported', `a cursor on an order by a relationship or an aggregate pages through at most ${MAX_CURSOR_SCAN_ROWS} rows of a connection; narrow it with where, or order by columns`, 400,
        ['selectionSet', s.key, 'args', cut.before ? 'before' : 'after']);
    }
    rows = all.filter((r) => (c => (cut.before ? c < 0 : c > 0))(compareKeys(s.keys, values(r), cut.values)));
    // Rows the cursor left out lie on its side of the page.
    if (rows.length < all.length) { if (cut.before) beyond = true; else before = true; }
  }
  const limit = s.page.first ?? s.page.last;
  const more = limit !== null && rows.length > limit;
  let page = more ? rows.slice(0, limit!) : [...rows];
  if (s.page.last !== null) page = page.reverse();
  const cursor = (r: { [k: string]: Json }): string => b64(pgJson(cursorObject(s.keys, values(r))));
  const out: { [k: string]: Json } = {};
  for (const f of s.fields) {
    if (f.kind === 'typename') out[f.key] = f.name;
    else if (f.kind === 'edges') {
      out[f.key] = page.map((r) => {
        const edge: { [k: string]: Json } = {};
        for (const e of f.fields) {
          if (e.kind === 'typename') edge[e.key] = e.name;
          else if (e.kind === 'cursor') edge[e.key] = cursor(r);
          else edge[e.key] = objectOf(r, e.fields, `${e.key}__`);
        }
        return edge;
      });
    } else {
      const info: { [k: string]: Json } = {};
      for (const p of f.fields) {
        // Rows beyond the page: the one read past the limit, or rows the cursor on that side left out.
        if (p.name === 'hasNextPage') info[p.key] = (s.page.first !== null && more) || beyond;
        else if (p.name === 'hasPreviousPage') info[p.key] = (s.page.last !== null && more) || before;
        else if (p.name === 'startCursor') info[p.key] = page.length ? cursor(page[0]!) : null;
        else if (p.name === 'endCursor') info[p.key] = page.length ? cursor(page[page.length - 1]!) : null;
        else if (p.name === '__typename') info[p.key] = 'PageInfo';
      }
      out[f.key] = info;
    }
  }
  return out;
}
