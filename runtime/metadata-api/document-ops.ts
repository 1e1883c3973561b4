// The operations on the whole document: replace_metadata, reload_metadata and
// drop_inconsistent_metadata.

import type { Json } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { ApiContext } from './context.js';
import type { Envelope } from './envelope.js';
import { runtimeArgKeyProblem } from './arg-keys.js';
import { SUCCESS, type Work } from './state.js';

/** replace_metadata: the new document, compiled whole; inconsistent only when the wrapped form allows it. */
export async function replaceMetadata(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  const { compiler } = cx.opts;
  const args = env.args;
  const o = typeof args === 'object' && args !== null && !Array.isArray(args) ? args as Record<string, Json> : null;
  const wrapped = env.version === 2 || (env.version === undefined && o !== null && 'metadata' in o && !('sources' in o) && !('tables' in o) && !('version' in o));
  const problem = runtimeArgKeyProblem(env.type, args, 'metadata', wrapped);
  if (problem) throw problem;
  const allowInconsistent = wrapped && o?.['allow_inconsistent_metadata'] === true;
  const raw = wrapped ? o?.['metadata'] : args;
  const parsed = compiler.parse(raw);
  if (parsed.value === null) {
    const first = parsed.errors[0] ?? new ApiError('parse-failed', 'the metadata could not be read');
    throw first.at(...(wrapped ? ['args', 'metadata'] : ['args']));
  }
  const refused = compiler.refusal(parsed.value);
  if (refused) throw refused;
  await cx.sources.connectSources(work, parsed.value);
  for (const s of compiler.sources(parsed.value)) {
    if (!(s.name in work.introspection) || work.introspection[s.name] === null) await cx.sources.introspectSource(work, s.name);
  }
  await cx.sources.remotes.refresh(parsed.value);
  const compiled = await cx.sources.compile(parsed.value, work.introspection);
  // Every inconsistency blocks a replace that does not allow them, an inherited role's disagreeing
  // parents included (Hasura's buildSchemaCacheStrict); an edit is judged on new objects only (judge.ts).
  if (compiled.inconsistencies.length > 0 && !allowInconsistent) {
    throw new ApiError('unexpected', 'cannot continue due to inconsistent metadata', 400, ['args'], compiled.inconsistencies);
  }
  work.metadata = compiler.keptOnReplace(work.metadata, parsed.value);
  work.compiled = work.metadata === parsed.value ? compiled : await cx.sources.compile(work.metadata, work.introspection);
  work.changed = true;
  await cx.sources.dropUnusedSources(work);
  if (!wrapped) return SUCCESS;
  return { is_consistent: compiled.inconsistencies.length === 0, inconsistent_objects: compiled.inconsistencies as unknown as Json };
}

/** reload_metadata: the catalogs read again (all, or the sources named), the document compiled against them. */
export async function reloadMetadata(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  const args = (typeof env.args === 'object' && env.args !== null && !Array.isArray(env.args) ? env.args : {}) as Record<string, Json>;
  const which = args['reload_sources'];
  const names = cx.opts.compiler.sources(work.metadata).map((s) => s.name)
    .filter((n) => which === undefined || which === true || (Array.isArray(which) && which.includes(n)));
  await cx.sources.connectSources(work, work.metadata);
  for (const name of names) await cx.sources.introspectSource(work, name);
  // reload_remote_schemas: true (the default), false, or the names of the remotes to introspect again.
  const remotes = args['reload_remote_schemas'];
  await cx.sources.remotes.refresh(work.metadata, remotes === false ? false : Array.isArray(remotes) ? new Set(remotes.filter((x): x is string => typeof x === 'string')) : true);
  work.compiled = await cx.sources.compile(work.metadata, work.introspection);
  if (args['recreate_event_triggers'] === true) work.recreateEventTriggers = true;
  const inconsistent = work.compiled.inconsistencies;
  if (inconsistent.length === 0) return { is_consistent: true, message: 'success' };
  return { is_consistent: false, message: 'success', inconsistent_objects: inconsistent as unknown as Json };
}

/** drop_inconsistent_metadata: the document without what does not fit the databases. */
export async function dropInconsistentMetadata(cx: ApiContext, work: Work): Promise<Json> {
  if (work.compiled.inconsistencies.length === 0) return SUCCESS;
  work.metadata = cx.opts.compiler.dropObjects(work.metadata, work.compiled.inconsistencies);
  work.compiled = await cx.sources.compile(work.metadata, work.introspection);
  work.changed = true;
  await cx.sources.dropUnusedSources(work);
  return SUCCESS;
}
