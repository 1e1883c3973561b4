import type { BigQueryConnection,
  BundleModel, FunctionModel, Json, RoleRoots, RootField, SelectPermissionModel, SourceModel, TableModel, TableMutationPermissions,
} from '../../runtime/bundle/index.js';
import type { Introspection } from '../introspect/index.js';
import { databaseUrl, readReplicas, sourcePool, type Metadata, type Source } from '../metadata/index.js';
import { introspectionDisabledRoles, readApiLimits } from './api-limits.js';
import { readOpenTelemetry } from './open-telemetry.js';
import { resolveBoolExp } from './bool-exp.js';
import { resolveEventTriggers } from './event-triggers.js';
import { resolveComputedFields, resolveFunctions } from './functions.js';
import { Issues, type InconsistentObject } from './issues.js';
import { permissionDefinition, permissionObjectName, sourceObjectName, qualifiedText } from './names.js';
import { bigqueryConnection, bigqueryModel, queriesOnly } from './bigquery.js';
import { buildMutationRoots } from './mutation-roots.js';
import { hasBackendOnly, trustedPermissions } from '../../runtime/bundle/index.js';
import { reportActionClashes } from './action-roots.js';
import { databaseScalars, resolveActions } from './actions.js';
import { resolveInheritedRoles, withInheritedRoles } from './inherited-roles.js';
import { adminMutationPermissions, resolveMutationPermissions } from './permissions.js';
import { resolveRelationships } from './relationships.js';
import { resolveRemoteRelationships } from './remote-relationships.js';
import { namespaceOf, resolveTables } from './tables.js';

/** A stage's value together with the inconsistent objects found on the way. */
export interface Resolved<T> {
  readonly value: T;
  readonly inconsistencies: readonly InconsistentObject[];
}

export interface ResolveOptions {
  readonly engineVersion: string;
  /** Introspection per source name; a source missing here is inconsistent. */
  readonly introspection: { readonly [source: string]: Introspection };
  /** Reuse of earlier resolves' per-role results (the metadata API's compiles); absent: everything is built. */
  readonly reuse?: ResolveReuse;
  /** False: a function exposed as a query is shown only to the roles given a function permission (default true). */
  readonly inferFunctionPermissions?: boolean;
}

/**
 * What a compile keeps from earlier ones: `digest` names a plain-JSON value by its content, `memo`
 * answers what `build` answered for the same key before (or runs it). A role's root fields are a
 * function of the tables, the functions and that role's permissions: keyed by their digests, the
 * roles an edit did not touch keep theirs (issue 19: 1,000 tables × 20 roles).
 */
export interface ResolveReuse {
  digest(value: Json | object): string;
  memo<T>(key: string, build: () => T): T;
}

type SelectMap = Record<string, Record<string, SelectPermissionModel>>;
type MutationMap = Record<string, Record<string, TableMutationPermissions>>;

/** Joins metadata with the catalog into the immutable model the schema and SQL stages read. */
export function resolveModel(md: Metadata, opts: ResolveOptions): Resolved<BundleModel> {
  const issues = new Issues();
  const tables = new Map<string, TableModel>();
  const functions: FunctionModel[] = [];
  const select: SelectMap = { admin: {} };
  const mutations: MutationMap = { admin: {} };
  const sources: SourceModel[] = [];
  const roleSet = new Set<string>(['admin']);
  const rootLimits: RootLimits = new Map();
  for (const given of md.sources) {
    const source = queriesOnly(given, issues);
    const db = opts.introspection[source.name];
    if (!db) {
      issues.add({ type: 'source', name: sourceObjectName(source.name), definition: source as unknown as Json, reason: `Inconsistent object: could not read the catalog of source "${source.name}"` });
      continue;
    }
    const ns = namespaceOf(source);
    const replicas = readReplicas(source);
    // An MSSQL source's pool settings are applied by the runtime (a PostgreSQL source's pool is sized by SVC_GRAPHQL_PG_CONNECTIONS).
    const pool = source.kind === 'mssql' ? sourcePool(source) : null;
    sources.push({ name: source.name, ...(ns ? { namespace: ns } : {}), dialect: source.kind === 'mssql' || source.kind === 'bigquery' ? source.kind : 'postgres', databaseUrl: databaseUrl(source),
      ...(replicas.length > 0 ? { readReplicas: replicas } : {}), ...bigquerySource(source, issues), ...(pool && Object.keys(pool).length > 0 ? { pool } : {}) });
    resolveSource(source, db, tables, select, mutations, roleSet, functions, issues, rootLimits, opts.inferFunctionPermissions ?? true);
  }
  resolveRemoteRelationships(md, tables, issues);
  resolveInheritedRoles(md, tables, select, mutations, roleSet, issues);
  // A function a role must be granted may be called by an inherited role when a parent may call it.
  for (const [i, f] of functions.entries()) {
    if (f.mutation) functions[i] = { ...f, mutation: { roles: withInheritedRoles(f.mutation.roles, md.inherited_roles) } };
    else if (f.queryRoles) functions[i] = { ...f, queryRoles: withInheritedRoles(f.queryRoles, md.inherited_roles) };
  }
  // Custom types and actions (issue 18): they read the tracked tables and add the roles granted an action.
  const actions = resolveActions(md, tables, databaseScalars(columnScalars(opts.introspection)), roleSet, issues);
  const roles = [...roleSet].sort();
  for (const role of roles) { select[role] ??= {}; mutations[role] ??= {}; }
  // The model's maps, sorted by key (what the roots read is the same either way: lookups by table).
  const sortedSelect = Object.fromEntries(roles.map((r) => [r, sortKeys(select[r]!)]));
  const sortedMutations = Object.fromEntries(roles.map((r) => [r, sortKeys(mutations[r]!)]));
  const rolesRoots = (r: string, into: Issues): RoleRoots => ({
    ...buildRoots(r, tables, sortedSelect[r]!, functions, into, rootLimits),
    mutation: buildMutationRoots(r, tables, sortedMutations[r]!, sortedSelect[r]!, into, functions),
    // A trusted backend request's mutation_root (runtime/bundle/backend-only.ts): its clashes are
    // those of the client's root plus the backend_only fields', reported by the client's already.
    ...(hasBackendOnly(sortedMutations[r]) ? { backendOnlyMutation:
      buildMutationRoots(r, tables, trustedPermissions(sortedMutations[r]!), sortedSelect[r]!, new Issues(), functions) } : {}),
  });
  const reuse = opts.reuse;
  // Each table's entry is digested on its own (the same objects go on into the model and are not digested again).
  const shared = reuse ? reuse.digest([[...tables.values()].map((t) => reuse.digest(t)), functions] as unknown as Json) : '';
  const roots = Object.fromEntries(roles.map((r): [string, RoleRoots] => {
    if (!reuse) return [r, rolesRoots(r, issues)];
    const limits = [...rootLimits].filter(([k]) => k.startsWith(`${r}\u0000`));
    const key = `roots\u0000${shared}\u0000${r}\u0000${reuse.digest(sortedSelect[r]!)}\u0000${reuse.digest(sortedMutations[r]!)}\u0000${JSON.stringify(limits)}`;
    // The issues a role's roots raise come back with them, in the order they were raised.
    const made = reuse.memo(key, () => {
      const own = new Issues();
      return { roots: rolesRoots(r, own), issues: own.list() };
    });
    issues.addListed(made.issues);
    return [r, made.roots];
  }));
  reportActionClashes(md.actions, roots['admin'], issues);
  const sortedTables = Object.fromEntries([...tables.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  const model: BundleModel = {
    engineVersion: opts.engineVersion, sources, roles, tables: sortedTables, roots,
    select: sortedSelect,
    functions: Object.fromEntries(functions.map((f) => [f.id, f])),
    mutations: sortedMutations,
    options: { stringifyNumeric: false },
    ...requestLimits(md),
    ...(actions ? { actions } : {}),
  };
  return { value: bigqueryModel(model), inconsistencies: issues.list() };
}

function bigquerySource(source: Source, issues: Issues): { bigquery?: BigQueryConnection } {
  if (source.kind !== 'bigquery') return {};
  const c = bigqueryConnection(source, issues);
  return c ? { bigquery: c } : {};
}

function resolveSource(source: Source, db: Introspection, tables: Map<string, TableModel>, select: SelectMap, mutations: MutationMap,
  roles: Set<string>, functions: FunctionModel[], issues: Issues, rootLimits: RootLimits, inferFunctionPermissions: boolean): void {
  const drafts = resolveTables(source, db, issues);
  const rels = resolveRelationships(source.name, drafts, issues);
  for (const d of drafts) tables.set(d.model.id, { ...d.model, relationships: rels.get(d.model.id) ?? [] });
  for (const d of drafts) {
    const t = tables.get(d.model.id)!;
    tables.set(t.id, { ...t, computedFields: resolveComputedFields(source.name, d.entry, t, db, tables, issues) });
    const eventTriggers = resolveEventTriggers(source.name, d.entry, t, issues);
    if (eventTriggers.length > 0) tables.set(t.id, { ...tables.get(t.id)!, eventTriggers });
  }
  const ctx = { tables, source: source.name };
  for (const d of drafts) {
    const t = tables.get(d.model.id)!;
    select.admin![t.id] = { columns: t.columns.map((c) => c.name), computedFields: t.computedFields.map((c) => c.name),
      filter: { kind: 'true' }, limit: null, allowAggregations: true };
    for (const kind of ['insert_permissions', 'update_permissions', 'delete_permissions'] as const) {
      for (const p of d.entry[kind] ?? []) roles.add(p.role);
    }
    mutations.admin![t.id] = adminMutationPermissions(t, d.db);
    for (const [role, perms] of resolveMutationPermissions(source.name, d.entry, t, d.db, ctx, issues)) (mutations[role] ??= {})[t.id] = perms;
    for (const p of d.entry.select_permissions ?? []) {
      roles.add(p.role);
      const perm = p.permission;
      const fail = (reason: string): void => issues.add({ type: 'select_permission', name: permissionObjectName('select', p.role, source.name, d.entry.table),
        definition: permissionDefinition('select', source.name, d.entry.table, p), reason: `in table ${JSON.stringify(qualifiedText(d.entry.table))}: in permission for role ${JSON.stringify(p.role)}: ${reason}` });
      const cols = perm.columns === '*' ? t.columns.map((c) => c.name) : [...perm.columns];
      const missing = cols.find((c) => !t.columns.some((x) => x.name === c));
      if (missing) { fail(`no such column exists: "${missing}"`); continue; }
      const missingCf = (perm.computed_fields ?? []).find((c) => !t.computedFields.some((x) => x.name === c));
      if (missingCf) { fail(`computed field "${missingCf}" does not exist`); continue; }
      const tableCf = t.computedFields.find((c) => c.returns.kind === 'table' && perm.computed_fields?.includes(c.name));
      if (tableCf && tableCf.returns.kind === 'table') {
        const returning = tables.get(tableCf.returns.table);
        fail(`select permissions on computed field "${tableCf.name}" are auto-derived from the permissions on its returning table "${returning?.name ?? ''}" and cannot be specified manually`);
        continue;
      }
      const filter = resolveBoolExp(perm.filter as Json | undefined, t, ctx);
      if (typeof filter === 'string') { fail(filter); continue; }
      (select[p.role] ??= {})[t.id] = {
        columns: t.columns.filter((c) => cols.includes(c.name)).map((c) => c.name),
        computedFields: t.computedFields.filter((c) => perm.computed_fields?.includes(c.name)).map((c) => c.name),
        filter, limit: perm.limit ?? null, allowAggregations: perm.allow_aggregations === true,
      };
      if (perm.query_root_fields || perm.subscription_root_fields) {
        rootLimits.set(`${p.role}\u0000${t.id}`, { query: perm.query_root_fields ?? null, subscription: perm.subscription_root_fields ?? null });
      }
    }
  }
  functions.push(...resolveFunctions(source, db, tables, issues, inferFunctionPermissions));
}

// query_root_fields / subscription_root_fields of select permissions, keyed by role and table.
type RootLimits = Map<string, { query: readonly string[] | null; subscription: readonly string[] | null }>;

function buildRoots(role: string, tables: ReadonlyMap<string, TableModel>, perms: Record<string, SelectPermissionModel>,
  functions: readonly FunctionModel[], issues: Issues, rootLimits: RootLimits): RoleRoots {
  const query: Record<string, RootField> = {};
  const subscription: Record<string, RootField> = {};
  const stream: Record<string, TableModel['id']> = {};
  const reported = new Set<string>();
  const add = (root: Record<string, RootField>, name: string, field: RootField): void => {
    if (root[name]) {
      // The subscription root mirrors the query root: one report per name.
      if (reported.has(name)) return;
      reported.add(name);
      issues.add({ type: 'root_field', name, definition: { role, field: name }, reason: `found duplicate fields in selection set: ${name}` });
      return;
    }
    root[name] = field;
  };
  for (const t of tables.values()) {
    const perm = perms[t.id];
    if (!perm) continue;
    const limits = rootLimits.get(`${role}\u0000${t.id}`);
    const pkVisible = t.primaryKey.length > 0 && t.primaryKey.every((c) => perm.columns.includes(c));
    const kinds: [string, RootField['kind'], boolean][] = [
      ['select', 'select', true], ['select_by_pk', 'select_by_pk', pkVisible], ['select_aggregate', 'select_aggregate', perm.allowAggregations],
    ];
    for (const [key, kind, ok] of kinds) {
      if (!ok) continue;
      const field = { kind, table: t.id } as RootField;
      if (!limits?.query || limits.query.includes(key)) add(query, t.rootFieldNames[key]!, field);
      if (!limits?.subscription || limits.subscription.includes(key)) add(subscription, t.rootFieldNames[key]!, field);
    }
    // `<t>_stream` (subscriptions only); served as a query of `<t>`, so it needs that query field.
    const streamName = t.rootFieldNames['select_stream'];
    const selectName = t.rootFieldNames['select']!;
    // Streaming is served through the select field at the top of query_root: not under a namespace.
    if (streamName && !streamName.includes('.') && query[selectName] && (!limits?.subscription || limits.subscription.includes('select_stream'))) {
      if (subscription[streamName] || stream[streamName]) {
        issues.add({ type: 'root_field', name: streamName, definition: { role, field: streamName, root: 'subscription' }, reason: `found duplicate fields in selection set: ${streamName}` });
      } else stream[streamName] = t.id;
    }
  }
  for (const f of functions) {
    const perm = perms[f.returns];
    // A function exposed as a mutation is a field of mutation_root (mutation-roots.ts).
    if (!perm || f.mutation) continue;
    if (f.queryRoles && role !== 'admin' && !f.queryRoles.includes(role)) continue;
    add(query, f.field, { kind: 'function', function: f.id, table: f.returns });
    add(subscription, f.field, { kind: 'function', function: f.id, table: f.returns });
    if (perm.allowAggregations) {
      add(query, f.aggregateField, { kind: 'function_aggregate', function: f.id, table: f.returns });
      add(subscription, f.aggregateField, { kind: 'function_aggregate', function: f.id, table: f.returns });
    }
  }
  return { query: sortKeys(query), subscription: sortKeys(subscription), stream: sortKeys(stream) };
}

// The API limits and introspection options a served bundle enforces (absent when none are set).
function requestLimits(md: Metadata): Pick<BundleModel, 'apiLimits' | 'introspectionDisabledFor' | 'openTelemetry'> {
  const apiLimits = readApiLimits(md.api_limits, ['api_limits']);
  const noIntrospection = introspectionDisabledRoles(md.graphql_schema_introspection);
  const openTelemetry = readOpenTelemetry(md.opentelemetry, ['opentelemetry']);
  return { ...(apiLimits ? { apiLimits } : {}), ...(noIntrospection.length ? { introspectionDisabledFor: noIntrospection } : {}),
    ...(openTelemetry ? { openTelemetry } : {}) };
}

// Every column type of every catalog (and its GraphQL name): the database scalars custom types may reuse.
function columnScalars(dbs: { readonly [source: string]: Introspection }): string[] {
  return Object.values(dbs).flatMap((db) => db.tables.flatMap((t) => t.columns.map((c) => c.type)));
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
