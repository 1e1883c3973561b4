// Applying one operation inside a change: `bulk` applies its steps in order, each family goes to
// its own file, and everything else is an edit of the document by the compiler, judged for what
// it made inconsistent.

import { runtimeArgKeyProblem } from './arg-keys.js';
import type { Json } from '../bundle/index.js';
import { ApiError, type JsonPath } from '../errors/index.js';
import type { ApiContext } from './context.js';
import type { ApiKind, ExtensionContext, OperationRequest } from './contract.js';
import { dropInconsistentMetadata, reloadMetadata, replaceMetadata } from './document-ops.js';
import { parseEnvelope, type Envelope } from './envelope.js';
import { clearDroppedActionLog } from './action-log.js';
import { judgeEdit } from './judge.js';
import { introspectEditedRemotes, reloadRemoteSchema } from './remote-ops.js';
import { readAnswer } from './read-ops.js';
import { parseRunSqlArgs } from './run-sql.js';
import { runSqlInChange } from './run-sql-change.js';
import { renameSource, sourceOfArgs } from './sources.js';
import type { Runner, Work } from './state.js';
import { runV1Data } from './v1-data.js';
import { unknownOperation } from './unknown-operation.js';

/** Operations of later work, by what they need: a clear refusal instead of "unknown command". */
const LATER: readonly (readonly [RegExp, string])[] = [
  [/^introspect_remote_schema$/, 'introspect_remote_schema is not supported yet'],
  [/^get_event_invocations$/,
    'this older operation is not supported; use get_scheduled_event_invocations'],
  [/^(?:pause_event_trigger_cleanups|resume_event_trigger_cleanups)$/,
    'scheduled cleanups of event logs are not supported yet; run cleanup_event_trigger_logs to clear old events'],
];

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
    case 'export_metadata': case 'get_inconsistent_metadata': case 'test_webhook_transform':
      return readAnswer(cx.opts.compiler, env, work.metadata, cx.served().resourceVersion, work.compiled)!;
    case 'replace_metadata':
      return replaceMetadata(cx, env, work);
    case 'reload_metadata':
      return reloadMetadata(cx, env, work);
    case 'drop_inconsistent_metadata':
      return dropInconsistentMetadata(cx, work);
    case 'reload_remote_schema':
      return reloadRemoteSchema(cx, env, work);
    default:
      return applyEdit(cx, env, work);
  }
}

async function applyBulk(cx: ApiContext, env: Envelope, work: Work): Promise<Json> {
  if (!Array.isArray(env.args)) throw new ApiError('parse-failed', `parsing array failed, expected Array, but encountered ${kind(env.args)}`, 400, ['args']);
  const out: Json[] = [];
  for (let i = 0; i < env.args.length; i++) {
    let inner: Envelope;
    try {
      inner = parseEnvelope(env.args[i], work.api);
    } catch (e) {
      throw e instanceof ApiError ? e.at('args', i) : e;
    }
    out.push(await applyOperation(cx, inner, work, ['args', i]));
  }
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
  const later = LATER.find(([re]) => re.test(env.type));
  if (later) throw new ApiError('not-supported', `${env.type}: ${later[1]}`, 400, ['type']);
  if (!compiler.knows(env.type, work.api)) throw unknownOperation(env.type, work.api);
  const op: OperationRequest = { type: env.type, args: env.args, api: work.api, ...(env.version !== undefined ? { version: env.version } : {}) };
  const applied = compiler.apply(work.metadata, op, { introspection: work.introspection });
  if (applied.metadata === null) return applied.result;
  if (env.type === 'rename_source') renameSource(work, env.args);
  if (env.type === 'drop_action') await clearDroppedActionLog(work.tx, env.args);
  await cx.sources.connectSources(work, applied.metadata);
  await introspectEditedRemotes(cx, env, applied.metadata);
  const judged = await judgeEdit(compiler, work.compiled.inconsistencies, applied.metadata, applied.effect,
    (md) => cx.sources.compile(md, work.introspection));
  work.metadata = judged.metadata;
  work.compiled = judged.compiled;
  work.changed = true;
  await cx.sources.dropUnusedSources(work);
  return applied.result;
}

function kind(v: unknown): string {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  return ({ object: 'Object', string: 'String', number: 'Number', boolean: 'Boolean' } as Record<string, string>)[typeof v] ?? 'Object';
}
