// The remote schemas of a served bundle (or of a model compiled in process): each remote's schema
// as compiled, stitched into the roles' schemas as the catalog server stitches them. Remote schema
// permissions apply when SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS=true, as for the catalog.

import type { BundleModel } from '../bundle/index.js';
import { bundledIntrospections, serveRemotes, type RemoteServing } from '../remote/index.js';
import type { Log } from './settings.js';

const EMPTY_ROLE_SDL = 'type query_root { no_queries_available: String! } schema { query: query_root }';

/**
 * The remotes a model serves (null: it has none). A remote that does not fit (no stored schema, a
 * clash, a relationship or permission that no longer matches) is left out with a warning, and the
 * rest serves, as an inconsistent object would in the catalog server.
 */
export function servedRemotes(model: BundleModel, adminSdl: () => string | undefined, remoteSdl: { readonly [name: string]: string }, log: Log): RemoteServing | null {
  const hasRelationships = Object.values(model.tables).some((t) => (t.remoteRelationships?.length ?? 0) > 0);
  if (model.remoteSchemas === undefined && !hasRelationships) return null;
  const definitions = model.remoteSchemas ?? [];
  const permissions = process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS === 'true';
  const { serving, inconsistencies } = serveRemotes({ remote_schemas: definitions }, bundledIntrospections(definitions, remoteSdl),
    adminSdl() ?? EMPTY_ROLE_SDL, model, permissions);
  for (const i of inconsistencies) log(`warning: inconsistent ${i.name}: ${i.reason}`);
  if (serving.views.length > 0) log(`remote schemas: ${serving.views.map((v) => v.def.name).join(', ')}${permissions ? ' (remote schema permissions on)' : ''}`);
  return serving;
}
