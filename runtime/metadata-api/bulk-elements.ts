// A bulk's elements, read before any of them runs: Hasura parses the whole request body (a bulk's
// `args` are a list of requests, each parsed with its own arguments) before it runs anything, so
// an element that does not parse fails the bulk at `$.args[i]` even when an earlier one would fail
// when run. What is read here is what does not need the document: the envelope, the operation
// type, the argument keys (run_sql's whole arguments); an operation's own checks run as it runs.

import type { Json } from '../bundle/index.js';
import { ApiError, jsonKind } from '../errors/index.js';
import { runtimeArgKeyProblem } from './arg-keys.js';
import type { ApiContext } from './context.js';
import { parseEnvelope, type Envelope } from './envelope.js';
import { laterRefusal } from './later-operations.js';
import { parseRunSqlArgs } from './run-sql.js';

/** The operations the metadata API runs itself rather than the compiler (edit-ops.ts, read-ops.ts). */
export const RUNTIME_OPERATIONS = new Set(['bulk', 'run_sql', 'insert', 'select', 'count', 'update', 'delete', 'export_metadata',
  'get_inconsistent_metadata', 'dump_internal_state', 'test_webhook_transform', 'replace_metadata', 'reload_metadata', 'drop_inconsistent_metadata',
  'reload_remote_schema']);

/** Every element of a bulk's `args`, each read and checked (nested bulks too) before any runs. */
export function bulkElements(cx: ApiContext, env: Envelope): readonly Envelope[] {
  if (!Array.isArray(env.args)) {
    throw new ApiError('parse-failed', `parsing array failed, expected Array, but encountered ${jsonKind(env.args)}`, 400, ['args']);
  }
  return (env.args as readonly Json[]).map((element, i) => {
    try {
      const inner = parseEnvelope(element, env.api);
      checkRequest(cx, inner);
      return inner;
    } catch (e) {
      throw e instanceof ApiError ? e.at('args', i) : e;
    }
  });
}

function checkRequest(cx: ApiContext, env: Envelope): void {
  if (env.type === 'bulk') {
    bulkElements(cx, env);
    return;
  }
  if (env.type === 'run_sql') {
    parseRunSqlArgs(env.args, ['args']);
    return;
  }
  // replace_metadata reads its own keys once it knows whether its args wrap the document.
  const problem = env.type === 'replace_metadata' ? undefined : runtimeArgKeyProblem(env.type, env.args, env.api);
  if (problem) throw problem;
  if (RUNTIME_OPERATIONS.has(env.type) || cx.extensionFor(env.type, env.api) || laterRefusal(env.type)) return;
  const compiled = cx.opts.compiler.requestProblem({ type: env.type, args: env.args, api: env.api, ...(env.version !== undefined ? { version: env.version } : {}) });
  if (compiled) throw compiled;
}
