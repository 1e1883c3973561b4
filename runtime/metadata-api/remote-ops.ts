// What the metadata API does for remote schemas besides editing the document: introspect a remote
// an edit adds or changes (refusing the edit when it cannot be read, as Hasura does), and
// reload_remote_schema, which introspects again without changing the document.

import type { Json } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { remoteDefinitions, remoteView } from '../remote/index.js';
import type { ApiContext } from './context.js';
import type { Envelope } from './envelope.js';
import { SUCCESS, type Work } from './state.js';

const nameOf = (args: Json): string | null => {
  const n = args !== null && typeof args === 'object' && !Array.isArray(args) ? args['name'] : null;
  return typeof n === 'string' ? n : null;
};

/**
 * Introspects the remotes of the edited document that have no introspection for their definition
 * yet. add_remote_schema, and update_remote_schema changing the URL, fail with
 * `remote-schema-error` when their remote cannot be read or is not a valid schema, as Hasura's
 * fetchRemoteSchema does; an update keeping the URL is judged as the rebuilt schema cache judges it
 * (runUpdateRemoteSchema): the remote an inconsistent object, the edit refused with its reason.
 * The document is then left as it was.
 */
export async function introspectEditedRemotes(cx: ApiContext, env: Envelope, metadata: Json, before: Json): Promise<void> {
  if (env.type === 'add_remote_schema_permissions' && cx.opts.remoteSchemaPermissions !== true) {
    throw new ApiError('constraint-violation', 'remote schema permissions can only be added when remote schema permissions are enabled in the graphql-engine', 400, ['args']);
  }
  // Adding or updating a remote always reads it afresh (the remote may have changed since it was last read).
  const name = env.type === 'add_remote_schema' || env.type === 'update_remote_schema' ? nameOf(env.args) : null;
  const fetched = await cx.sources.remotes.refresh(metadata, name === null ? false : new Set([name]));
  const snap = name === null ? undefined : fetched.get(name);
  if (snap?.kind !== 'failed') return;
  if (env.type === 'update_remote_schema' && sameUrl(before, metadata, name!)) return;
  throw new ApiError('remote-schema-error', snap.reason, 400, ['args']);
}

// Whether a remote's `url` (or `url_from_env`) is the same in both documents.
function sameUrl(before: Json, after: Json, name: string): boolean {
  const url = (md: Json, key: 'url' | 'url_from_env'): unknown => {
    const list = md !== null && typeof md === 'object' && !Array.isArray(md) ? md['remote_schemas'] : null;
    const rs = Array.isArray(list) ? list.find((r) => r !== null && typeof r === 'object' && !Array.isArray(r) && r['name'] === name) : undefined;
    const def = rs !== null && typeof rs === 'object' && !Array.isArray(rs) ? rs['definition'] : undefined;
    return def !== null && typeof def === 'object' && !Array.isArray(def) ? def[key] : undefined;
  };
  return (['url', 'url_from_env'] as const).some((k) => url(before, k) !== undefined && url(before, k) === url(after, k));
}

/** reload_remote_schema: the remote introspected again and the schema rebuilt; a remote still down stays inconsistent. */
export async function reloadRemoteSchema(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  // The compiler's edit checks the args and that the remote exists; it changes nothing.
  cx.opts.compiler.apply(work.metadata, { type: env.type, args: env.args, api: work.api }, { introspection: work.introspection });
  const name = nameOf(env.args)!;
  await cx.sources.remotes.refresh(work.metadata, new Set([name]));
  work.compiled = await cx.sources.compile(work.metadata, work.introspection);
  return SUCCESS;
}

// The table a track operation names, as `{schema, name}` (null: none, or not a Postgres track).
function trackedTable(env: Envelope): { schema: string; name: string } | null {
  if (env.type !== 'track_table' && env.type !== 'pg_track_table' && env.type !== 'add_existing_table_or_view') return null;
  const args = env.args !== null && typeof env.args === 'object' && !Array.isArray(env.args) ? env.args : null;
  if (args === null) return null;
  const t = 'table' in args ? args['table'] : args;
  if (typeof t === 'string') return { schema: 'public', name: t };
  if (t === null || typeof t !== 'object' || Array.isArray(t) || typeof t['name'] !== 'string') return null;
  return { schema: typeof t['schema'] === 'string' ? t['schema'] : 'public', name: t['name'] };
}

/**
 * Hasura's checkConflictingNode (RQL/DDL/Schema/Table.hs): a table is not tracked when its
 * snake-cased name (`name`, or `schema_name` outside public) is already a field of query_root as an
 * unauthenticated request sees it, which holds the remote schemas' root fields unless remote
 * schema permissions are on: 400 remote-schema-conflicts "node <name> already exists in current
 * graphql schema".
 */
export function checkConflictingNode(cx: ApiContext, env: Envelope, metadata: Json): void {
  const table = trackedTable(env);
  if (table === null || cx.opts.remoteSchemaPermissions === true) return;
  const node = table.schema === 'public' ? table.name : `${table.schema}_${table.name}`;
  for (const def of remoteDefinitions(metadata)) {
    const snap = cx.sources.remotes.get(def);
    if (snap?.kind !== 'ok') continue;
    if (remoteView(def, snap.schema).roots.query.some((f) => f.name.value === node)) {
      throw new ApiError('remote-schema-conflicts', `node ${node} already exists in current graphql schema`, 400, ['args']);
    }
  }
}
