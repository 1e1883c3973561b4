import { createHash } from 'node:crypto';
import { execute, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { BundleModel, RootField } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias, aliasRef, compileSql, ident, jsonKey, param, sql, type CompiledSql, type Dialect, type Sql } from '../sql/index.js';
import { tableOf, type PlanContext } from './context.js';
import { argsOf, collectFields, type FieldSel } from './fields.js';
import { leafParam, type Input } from './input.js';
import { aggregateQuery } from './aggregate.js';
import { functionArgs, listQuery, objectQuery, tableFrom, type Cond } from './select.js';

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
}

export interface PlanInput {
  readonly model: BundleModel;
  readonly schema: GraphQLSchema;
  readonly role: string;
  readonly dialect: Dialect;
  readonly stringifyNumeric: boolean;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly variables: { readonly [k: string]: unknown };
  readonly structural: Set<string>;
}

/** Plans a query operation into one statement whose single text value is the `data` object. */
export function planOperation(input: PlanInput): Plan {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of input.document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const ctx: PlanContext = { ...input, fragments, hints: { valueSensitive: false } };
  const rootType = input.operation.operation === 'subscription' ? 'subscription_root' : 'query_root';
  const roots = input.operation.operation === 'subscription' ? input.model.roots[input.role]?.subscription : input.model.roots[input.role]?.query;
  const fields = collectFields(input.operation.selectionSet, rootType, ctx);
  const introspection = introspectionValues(input, fields);
  // Each root field's value, and the source whose database computes it (null: known at plan time).
  const entries: { key: string; source: string | null; value: Sql }[] = [];
  for (const f of fields) {
    const path = ['selectionSet', f.key];
    if (f.name === '__typename') { entries.push({ key: f.key, source: null, value: jsonKey(rootType) }); continue; }
    if (f.name === '__schema' || f.name === '__type') {
      entries.push({ key: f.key, source: null, value: sql`(${param(JSON.stringify(introspection?.[f.key] ?? null), 'text')})::json` });
      continue;
    }
    const root = roots?.[f.name];
    const namespace = root ? undefined : input.model.sources.find((s) => s.namespace?.field === f.name);
    if (namespace?.namespace) {
      entries.push({ key: f.key, source: namespace.name, value: namespaceSql(namespace.namespace.field, namespace.namespace.queryType, f, roots ?? {}, ctx, path) });
      continue;
    }
    if (!root) throw new ApiError('validation-failed', `field "${f.name}" not found in type: '${rootType}'`, 400, path);
    entries.push({ key: f.key, source: tableOf(ctx, root.table).source, value: rootFieldSql(root, f, ctx, path) });
  }
  const sources = [...new Set(entries.flatMap((e) => (e.source === null ? [] : [e.source])))];
  if (sources.length === 0) {
    return { kind: 'static', body: `{"data":${JSON.stringify(Object.fromEntries(fields.map((f) => [f.key, f.name === '__typename' ? rootType : introspection?.[f.key] ?? null])))}}` };
  }
  // One statement per source (almost always one); fields known at plan time ride with the first.
  const parts = sources.map((source, i) => statement(source, entries.filter((e) => e.source === source || (i === 0 && e.source === null)), ctx));
  if (parts.length === 1) return parts[0]!;
  return { kind: 'multi', parts, keys: entries.map((e) => e.key) };
}

function statement(source: string, entries: readonly { key: string; value: Sql }[], ctx: PlanContext): SqlPlan {
  const pairs = entries.map((e): readonly [Sql, Sql] => [jsonKey(e.key), e.value]);
  const compiled = compileSql(sql`SELECT (${ctx.dialect.jsonObject(pairs)})::text`, ctx.dialect);
  const name = `kiln_${createHash('sha1').update(compiled.text).digest('hex').slice(0, 20)}`;
  return { kind: 'sql', source, sql: compiled, name, valueSensitive: ctx.hints.valueSensitive };
}

/** A namespace field (source customization): the object of its root fields, which one source computes. */
function namespaceSql(ns: string, typeName: string, f: FieldSel, roots: { readonly [key: string]: RootField }, ctx: PlanContext,
  path: readonly (string | number)[]): Sql {
  const pairs = collectFields(f.node.selectionSet, typeName, ctx).map((sub): readonly [Sql, Sql] => {
    if (sub.name === '__typename') return [jsonKey(sub.key), jsonKey(typeName)];
    const root = roots[`${ns}.${sub.name}`];
    const subPath = [...path, 'selectionSet', sub.key];
    if (!root) throw new ApiError('validation-failed', `field "${sub.name}" not found in type: '${typeName}'`, 400, subPath);
    return [jsonKey(sub.key), rootFieldSql(root, sub, ctx, subPath)];
  });
  return ctx.dialect.jsonObject(pairs);
}

/** The SQL of one root field. */
export function rootFieldSql(root: RootField, f: FieldSel, ctx: PlanContext, path: readonly (string | number)[]): Sql {
  const t = tableOf(ctx, root.table);
  const args = argsOf(f.node);
  switch (root.kind) {
    case 'select': return listQuery(t, tableFrom(t), args, f, ctx, path, []);
    case 'select_aggregate': return aggregateQuery(t, tableFrom(t), args, f, ctx, path, []);
    case 'select_by_pk': {
      const conds: Cond[] = t.primaryKey.map((pk) => {
        const c = t.columns.find((x) => x.name === pk)!;
        const v = args.get(c.field);
        if (!v) throw new ApiError('validation-failed', `missing required field "${c.field}"`, 400, [...path, 'args']);
        return (b: Alias) => sql`${aliasRef(b)}.${ident(c.name)} = ${leafParam(v, c.type, ctx)}`;
      });
      return objectQuery(t, tableFrom(t), f, ctx, path, conds);
    }
    case 'function': case 'function_aggregate': {
      const fn = ctx.model.functions[root.function]!;
      const from = sql`${ident(fn.schema, fn.name)}(${functionArgs(fn.args, fn.sessionArgument, args.get('args') as Input | undefined, ctx, path, [])})`;
      if (root.kind === 'function_aggregate') return aggregateQuery(t, from, args, f, ctx, path, []);
      return fn.returnsSet ? listQuery(t, from, args, f, ctx, path, []) : objectQuery(t, from, f, ctx, path, []);
    }
  }
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

