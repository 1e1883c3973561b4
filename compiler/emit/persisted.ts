// Persisted queries (DESIGN.md "The bundle"): every query of every collection compiled whole for
// each role that may run it, written as persisted/<role>/<collection>/<query>.sql and carried in
// the model, with the allow-list and the REST endpoints the runtime serves from them.

import { createHash } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import type { AllowlistEntryModel, BundleModel, Json, PersistedModel, PersistedQueryModel, RestEndpointModel,
  StatementModel, StoredPlanModel } from '../../runtime/bundle/index.js';
import type { CompiledSql } from '../../runtime/sql/index.js';
import type { Metadata } from '../metadata/index.js';
import { compileStoredQuery, formatSql, paramHeader } from '../sql/index.js';

/** A manifest entry: which roles have a compiled plan of the query, and its allow-list key. */
export interface PersistedManifestEntry {
  readonly collection: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly sha256: string | null;
}

export interface CompiledPersisted {
  /** Null when the metadata has no collection, allow-list entry or REST endpoint. */
  readonly persisted: PersistedModel | null;
  /** persisted/<role>/<collection>/<query>.sql -> content. */
  readonly files: ReadonlyMap<string, string>;
  readonly manifest: readonly PersistedManifestEntry[];
}

type Obj = { readonly [k: string]: Json | undefined };
const obj = (v: Json | undefined): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : {});
const list = (v: Json | undefined): readonly Json[] => (Array.isArray(v) ? v : []);
const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);
const byKey = <T>(key: (x: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** Compiles the metadata's query collections against the model and each role's schema. */
export function compilePersisted(md: Metadata, model: BundleModel, schemas: { readonly [role: string]: GraphQLSchema }): CompiledPersisted {
  const allowlist = readAllowlist(md);
  const restEndpoints = readEndpoints(md);
  const queries: PersistedQueryModel[] = [];
  for (const c of list(md.query_collections as Json)) {
    const collection = str(obj(c)['name']);
    if (collection === null) continue;
    // A collection allow-listed for some roles is compiled for those (and admin); any other for every role.
    const scope = allowlist.find((a) => a.collection === collection)?.scope;
    const roles = scope && !scope.global ? model.roles.filter((r) => r === 'admin' || scope.roles.includes(r)) : model.roles;
    for (const q of list(obj(obj(c)['definition'])['queries'])) {
      const name = str(obj(q)['name']);
      const text = str(obj(q)['query']);
      if (name === null || text === null) continue;
      queries.push({ collection, name, ...compileStoredQuery(model, schemas, roles, text) });
    }
  }
  queries.sort(byKey((q) => `${q.collection}\u0000${q.name}`));
  const files = new Map<string, string>();
  for (const q of queries) {
    for (const [role, plan] of Object.entries(q.plans)) files.set(`persisted/${role}/${fileName(q.collection)}/${fileName(q.name)}.sql`, fileText(role, q, plan));
  }
  const manifest = queries.map((q) => ({ collection: q.collection, name: q.name, roles: Object.keys(q.plans).sort(), sha256: q.sha256 }));
  const any = queries.length > 0 || allowlist.length > 0 || restEndpoints.length > 0;
  return { persisted: any ? { dialect: 'postgres', queries, allowlist, restEndpoints } : null, files, manifest };
}

function readAllowlist(md: Metadata): AllowlistEntryModel[] {
  return list(md.allowlist as Json).flatMap((a): AllowlistEntryModel[] => {
    const collection = str(obj(a)['collection']);
    if (collection === null) return [];
    const scope = obj(obj(a)['scope']);
    if (scope['global'] === false) {
      return [{ collection, scope: { global: false, roles: list(scope['roles']).flatMap((r) => (typeof r === 'string' ? [r] : [])) } }];
    }
    return [{ collection, scope: { global: true } }];
  });
}

function readEndpoints(md: Metadata): RestEndpointModel[] {
  return list(md.rest_endpoints as Json).flatMap((e): RestEndpointModel[] => {
    const ref = obj(obj(obj(e)['definition'])['query']);
    const [name, url, collection, query] = [str(obj(e)['name']), str(obj(e)['url']), str(ref['collection_name']), str(ref['query_name'])];
    if (name === null || url === null || collection === null || query === null) return [];
    const methods = list(obj(e)['methods']).flatMap((m) => (typeof m === 'string' ? [m] : []));
    return [{ name, url, methods, collection, query, comment: str(obj(e)['comment']) }];
  }).sort(byKey((e) => e.name));
}

// A name as a path segment: kept when it is plain, else made plain and told apart by a hash.
function fileName(name: string): string {
  if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name)) return name;
  return `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}~${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

// The same header style as sql/<role>/<field>.sql: who runs it, what it is, each parameter.
function fileText(role: string, q: PersistedQueryModel, plan: StoredPlanModel | null): string {
  const head = [`-- role: ${role}`, `-- persisted query: ${q.name} in collection ${q.collection}`, `-- query: ${q.query.replace(/\s+/g, ' ').trim()}`];
  if (plan === null) {
    const why = q.operation === 'subscription' ? '-- a subscription: planned when a client subscribes, multiplexed with the others of its plan'
      : '-- planned per request: the values of its variables shape the statement';
    return `${[...head, why].join('\n')}\n`;
  }
  switch (plan.kind) {
    case 'static': return `${[...head, `-- answered without the database: ${plan.body}`].join('\n')}\n`;
    case 'sql': return statement(head, plan.sql);
    case 'multi': return plan.parts.map((p: StatementModel, i) => statement(i === 0 ? [...head, `-- source: ${p.source}`] : [`-- source: ${p.source}`], p.sql)).join('\n');
    case 'mutation': {
      // A namespace's fields (source customization) count as `<namespace>.<field>`.
      type Field = (typeof plan.fields)[number];
      const statementsOf = (f: Field, prefix: string): { key: string; sql: CompiledSql }[] => (f.kind === 'sql'
        ? f.statements.map((s) => ({ key: `${prefix}${f.key}`, sql: s.sql }))
        : f.kind === 'group' ? f.fields.flatMap((x) => statementsOf(x, `${prefix}${f.key}.`)) : []);
      const statements = plan.fields.flatMap((f) => statementsOf(f, ''));
      const first = [...head, '-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed'];
      if (statements.length === 0) return `${first.join('\n')}\n`;
      return statements.map((s, i) => statement(i === 0 ? [...first, `-- field: ${s.key}`] : [`-- field: ${s.key}`], s.sql)).join('\n');
    }
  }
}

function statement(header: readonly string[], sql: CompiledSql): string {
  return `${[...header, ...paramHeader(sql)].join('\n')}\n${formatSql(sql.text)};\n`;
}
