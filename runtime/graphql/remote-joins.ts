// Replacing the placeholders of remote relationship fields (remote-join-site.ts) once the SQL has
// run: for each site, the join keys of every row are collected and one request answers them all
// — one GraphQL call to the remote schema with an aliased field per distinct key set, or one query
// of the target table (run as the same role, so its permissions apply) with the keys as a list.
// Rows whose keys hold a null get null without a call.

import {
  astFromValue, getNamedType, isInputObjectType, isListType, isNonNullType, Kind, print, visit, type ArgumentNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode,
  type GraphQLInputType, type OperationDefinitionNode, type SelectionSetNode, type ValueNode, type VariableDefinitionNode,
} from 'graphql';
import type { BundleModel, Json, Session } from '../bundle/index.js';
import {
  applyPresets, callRemote, leafField, presetValues, relationshipToRemoteNames, remoteFieldPath, typenamesToClient, type ClientHeaders, type RemoteServing,
  stripSchemaJoinsIn, hasuraPrint, type SchemaJoinSite,
} from '../remote/index.js';
import { ApiError } from '../errors/index.js';
import { JOIN_MARK, type RemoteJoinSite } from './remote-join-site.js';

/** What replacing placeholders needs from the engine and the request. */
export interface JoinEnv {
  readonly model: BundleModel;
  readonly remote: RemoteServing | undefined;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly variables: { readonly [k: string]: unknown };
  readonly session: Session;
  readonly headers: ClientHeaders | null;
  /** Runs a query as the session's role (no allow-list); answers its `data`. */
  runQuery(query: string, variables: { readonly [k: string]: unknown }): Promise<Record<string, unknown>>;
}

type Row = Record<string, unknown>;
interface Hole { readonly parent: Row; readonly key: string; readonly keys: Row }

const KEY_ALIAS = 'kiln__k';
const ROWS_ALIAS = 'kiln__rows';

/** Replaces every placeholder in `data`; answers the remote errors met. */
export async function resolveJoins(data: Row, sites: readonly RemoteJoinSite[], env: JoinEnv): Promise<unknown[]> {
  const holes = new Map<number, Hole[]>();
  collect(data, holes);
  const errors: unknown[] = [];
  await Promise.all([...holes].map(async ([id, list]) => {
    const site = sites[id];
    if (!site) return;
    const live: Hole[] = [];
    for (const h of list) {
      if (Object.entries(h.keys).some(([k, v]) => k !== JOIN_MARK && v === null)) h.parent[h.key] = null;
      else live.push(h);
    }
    if (live.length === 0) return;
    if (site.relationship.kind === 'source') await joinSource(site, live, env);
    else errors.push(...await joinRemote(site.relationship, site.field.node, `join:${site.id}`, live, env, true));
  }));
  return errors;
}

function collect(v: unknown, holes: Map<number, Hole[]>): void {
  if (Array.isArray(v)) { for (const x of v) collect(x, holes); return; }
  if (v === null || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v as Row)) {
    if (x !== null && typeof x === 'object' && !Array.isArray(x) && JOIN_MARK in (x as Row)) {
      const keys = x as Row;
      const id = Number(String(keys[JOIN_MARK]).slice(1));
      holes.set(id, [...(holes.get(id) ?? []), { parent: v as Row, key: k, keys }]);
    } else collect(x, holes);
  }
}

const tupleOf = (h: Hole, columns: readonly string[]): string => JSON.stringify(columns.map((c) => h.keys[c]));

// The variables and fragments a selection uses, from the request's operation and document.
function usedDefinitions(nodes: readonly (FieldNode | SelectionSetNode | ArgumentNode)[], env: JoinEnv,
  rewritten?: ReadonlyMap<string, FragmentDefinitionNode>): { vars: VariableDefinitionNode[]; fragments: FragmentDefinitionNode[] } {
  const fragments = new Map<string, FragmentDefinitionNode>(rewritten ?? []);
  if (!rewritten) for (const d of env.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const usedVars = new Set<string>();
  const usedFrags = new Set<string>();
  const walk = (n: FieldNode | SelectionSetNode | ArgumentNode | FragmentDefinitionNode): void => {
    visit(n, {
      Variable: (x) => { usedVars.add(x.name.value); },
      FragmentSpread: (s) => {
        if (usedFrags.has(s.name.value)) return;
        usedFrags.add(s.name.value);
        const f = fragments.get(s.name.value);
        if (f) walk(f);
      },
    });
  };
  for (const n of nodes) walk(n);
  return {
    vars: (env.operation.variableDefinitions ?? []).filter((d) => usedVars.has(d.variable.name.value)),
    fragments: [...usedFrags].flatMap((n) => fragments.get(n) ?? []),
  };
}

const name = (value: string) => ({ kind: Kind.NAME, value } as const);
const arg = (n: string, value: ValueNode): ArgumentNode => ({ kind: Kind.ARGUMENT, name: name(n), value });

async function joinSource(site: RemoteJoinSite, holes: readonly Hole[], env: JoinEnv): Promise<void> {
  const rel = site.relationship;
  if (rel.kind !== 'source') return;
  const target = env.model.tables[rel.target]!;
  const root = target.rootFieldNames['select']!;
  const node = site.field.node;
  const columns = rel.mapping.map(([c]) => c);
  const keyVars: VariableDefinitionNode[] = [];
  const conds: ValueNode[] = [];
  const values: Record<string, unknown> = { ...env.variables };
  rel.mapping.forEach(([from, to], i) => {
    const col = target.columns.find((c) => c.name === to)!;
    const v = `kiln__keys${i}`;
    keyVars.push({ kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: name(v) },
      type: { kind: Kind.LIST_TYPE, type: { kind: Kind.NON_NULL_TYPE, type: { kind: Kind.NAMED_TYPE, name: name(col.scalar) } } } });
    values[v] = [...new Set(holes.map((h) => JSON.stringify(h.keys[from])))].map((s) => JSON.parse(s) as unknown);
    conds.push({ kind: Kind.OBJECT, fields: [{ kind: Kind.OBJECT_FIELD, name: name(col.field),
      value: { kind: Kind.OBJECT, fields: [{ kind: Kind.OBJECT_FIELD, name: name('_in'), value: { kind: Kind.VARIABLE, name: name(v) } }] } }] });
  });
  const clientArgs = new Map((node.arguments ?? []).map((a) => [a.name.value, a]));
  const where = clientArgs.get('where');
  if (where) conds.push(where.value);
  const args: ArgumentNode[] = [arg('where', { kind: Kind.OBJECT, fields: [{ kind: Kind.OBJECT_FIELD, name: name('_and'), value: { kind: Kind.LIST, values: conds } }] })];
  for (const k of ['order_by', 'distinct_on']) if (clientArgs.has(k)) args.push(clientArgs.get(k)!);
  const keyFields: FieldNode[] = rel.mapping.map(([, to], i) => ({ kind: Kind.FIELD, alias: name(`${KEY_ALIAS}${i}`),
    name: name(target.columns.find((c) => c.name === to)!.field) }));
  const selection: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: [...(node.selectionSet?.selections ?? []), ...keyFields] };
  // A source with a root-field namespace (customization) names its select field `ns.field`: the
  // query asks it inside the namespace field, and the rows come back under it.
  const [field, ...outer] = root.split('.').reverse() as [string, ...string[]];
  const rootField: FieldNode = { kind: Kind.FIELD, alias: name(ROWS_ALIAS), name: name(field), arguments: args, selectionSet: selection };
  const top = outer.reduce<FieldNode>((inner, ns) => ({ kind: Kind.FIELD, name: name(ns),
    selectionSet: { kind: Kind.SELECTION_SET, selections: [inner] } }), rootField);
  const used = usedDefinitions([rootField], env);
  const op: OperationDefinitionNode = { kind: Kind.OPERATION_DEFINITION, operation: 'query' as OperationDefinitionNode['operation'],
    variableDefinitions: [...keyVars, ...used.vars], selectionSet: { kind: Kind.SELECTION_SET, selections: [top] } };
  const data = await env.runQuery(print({ kind: Kind.DOCUMENT, definitions: [op, ...used.fragments] }), values);
  const within = outer.reverse().reduce<Record<string, unknown> | undefined>((d, ns) => d?.[ns] as Record<string, unknown> | undefined, data);
  const rows = (within?.[ROWS_ALIAS] ?? []) as Row[];
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const t = JSON.stringify(rel.mapping.map((_m, i) => r[`${KEY_ALIAS}${i}`]));
    for (let i = 0; i < rel.mapping.length; i++) delete r[`${KEY_ALIAS}${i}`];
    groups.set(t, [...(groups.get(t) ?? []), r]);
  }
  const offset = numberArg(clientArgs.get('offset'), env) ?? 0;
  const limit = numberArg(clientArgs.get('limit'), env);
  for (const h of holes) {
    const group = groups.get(tupleOf(h, columns)) ?? [];
    h.parent[h.key] = rel.cardinality === 'object' ? group[0] ?? null
      : group.slice(offset, limit === null ? undefined : offset + limit).map((r) => ({ ...r }));
  }
}

function numberArg(a: ArgumentNode | undefined, env: JoinEnv): number | null {
  if (!a) return null;
  if (a.value.kind === Kind.INT) return Number(a.value.value);
  if (a.value.kind === Kind.VARIABLE) {
    const v = env.variables[a.value.name.value];
    return typeof v === 'number' ? v : null;
  }
  return null;
}

// A JSON value as a GraphQL literal: through the remote argument's type where known (enums).
function literal(v: unknown, type: GraphQLInputType | null): ValueNode {
  if (type) {
    try {
      const ast = astFromValue(v, type);
      if (ast) return ast;
    } catch { /* a custom scalar holding an object: written as plain JSON below */ }
  }
  if (v === null || v === undefined) return { kind: Kind.NULL };
  if (Array.isArray(v)) return { kind: Kind.LIST, values: v.map((x) => literal(x, null)) };
  if (typeof v === 'object') return { kind: Kind.OBJECT, fields: Object.entries(v).map(([k, x]) => ({ kind: Kind.OBJECT_FIELD, name: name(k), value: literal(x, null) })) };
  if (typeof v === 'number') return Number.isInteger(v) ? { kind: Kind.INT, value: String(v) } : { kind: Kind.FLOAT, value: String(v) };
  if (typeof v === 'boolean') return { kind: Kind.BOOLEAN, value: v };
  return { kind: Kind.STRING, value: String(v) };
}

// A value of the client's with its variables written as literals of the remote's types (undefined:
// a variable not given, whose argument or key is left out).
function inlined(v: ValueNode, type: GraphQLInputType | null, variables: { readonly [k: string]: unknown }): ValueNode | undefined {
  if (v.kind === Kind.VARIABLE) return variables[v.name.value] === undefined ? undefined : literal(variables[v.name.value], type);
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (v.kind === Kind.LIST) return { ...v, values: v.values.map((x) => inlined(x, inner && isListType(inner) ? inner.ofType : null, variables) ?? { kind: Kind.NULL }) };
  if (v.kind === Kind.OBJECT) {
    const fields = inner && isInputObjectType(inner) ? inner.getFields() : {};
    return { ...v, fields: v.fields.flatMap((f) => {
      const value = inlined(f.value, fields[f.name.value]?.type ?? null, variables);
      return value === undefined ? [] : [{ ...f, value }];
    }) };
  }
  return v;
}

// Two values of one argument: objects merged key by key, the relationship's value winning elsewhere.
function merged(rel: ValueNode, client: ValueNode): ValueNode {
  if (rel.kind !== Kind.OBJECT || client.kind !== Kind.OBJECT) return rel;
  const fields = rel.fields.map((f) => {
    const other = client.fields.find((c) => c.name.value === f.name.value);
    return other ? { ...f, value: merged(f.value, other.value) } : f;
  });
  return { ...rel, fields: [...fields, ...client.fields.filter((c) => !rel.fields.some((f) => f.name.value === c.name.value))] };
}

/**
 * The leaf field's arguments: the relationship's with the client's merged in, as Hasura merges
 * them (an input object the relationship binds in part takes the client's other keys).
 */
function mergeArguments(rel: readonly ArgumentNode[], client: readonly ArgumentNode[], typeOf: (n: string) => GraphQLInputType | null,
  variables: { readonly [k: string]: unknown }): ArgumentNode[] {
  const out = [...rel];
  for (const c of client) {
    const value = inlined(c.value, typeOf(c.name.value), variables);
    if (value === undefined) continue;
    const i = out.findIndex((a) => a.name.value === c.name.value);
    if (i < 0) out.push({ ...c, value });
    else out[i] = { ...out[i]!, value: merged(out[i]!.value, value) };
  }
  return out;
}

// `$column` strings in a remote_field argument tree replaced by the row's values.
function substitute(v: Json, keys: Row): unknown {
  if (typeof v === 'string' && v.startsWith('$') && v.slice(1) in keys) return keys[v.slice(1)];
  if (Array.isArray(v)) return v.map((x) => substitute(x, keys));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, keys)]));
  return v;
}

type ToRemoteSchema = Extract<RemoteJoinSite['relationship'], { kind: 'remote_schema' }>;

// One call of the remote for every hole: `node` is the client's field, `callId` names the call in traces.
/** The message of a table's remote join whose remote answered errors (Hasura's RemoteJoin/RemoteSchema.hs). */
export const REMOTE_JOIN_ERRORS = 'Errors from remote server';

// `failOnErrors`: a table's relationship, whose remote's errors fail the whole request as Hasura's
// executeRemoteSchemaCall fails it: 'Errors from remote server', code unexpected, path $, the
// remote's errors as its internal detail.
async function joinRemote(rel: ToRemoteSchema, node: FieldNode, callId: string, holes: readonly Hole[], env: JoinEnv, failOnErrors = false): Promise<unknown[]> {
  const view = env.remote?.viewsFor(env.session.role).find((v) => v.def.name === rel.remoteSchema);
  if (!view) { for (const h of holes) h.parent[h.key] = null; return []; }
  const steps = remoteFieldPath(rel.remoteField);
  // One aliased field per distinct key set.
  const byTuple = new Map<string, Hole[]>();
  for (const h of holes) {
    const t = tupleOf(h, rel.lhsColumns);
    byTuple.set(t, [...(byTuple.get(t) ?? []), h]);
  }
  let parentType = view.schema.getQueryType() ?? null;
  // The arguments the relationship binds, by `Parent.field`: a role's preset does not replace them.
  const bound = new Map<string, ReadonlySet<string>>();
  const typesOf: ((n: string) => GraphQLInputType | null)[] = steps.map((s) => {
    if (parentType) bound.set(`${parentType.name}.${s.name}`, new Set(Object.keys(s.args)));
    const f = parentType && 'getFields' in parentType ? (parentType.getFields() as Record<string, { args: readonly { name: string; type: GraphQLInputType }[]; type: unknown }>)[s.name] : undefined;
    const named = f ? (f.type as { ofType?: unknown; name?: string }) : null;
    let t: unknown = named;
    while (t && typeof t === 'object' && 'ofType' in t && (t as { ofType?: unknown }).ofType) t = (t as { ofType: unknown }).ofType;
    parentType = t && typeof t === 'object' && 'getFields' in t ? t as typeof parentType : null;
    return (n: string) => f?.args.find((a) => a.name === n)?.type ?? null;
  });
  // Relationships from the remote's types to tables in the selection: taken out, joined after the call.
  const leaf = leafField(view.schema, rel.remoteField);
  const schemaJoins = env.remote?.joinsOf(view.def.name) ?? [];
  const stripped = leaf && node.selectionSet && schemaJoins.length > 0
    ? stripSchemaJoinsIn(view, schemaJoins, node.selectionSet, getNamedType(leaf.type).name,
      new Map(env.document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : []))))
    : null;
  const selection = stripped ? stripped.set : node.selectionSet;
  const fields: FieldNode[] = [];
  const aliases: [string, Hole[]][] = [];
  let i = 0;
  for (const group of byTuple.values()) {
    const keys = group[0]!.keys;
    const alias = `f${i++}`;
    aliases.push([alias, group]);
    let inner: FieldNode | null = null;
    for (let s = steps.length - 1; s >= 0; s--) {
      const step = steps[s]!;
      let args: ArgumentNode[] = Object.entries(step.args).map(([k, v]) => arg(k, literal(substitute(v as Json, keys), typesOf[s]!(k))));
      const isLeaf = s === steps.length - 1;
      if (isLeaf) args = mergeArguments(args, node.arguments ?? [], typesOf[s]!, env.variables);
      const selectionSet: SelectionSetNode | undefined = isLeaf ? selection : { kind: Kind.SELECTION_SET, selections: [inner!] };
      inner = { kind: Kind.FIELD, name: name(step.name), arguments: args, ...(selectionSet ? { selectionSet } : {}), ...(s === 0 ? { alias: name(alias) } : {}) };
    }
    fields.push(inner!);
  }
  // The client's arguments are written into the call with their variables' values.
  const used = usedDefinitions(selection ? [selection] : [], env, stripped?.fragments);
  const op: OperationDefinitionNode = { kind: Kind.OPERATION_DEFINITION, operation: 'query' as OperationDefinitionNode['operation'],
    variableDefinitions: used.vars, selectionSet: { kind: Kind.SELECTION_SET, selections: fields } };
  // A customized remote: the client's selection (its names) written in the remote's names.
  let doc: DocumentNode = relationshipToRemoteNames({ kind: Kind.DOCUMENT, definitions: [op, ...used.fragments] }, steps.length,
    leaf ? getNamedType(leaf.type).name : null, view);
  const typenameKeys = new Set<string>(['__typename']);
  visit(doc, { Field: (f) => { if (f.name.value === '__typename') typenameKeys.add(f.alias?.value ?? f.name.value); } });
  let values: Record<string, unknown> = Object.fromEntries(used.vars.map((d) => [d.variable.name.value, env.variables[d.variable.name.value]]).filter(([, v]) => v !== undefined));
  // Remote schema permissions: the role's presets apply to relationship calls too.
  if (view.presets) {
    const withPresets = applyPresets(doc, view.schema, view.presets, bound);
    doc = withPresets.doc;
    values = presetValues(withPresets, view.schema, view.presets, values, env.session);
  }
  // Written as Hasura writes it, so the remote's error locations are the ones Hasura's call gets.
  const body = hasuraPrint(doc);
  const answer = await callRemote(view.def, { kind: 'http', id: callId, target: { kind: 'remote_schema', name: view.def.name }, body, variables: {} },
    values, env.session, env.headers, null);
  if (failOnErrors && answer.errors.length > 0) throw new ApiError('unexpected', REMOTE_JOIN_ERRORS, 400, [], { errors: answer.errors });
  const nested = stripped?.sites.length ? await resolveSchemaJoins(answer.data as Row | null, stripped.sites, env) : [];
  for (const [alias, group] of aliases) {
    let value: unknown = answer.data?.[alias] ?? null;
    for (const step of steps.slice(1)) value = pick(value, step.name);
    value = typenamesToClient(value, typenameKeys, view);
    for (const h of group) h.parent[h.key] = value;
  }
  return [...answer.errors, ...nested];
}

function pick(v: unknown, key: string): unknown {
  if (Array.isArray(v)) return v.map((x) => pick(x, key));
  return v !== null && typeof v === 'object' ? (v as Row)[key] ?? null : null;
}

/**
 * Relationships from a remote's types (runtime/remote schema-joins.ts): each object of the remote's
 * answer that carries a site's join fields is a row; one query of the target table, as the role,
 * or one call of the other remote (an aliased field per distinct key set) answers all of a site's
 * rows; the join fields are taken out of the answer. Answers the other remotes' errors.
 */
export async function resolveSchemaJoins(data: Row | null, sites: readonly SchemaJoinSite[], env: JoinEnv): Promise<unknown[]> {
  if (data === null || sites.length === 0) return [];
  const holes = new Map<SchemaJoinSite, Hole[]>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) { for (const x of v) walk(x); return; }
    if (v === null || typeof v !== 'object') return;
    const o = v as Row;
    for (const site of sites) {
      if (!(`${site.prefix}0` in o)) continue;
      // Keys by join field for a remote target (its `$field` arguments name them), by position for a table.
      const names = site.join.kind === 'remote_schema' ? site.join.lhsFields : site.join.mapping.map((_m, i) => `k${i}`);
      const keys: Row = {};
      names.forEach((k, i) => { keys[k] = o[`${site.prefix}${i}`]; delete o[`${site.prefix}${i}`]; });
      if (Object.values(keys).some((k) => k === null || k === undefined)) o[site.key] = null;
      else holes.set(site, [...(holes.get(site) ?? []), { parent: o, key: site.key, keys }]);
    }
    for (const x of Object.values(o)) walk(x);
  };
  walk(data);
  const errors = await Promise.all([...holes].map(async ([site, list]): Promise<unknown[]> => {
    const j = site.join;
    if (j.kind === 'remote_schema') {
      return joinRemote({ kind: 'remote_schema', name: j.name, remoteSchema: j.remoteSchema, lhsColumns: j.lhsFields, remoteField: j.remoteField },
        site.node, `join:${j.remote}.${j.typeName}.${j.name}`, list, env);
    }
    await joinSource({
      id: -1, table: env.model.tables[j.target]!, field: { node: site.node } as RemoteJoinSite['field'],
      relationship: { kind: 'source', name: j.name, cardinality: j.cardinality, target: j.target,
        mapping: j.mapping.map(([, column], i) => [`k${i}`, column] as const) },
    }, list, env);
    return [];
  }));
  return errors.flat();
}
