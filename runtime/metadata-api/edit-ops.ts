// Applying one operation inside a change: `bulk` applies its steps in order, each family goes to
// its own file, and everything else is an edit of the document by the compiler, judged for what
// it made inconsistent.

import { runtimeArgKeyProblem } from './arg-keys.js';
import type { Json } from '../bundle/index.js';
import { ApiError, type JsonPath } from '../errors/index.js';
import type { ApiContext } from './context.js';
import type { ExtensionContext, OperationRequest } from './contract.js';
import { dropInconsistentMetadata, reloadMetadata, replaceMetadata } from './document-ops.js';
import { bulkElements } from './bulk-elements.js';
import type { Envelope } from './envelope.js';
import { laterRefusal } from './later-operations.js';
import { clearDroppedActionLog } from './action-log.js';
import { judgeEdit } from './judge.js';
import { checkConflictingNode, introspectEditedRemotes, reloadRemoteSchema } from './remote-ops.js';
import { readAnswer } from './read-ops.js';
import { parseRunSqlArgs } from './run-sql.js';
import { runSqlInChange } from './run-sql-change.js';
import { renameSource, sourceOfArgs } from './sources.js';
import type { Runner, Work } from './state.js';
import { runV1Data } from './v1-data.js';
import { unknownOperation } from './unknown-operation.js';

/** Applies `env` to `work`; an error's path is prefixed with `at` (its place in a bulk). */
export async function applyOperation(cx: ApiContext, env: Envelope, work: Work, at: JsonPath): Promise<Json> {
  try {
    return await applyOne(cx, env, work);
  } catch (e) {
    throw e instanceof ApiError ? e.at(...at) : e;
  }
}

async function applyOne(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  // replace_metadata checks its own keys once it knows whether its args wrap the document.
  const problem = env.type === 'replace_metadata' ? undefined : runtimeArgKeyProblem(env.type, env.args, env.api);
  if (problem) throw problem;
  switch (env.type) {
    case 'bulk':
      return applyBulk(cx, env, work);
    case 'run_sql':
      return runSqlInChange(cx, work, parseRunSqlArgs(env.args, ['args']));
    case 'insert': case 'select': case 'count': case 'update': case 'delete': {
      const source = sourceOfArgs(env.args);
      // A write whose check fails must leave nothing: on another source it runs in a transaction of its own.
      const runner = cx.sources.runnerOf(work, source);
      const run = (r: Runner): Promise<Json> => runV1Data(env.type, env.args, ['args'], { model: work.compiled.model, runner: r, source, session: work.session });
      return runner === work.tx ? run(runner) : cx.sources.driverOf(work.drivers, source).transaction(run);
    }
    case 'export_metadata': case 'get_inconsistent_metadata': case 'dump_internal_state': case 'test_webhook_transform':
      return readAnswer(cx.opts.compiler, env, work.metadata, cx.served().resourceVersion, work.compiled)!;
    // Hasura writes the metadata (a new resource version) after these even when nothing changed.
    case 'replace_metadata':
      work.modified = true;
      return replaceMetadata(cx, env, work);
    case 'reload_metadata':
      work.modified = true;
      return reloadMetadata(cx, env, work);
    case 'drop_inconsistent_metadata':
      work.modified = true;
      return dropInconsistentMetadata(cx, work);
    case 'reload_remote_schema':
      work.modified = true;
      return reloadRemoteSchema(cx, env, work);
    default:
      return applyEdit(cx, env, work);
  }
}

async function applyBulk(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  const elements = bulkElements(cx, env);
  const out: Json[] = [];
  for (const [i, inner] of elements.entries()) out.push(await applyOperation(cx, inner, work, ['args', i]));
  return out;
}

/** An extension's operation, or an edit of the document by the compiler. */
async function applyEdit(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  const { compiler } = cx.opts;
  const ext = cx.extensionFor(env.type, work.api);
  if (ext) {
    const ctx: ExtensionContext = {
      metadata: work.metadata, compiled: work.compiled, catalog: work.tx, api: work.api, session: work.session,
      runnerOf: (source) => cx.sources.runnerOf(work, source),
    };
    return ext.run(env.type, env.args, ctx);
  }
  const later = laterRefusal(env.type);
  if (later) throw later;
  if (!compiler.knows(env.type, work.api)) throw unknownOperation(env.type, work.api);
  const op: OperationRequest = { type: env.type, args: env.args, api: work.api, ...(env.version !== undefined ? { version: env.version } : {}) };
  const applied = compiler.apply(work.metadata, op, { introspection: work.introspection });
  if (applied.metadata !== null) checkConflictingNode(cx, env, work.metadata);
  work.modified = true;
  if (applied.metadata === null) return applied.result;
  if (env.type === 'rename_source') renameSource(work, env.args);
  if (env.type === 'drop_action') await clearDroppedActionLog(work.tx, env.args);
  await cx.sources.connectSources(work, applied.metadata);
  await introspectEditedRemotes(cx, env, applied.metadata, work.metadata);
  const judged = await judgeEdit(compiler, work.compiled.inconsistencies, applied.metadata, applied.effect,
    (md) => cx.sources.compile(md, work.introspection));
  work.metadata = judged.metadata;
  work.compiled = judged.compiled;
  work.changed = true;
  await cx.sources.dropUnusedSources(work);
  return applied.result;
}
