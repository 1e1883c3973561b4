// The operations that only read: export_metadata, get_inconsistent_metadata, dump_internal_state,
// test_webhook_transform, the v1 `select`/`count`, a read-only run_sql and the read-only
// operations of extensions. They run on what is served, outside the change queue.

import { accessModeOf } from './access-mode.js';
import { runtimeArgKeyProblem } from './arg-keys.js';
import type { Json, Session } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { ApiContext } from './context.js';
import type { Compiled, ExtensionContext, MetadataCompiler } from './contract.js';
import { bulkElements } from './bulk-elements.js';
import type { Envelope } from './envelope.js';
import { parseRunSqlArgs, runSql } from './run-sql.js';
import { sourceOfArgs } from './sources.js';
import { recordSession, runV1Data } from './v1-data.js';
import { testWebhookTransform } from './webhook-transform.js';

/** Operations the runtime runs itself; everything else is a compiler edit. */
export const READ_ONLY = new Set(['export_metadata', 'get_inconsistent_metadata', 'dump_internal_state', 'select', 'count', 'test_webhook_transform']);
/** The v1 data operations (a role may run them, under its permissions). */
export const V1_DATA = new Set(['insert', 'select', 'count', 'update', 'delete']);
/** What /v2/query takes: the data operations, run_sql and bulk. */
export const V2_QUERY = new Set([...V1_DATA, 'run_sql', 'bulk']);

/** True when the operation reads only (so it needs neither the catalog lock nor a new version). */
export function isReadOnly(cx: ApiContext, env: Envelope): boolean {
  if (READ_ONLY.has(env.type)) return true;
  const ext = cx.extensionFor(env.type, env.api);
  if (ext) return ext.readOnly(env.type);
  if (env.type === 'run_sql') {
    const args = env.args as { read_only?: unknown } | null;
    return typeof args === 'object' && args !== null && args.read_only === true;
  }
  // A /v1/query bulk of reads only (select, count, read-only run_sql) is served READ ONLY, as Hasura
  // serves a call that forces no mode (`fromMaybe ReadOnly`); one whose elements disagree is refused
  // by the caller (access-mode.ts).
  if (env.type === 'bulk' && env.api === 'query') {
    try {
      return accessModeOf(env.type, env.args) !== 'READ WRITE';
    } catch {
      return false;
    }
  }
  return false;
}

/** True when the operation edits the document (so the catalogs are read again first). */
export function changesMetadata(cx: ApiContext, env: Envelope): boolean {
  const edits = (t: string): boolean => t !== 'run_sql' && !V1_DATA.has(t) && !READ_ONLY.has(t) && !cx.extensionFor(t, env.api);
  if (env.type === 'bulk') return Array.isArray(env.args) && env.args.some((a) => {
    const t = (a as { type?: unknown } | null)?.type;
    return typeof t === 'string' && edits(t);
  });
  return edits(env.type);
}

/** Runs a read-only operation on what is served. */
export async function runRead(cx: ApiContext, env: Envelope, session: Session): Promise<Json> {
  const problem = runtimeArgKeyProblem(env.type, env.args, env.api);
  if (problem) throw problem;
  const s = cx.served();
  const answer = readAnswer(cx.opts.compiler, env, s.metadata, s.resourceVersion, s.compiled);
  if (answer !== undefined) return answer;
  const ext = cx.extensionFor(env.type, env.api);
  if (ext) {
    const ctx: ExtensionContext = {
      metadata: s.metadata, compiled: s.compiled, catalog: cx.opts.catalog, api: env.api, session,
      runnerOf: (source) => cx.sources.driverOf(s.drivers, source),
    };
    return ext.run(env.type, env.args, ctx);
  }
  switch (env.type) {
    case 'bulk':
      return runReadBulk(cx, env, session);
    case 'run_sql': {
      const args = parseRunSqlArgs(env.args, ['args']);
      const driver = cx.sources.driverOf(s.drivers, args.source);
      return driver.transaction(async (tx) => {
        if (driver.dialect.name === 'postgres') await recordSession(tx, driver.dialect, session);
        return runSql(tx, args);
      }, { readOnly: true });
    }
    default: {
      const source = sourceOfArgs(env.args);
      const driver = cx.sources.driverOf(s.drivers, source);
      return runV1Data(env.type, env.args, ['args'], { model: s.compiled.model, runner: driver, source, session });
    }
  }
}

// Each element reads in a transaction of its own (Hasura reads a read-only bulk in one); none writes.
async function runReadBulk(cx: ApiContext, env: Envelope, session: Session): Promise<Json> {
  const out: Json[] = [];
  for (const [i, element] of bulkElements(cx, env).entries()) {
    try {
      out.push(await runRead(cx, element, session));
    } catch (e) {
      throw e instanceof ApiError ? e.at('args', i) : e;
    }
  }
  return out;
}

/** The answers of the operations that only read the document (in a bulk: as edited so far); undefined for others. */
export function readAnswer(compiler: MetadataCompiler, env: Envelope, metadata: Json, resourceVersion: number, compiled: Compiled): Json | undefined {
  switch (env.type) {
    case 'export_metadata': {
      const shown = compiler.exported(metadata);
      return env.version === 2 ? { resource_version: resourceVersion, metadata: shown } : shown;
    }
    case 'get_inconsistent_metadata': {
      const objects = compiled.inconsistencies as unknown as Json;
      return env.api === 'query' ? objects : { is_consistent: compiled.inconsistencies.length === 0, inconsistent_objects: objects };
    }
    case 'dump_internal_state':
      return internalState(compiler, metadata, resourceVersion, compiled);
    case 'test_webhook_transform':
      return testWebhookTransform(env.args, ['args'], process.env);
    default:
      return undefined;
  }
}

/**
 * What the server holds for the metadata it serves (Hasura's debugging dump_internal_state, which
 * shows its schema cache): the document and its resource version, the inconsistent objects, and
 * per source its tables and functions with the roles that may read each table. Admin only, like
 * every metadata call; nothing in it is more than the document itself says.
 */
function internalState(compiler: MetadataCompiler, metadata: Json, resourceVersion: number, compiled: Compiled): Json {
  const model = compiled.model;
  const readers = (id: string): string[] => model.roles.filter((r) => model.select[r]?.[id] !== undefined);
  const sources: Json[] = model.sources.map((src) => ({
    name: src.name,
    kind: src.dialect,
    tables: Object.values(model.tables).filter((t) => t.source === src.name)
      .map((t) => ({ table: { schema: t.schema, name: t.name }, select_roles: readers(t.id) })),
    functions: Object.values(model.functions).filter((f) => f.source === src.name)
      .map((f) => ({ schema: f.schema, name: f.name })),
  }));
  return {
    resource_version: resourceVersion,
    metadata: compiler.exported(metadata),
    inconsistent_objects: compiled.inconsistencies as unknown as Json,
    roles: [...model.roles],
    sources,
  };
}
