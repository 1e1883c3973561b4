import { createHash } from 'node:crypto';
import { execute, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { BundleModel, RootField, RootTemplate } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { compileSql, type CompiledSql, type Dialect, type FunctionSource, type JsonField, type JsonValue, type Source, type SqlStep, type TableSource } from '../sql/index.js';
import { aggregateSelect } from './aggregate.js';
import { functionArgs } from './call.js';
import { rootTemplateOf, tableOf, tableSource, type PlanContext } from './context.js';
import { argsOf, collectFields, type FieldSel } from './fields.js';
import { leafExpr, type Input } from './input.js';
import type { JoinCond } from './rows.js';
import type { RemoteJoinSite } from './remote-join-site.js';
import { listSelect, objectSelect, rowShape } from './select.js';

/** A planned operation: one statement per source (usually one), or a response known at plan time. */
export type Plan =
  | { readonly kind: 'static'; readonly body: string }
  | SqlPlan
  /** Root fields of several sources: one statement each, merged in `keys` order. */
  | { readonly kind: 'multi'; readonly parts: readonly SqlPlan[]; readonly keys: readonly string[] };

/** One statement on one source whose single text value is a JSON object of root fields. */
export interface SqlPlan {
  readonly kind: 'sql';
  readonly source: string;
  readonly sql: CompiledSql;
  readonly name: string;
  readonly valueSensitive: boolean;
  /** Remote relationship fields whose placeholders the engine replaces after the statement ran (absent: none). */
  readonly joins?: readonly RemoteJoinSite[];
  /** The root fields, when the dialect returns typed rows and the engine writes their JSON (`Dialect.rowsToJson`). */
  readonly typedRows?: readonly JsonField[];
}

export interface PlanInput {
  readonly model: BundleModel;
  readonly schema: GraphQLSchema;
  readonly role: string;
  /** The dialect of the first source (and of every source when `dialectOf` is absent). */
  readonly dialect: Dialect;
  /** The dialect of each source, for requests whose root fields read sources of several kinds. */
  readonly dialectOf?: (source: string) => Dialect;
  readonly stringifyNumeric: boolean;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly variables: { readonly [k: string]: unknown };
  readonly structural: Set<string>;
}

/** A query operation as IR: one SQL step per source read, or the response when no table is read. */
export type QueryIr =
  | { readonly kind: 'static'; readonly body: string }
  | {
    readonly kind: 'steps'; readonly plan: { readonly steps: readonly SqlStep[] }; readonly keys: readonly string[];
    /** The planning context of the first step's source. */
    readonly ctx: PlanContext;
    /** The planning context (with its dialect) of each step's source. */
    readonly contexts: ReadonlyMap<string, PlanContext>;
  };

/** Plans a query operation into one statement whose single text value is the `data` object. */
/**
 * A subscription's root takes no introspection: Hasura parses it as a query, then refuses every raw
 * root field (__typename, __schema, __type) in buildSubscriptionPlan.
 */
export function refuseSubscriptionIntrospection(name: string): void {
  if (name === '__typename' || name === '__schema' || name === '__type') {
    throw new ApiError('not-supported', 'Introspection not supported over subscriptions', 400, []);
  }
}

export function planOperation(input: PlanInput): Plan {
  const ir = planQueryIr(input);
  if (ir.kind === 'static') return ir;
  const { plan } = ir;
  const ctxOf = (source: string): PlanContext => ir.contexts.get(source) ?? ir.ctx;
  // Rendered before any is compiled: the hints of every step are known when the first is named.
  // Each step in the dialect of its own source.
  const rendered = plan.steps.map((s) => ctxOf(s.source).dialect.render.statement(s.fields, ctxOf(s.source)));
  const parts = plan.steps.map((s, i): SqlPlan => {
    const ctx = ctxOf(s.source);
    const compiled = compileSql(rendered[i]!, ctx.dialect);
    const name = `kiln_${createHash('sha1').update(compiled.text).digest('hex').slice(0, 20)}`;
    const joins = ctx.remoteJoins?.length ? { joins: [...ctx.remoteJoins] } : {};
    return { kind: 'sql', source: s.source, sql: compiled, name, valueSensitive: ctx.hints.valueSensitive, ...joins, ...(ctx.dialect.can.jsonInSql ? {} : { typedRows: s.fields }) };
  });
  if (parts.length === 1) return parts[0]!;
  return { kind: 'multi', parts, keys: ir.keys };
}

/** Plans a query operation as IR (what planOperation renders, and what proofs read). */
export function planQueryIr(input: PlanInput): QueryIr {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of input.document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const ctx: PlanContext = { ...input, fragments, hints: { valueSensitive: false }, remoteJoins: [] };
  // Root fields are planned in the dialect of their own source (hints and remote joins shared).
  const contexts = new Map<string, PlanContext>();
  const ctxFor = (source: string): PlanContext => {
    let c = contexts.get(source);
    if (!c) {
      const dialect = input.dialectOf?.(source) ?? input.dialect;
      if (!dialect.can.jsonInSql && !dialect.rowsToJson) throw new ApiError('not-supported', `queries on a ${dialect.name} source are not supported yet`, 400, []);
      c = dialect === ctx.dialect ? ctx : { ...ctx, dialect };
      contexts.set(source, c);
    }
    return c;
  };
  const rootType = input.operation.operation === 'subscription' ? 'subscription_root' : 'query_root';
  const roots = input.operation.operation === 'subscription' ? input.model.roots[input.role]?.subscription : input.model.roots[input.role]?.query;
  const fields = collectFields(input.operation.selectionSet, rootType, ctx);
  const introspection = introspectionValues(input, fields);
  // Each root field's value, and the source whose database computes it (null: known at plan time).
  const entries: { key: string; source: string | null; value: JsonValue }[] = [];
  // Per entry: whether it is a namespace field (source customization).
  const namespaced: boolean[] = [];
  for (const f of fields) {
    namespaced.push(false);
    const path = ['selectionSet', f.name];
    if (input.operation.operation === 'subscription') refuseSubscriptionIntrospection(f.name);
    if (f.name === '__typename') { entries.push({ key: f.key, source: null, value: { kind: 'name', name: rootType } }); continue; }
    if (f.name === '__schema' || f.name === '__type') {
      entries.push({ key: f.key, source: null, value: { kind: 'json_text', value: { kind: 'literal', value: JSON.stringify(introspection?.[f.key] ?? null) } } });
      continue;
    }
    const root = roots?.[f.name];
    if (!root && f.name === PLACEHOLDER && input.operation.operation === 'query') {
      // The schema accepted it: query_root has nothing else for this role (Hasura's placeholder answers a fixed text).
      entries.push({ key: f.key, source: null, value: { kind: 'json_text', value: { kind: 'literal', value: JSON.stringify(PLACEHOLDER_TEXT) } } });
      continue;
    }
    const namespace = root ? undefined : input.model.sources.find((s) => s.namespace?.field === f.name);
    if (namespace?.namespace) {
      namespaced[namespaced.length - 1] = true;
      entries.push({ key: f.key, source: namespace.name, value: namespaceIr(namespace.namespace.field, namespace.namespace.queryType, f, roots ?? {}, ctxFor(namespace.name), path) });
      continue;
    }
    if (!root) throw new ApiError('validation-failed', `field "${f.name}" not found in type: '${rootType}'`, 400, path);
    const source = tableOf(ctx, root.table).source;
    entries.push({ key: f.key, source, value: rootFieldIr(root, f, ctxFor(source), path, f.name) });
  }
  // A subscription's response can be wrapped in one namespace only: root fields (allowed several
  // by @_multiple_top_level_fields) under two namespace fields, or under one and none, are refused
  // (Hasura's buildSubscriptionPlan).
  if (input.operation.operation === 'subscription') {
    const wrappers = new Set(entries.flatMap((e, i) => (e.source === null ? [] : [namespaced[i] ? e.key : null])));
    if (wrappers.size > 1) throw new ApiError('validation-failed', 'subscriptions must select one top level field', 400, []);
  }
  const sources = [...new Set(entries.flatMap((e) => (e.source === null ? [] : [e.source])))];
  if (sources.length === 0) {
    const known = (f: FieldSel): unknown => (f.name === '__typename' ? rootType : f.name === PLACEHOLDER ? PLACEHOLDER_TEXT : introspection?.[f.key] ?? null);
    return { kind: 'static', body: `{"data":${JSON.stringify(Object.fromEntries(fields.map((f) => [f.key, known(f)])))}}` };
  }
  // One SQL step per source (almost always one); fields known at plan time ride with the first.
  const steps = sources.map((source, i): SqlStep => ({ kind: 'sql', id: source, source,
    fields: entries.filter((e) => e.source === source || (i === 0 && e.source === null)).map((e) => ({ key: e.key, value: e.value })) }));
  return { kind: 'steps', plan: { steps }, keys: entries.map((e) => e.key), ctx: ctxFor(sources[0]!), contexts };
}

/** The one field of a role's query_root when it may query nothing, and its answer (Hasura v2's). */
const PLACEHOLDER = 'no_queries_available';
const PLACEHOLDER_TEXT = 'There are no queries available to the current role. Either there are no sources or remote schemas configured, '
  + "or the current role doesn't have the required permissions.";

/** A namespace field (source customization): the object of its root fields, which one source computes. */
function namespaceIr(ns: string, typeName: string, f: FieldSel, roots: { readonly [key: string]: RootField }, ctx: PlanContext,
  path: readonly (string | number)[]): JsonValue {
  const fields = collectFields(f.node.selectionSet, typeName, ctx).map((sub): { key: string; value: JsonValue } => {
    if (sub.name === '__typename') return { key: sub.key, value: { kind: 'name', name: typeName } };
    const root = roots[`${ns}.${sub.name}`];
    const subPath = [...path, 'selectionSet', sub.key];
    if (!root) throw new ApiError('validation-failed', `field "${sub.name}" not found in type: '${typeName}'`, 400, subPath);
    return { key: sub.key, value: rootFieldIr(root, sub, ctx, subPath, `${ns}.${sub.name}`) };
  });
  return { kind: 'object', fields };
}

/**
 * One root field as IR: a list, an aggregate, or one row. `field` names the root (its key in the
 * role's roots) whose precompiled template the plan completes: its source, and the role's filter,
 * columns, row limit and aggregation switch (null, or no template: read from the permissions). A
 * function exposed as a mutation gives the template itself (its mutation template's).
 */
export function rootFieldIr(root: RootField, f: FieldSel, planCtx: PlanContext, path: readonly (string | number)[], field: string | RootTemplate | null): JsonValue {
  const template = field === null ? undefined : typeof field === 'string' ? rootTemplateOf(planCtx, field) : field;
  const ctx: PlanContext = template ? { ...planCtx, rootTemplate: template } : planCtx;
  const t = tableOf(ctx, root.table);
  const args = argsOf(f.node);
  // The template's source in place of the one it was made from.
  const from = (of: TableSource | FunctionSource): Source => (template ? { kind: 'template', template: template.source, of } : of);
  if (template && !template.aggregations && (root.kind === 'select_aggregate' || root.kind === 'function_aggregate')) {
    throw new ApiError('validation-failed', `field "${f.name}" not found in type: 'query_root'`, 400, path);
  }
  switch (root.kind) {
    case 'select': return listSelect(t, from(tableSource(t)), args, f, ctx, path, []);
    case 'select_aggregate': return aggregateSelect(t, from(tableSource(t)), args, f, ctx, path, [], rowShape);
    case 'select_by_pk': {
      const conds: JoinCond[] = t.primaryKey.map((pk) => {
        const c = t.columns.find((x) => x.name === pk)!;
        const v = args.get(c.field);
        if (!v) throw new ApiError('validation-failed', `missing required field "${c.field}"`, 400, [...path, 'args']);
        return (b) => [{ kind: 'equals', left: { kind: 'column', row: b, column: c.name }, right: leafExpr(v, c.type, ctx) }];
      });
      return objectSelect(t, from(tableSource(t)), f, ctx, path, conds);
    }
    case 'function': case 'function_aggregate': {
      const fn = ctx.model.functions[root.function]!;
      const rows = from({ kind: 'function', call: { kind: 'call', fn: { schema: fn.schema, name: fn.name },
        args: functionArgs(fn.args, fn.sessionArgument, args.get('args') as Input | undefined, ctx, path, null) } });
      if (root.kind === 'function_aggregate') return aggregateSelect(t, rows, args, f, ctx, path, [], rowShape);
      return fn.returnsSet ? listSelect(t, rows, args, f, ctx, path, []) : objectSelect(t, rows, f, ctx, path, []);
    }
  }
}

/** The statement of one root field alone (explain): what the engine runs were it the only one. */
export function rootFieldStatement(key: string, value: JsonValue, ctx: PlanContext): CompiledSql {
  const fields: JsonField[] = [{ key, value }];
  return compileSql(ctx.dialect.render.statement(fields, ctx), ctx.dialect);
}

// __schema / __type are answered by graphql-js on the role's schema; data fields resolve to null there.
function introspectionValues(input: PlanInput, fields: readonly FieldSel[]): Record<string, unknown> | null {
  if (!fields.some((f) => f.name === '__schema' || f.name === '__type')) return null;
  const keep = (sel: (typeof input.operation.selectionSet.selections)[number]): boolean =>
    sel.kind === 'Field' && (sel.name.value === '__schema' || sel.name.value === '__type');
  const operation = { ...input.operation, selectionSet: { ...input.operation.selectionSet, selections: input.operation.selectionSet.selections.filter(keep) } };
  const document = { ...input.document, definitions: [operation, ...input.document.definitions.filter((d) => d.kind === 'FragmentDefinition')] };
  const result = execute({ schema: input.schema, document, operationName: input.operation.name?.value,
    variableValues: input.variables as Record<string, unknown>, rootValue: {}, fieldResolver: () => null });
  if ('then' in result) throw new Error('assertion failed: introspection is synchronous');
  if (result.errors?.length) throw new ApiError('validation-failed', result.errors[0]!.message, 400, []);
  return (result.data ?? {}) as Record<string, unknown>;
}

