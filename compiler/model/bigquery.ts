// BigQuery sources in the model: their connection (`service_account`, `project_id`, `datasets`,
// `global_select_limit`), queries only (Hasura's BigQuery backend has no mutations, subscriptions
// or event triggers: asking for them is an inconsistency with a clear reason, never a run-time
// surprise), and `global_select_limit` inlined into every role's row limit on the source's tables.

import type { BigQueryConnection, BundleModel, Json, RoleRoots, SelectPermissionModel } from '../../runtime/bundle/index.js';
import type { Source, TableEntry } from '../metadata/index.js';
import { Issues } from './issues.js';
import { computedFieldDefinition, functionObjectName, permissionDefinition, permissionObjectName, qualifiedText, sourceObjectName, tableChildName, tableObjectName } from './names.js';

const WRITES = [['insert_permissions', 'insert'], ['update_permissions', 'update'], ['delete_permissions', 'delete']] as const;

/**
 * Why a BigQuery source has no computed fields or tracked functions here: Hasura's BigQuery
 * backend exposes no function root fields, and its computed fields are table-valued functions
 * (CREATE TABLE FUNCTION, read through BigQuery's routines API), which Kiln does not serve.
 */
export const BIGQUERY_FUNCTIONS_REASON = 'Kiln serves no functions on BigQuery sources (Hasura\'s BigQuery backend has no function root fields, and its table-valued-function computed fields are not implemented)';

/**
 * The source with what BigQuery cannot serve taken out, each piece reported: insert, update and
 * delete permissions, event triggers, computed fields and tracked functions. Other kinds of
 * source are returned as they are.
 */
export function queriesOnly(source: Source, issues: Issues): Source {
  if (source.kind !== 'bigquery') return source;
  const tables = source.tables.map((t): TableEntry => {
    for (const [key, kind] of WRITES) {
      for (const p of t[key] ?? []) {
        issues.add({ type: `${kind}_permission`, name: permissionObjectName(kind, p.role, source.name, t.table),
          definition: permissionDefinition(kind, source.name, t.table, p),
          reason: `${kind} permissions are not supported on BigQuery source "${source.name}": BigQuery sources serve queries only (no mutations)` });
      }
    }
    for (const e of t.event_triggers ?? []) {
      const name = (e as { name?: unknown }).name;
      issues.add({ type: 'event_trigger', name: `event_trigger ${String(name)} in ${tableObjectName(source.name, t.table)}`,
        definition: e as Json, reason: `event triggers are not supported on BigQuery source "${source.name}" (table ${qualifiedText(t.table)})` });
    }
    for (const cf of t.computed_fields ?? []) {
      issues.add({ type: 'computed_field', name: tableChildName('computed_field', cf.name, source.name, t.table),
        definition: computedFieldDefinition(source.name, t.table, cf),
        reason: `Inconsistent object: computed fields are not supported on BigQuery source "${source.name}": ${BIGQUERY_FUNCTIONS_REASON}` });
    }
    const { insert_permissions: _i, update_permissions: _u, delete_permissions: _d, event_triggers: _e, computed_fields: _c, ...rest } = t;
    return rest;
  });
  for (const f of source.functions ?? []) {
    issues.add({ type: 'function', name: functionObjectName(source.name, f.function), definition: { source: source.name, ...f } as unknown as Json,
      reason: `Inconsistent object: functions are not supported on BigQuery source "${source.name}": ${BIGQUERY_FUNCTIONS_REASON}` });
  }
  const { functions: _f, ...kept } = source;
  return { ...kept, tables };
}

/** `configuration` of a BigQuery source as the runtime opens it; an inconsistency when it is not one. */
export function bigqueryConnection(source: Source, issues: Issues): BigQueryConnection | null {
  const c = source.configuration as { readonly [k: string]: Json | undefined };
  const fail = (reason: string): null => {
    issues.add({ type: 'source', name: sourceObjectName(source.name), definition: source as unknown as Json, reason: `Inconsistent object: ${reason}` });
    return null;
  };
  const project = valueRef(c['project_id']);
  if (!project) return fail(`BigQuery source "${source.name}": configuration.project_id must be a string or {"from_env": "<variable>"}`);
  const account = c['service_account'] === undefined ? null : accountRef(c['service_account']);
  if (account === undefined) return fail(`BigQuery source "${source.name}": configuration.service_account must be a JSON string, an object or {"from_env": "<variable>"}`);
  const datasets = c['datasets'];
  const list = Array.isArray(datasets) && datasets.every((d) => typeof d === 'string') ? datasets as string[] : null;
  const datasetsEnv = list ? null : valueRef(datasets);
  if (!list && datasetsEnv?.kind !== 'env') return fail(`BigQuery source "${source.name}": configuration.datasets must be a list of dataset names or {"from_env": "<variable>"}`);
  const limit = c['global_select_limit'];
  if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0)) {
    return fail(`BigQuery source "${source.name}": configuration.global_select_limit must be a non-negative integer`);
  }
  return { projectId: project, serviceAccount: account, datasets: list ?? (datasetsEnv as { kind: 'env'; name: string }), globalSelectLimit: typeof limit === 'number' ? limit : null };
}

/** `configuration` of a BigQuery source read on its own (`kiln serve --metadata`): the connection, or why it is not one. */
export function readBigQueryConnection(source: Source): BigQueryConnection | { readonly reason: string } {
  const issues = new Issues();
  return bigqueryConnection(source, issues) ?? { reason: issues.list().map((i) => i.reason).join('; ') };
}

function valueRef(v: Json | undefined): { kind: 'literal'; value: string } | { kind: 'env'; name: string } | null {
  if (typeof v === 'string' && v !== '') return { kind: 'literal', value: v };
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { from_env?: unknown }).from_env === 'string') return { kind: 'env', name: (v as { from_env: string }).from_env };
  return null;
}

function accountRef(v: Json): BigQueryConnection['serviceAccount'] | undefined {
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { from_env?: unknown }).from_env === 'string') return { kind: 'env', name: (v as { from_env: string }).from_env };
  if (typeof v === 'string') return { kind: 'literal', value: v };
  if (v && typeof v === 'object' && !Array.isArray(v)) return { kind: 'literal', value: JSON.stringify(v) };
  return undefined;
}

/**
 * The model with its BigQuery sources served as Hasura's BigQuery backend serves them: no
 * subscription, streaming or mutation root fields on their tables, and `global_select_limit`
 * in every role's row limit there (the smaller of it and the role's own).
 */
export function bigqueryModel(model: BundleModel): BundleModel {
  const bq = new Map(model.sources.filter((s) => s.bigquery).map((s) => [s.name, s.bigquery!]));
  if (bq.size === 0) return model;
  const onBigQuery = (table: string): boolean => bq.has(model.tables[table]?.source ?? '');
  const roots = Object.fromEntries(Object.entries(model.roots).map(([role, r]): [string, RoleRoots] => [role, {
    ...r,
    subscription: Object.fromEntries(Object.entries(r.subscription).filter(([, f]) => !('table' in f) || !onBigQuery(f.table))),
    ...(r.stream ? { stream: Object.fromEntries(Object.entries(r.stream).filter(([, t]) => !onBigQuery(t))) } : {}),
    ...(r.mutation ? { mutation: Object.fromEntries(Object.entries(r.mutation).filter(([, f]) => !onBigQuery(f.table))) } : {}),
    ...(r.backendOnlyMutation ? { backendOnlyMutation: Object.fromEntries(Object.entries(r.backendOnlyMutation).filter(([, f]) => !onBigQuery(f.table))) } : {}),
  }]));
  const select = Object.fromEntries(Object.entries(model.select).map(([role, perms]) => [role, Object.fromEntries(Object.entries(perms).map(([table, p]): [string, SelectPermissionModel] => {
    const global = bq.get(model.tables[table]?.source ?? '')?.globalSelectLimit ?? null;
    return [table, global === null ? p : { ...p, limit: p.limit === null ? global : Math.min(p.limit, global) }];
  }))]));
  const mutations = Object.fromEntries(Object.entries(model.mutations ?? {}).map(([role, perms]) => [role, Object.fromEntries(Object.entries(perms).filter(([table]) => !onBigQuery(table)))]));
  return { ...model, roots, select, mutations };
}
