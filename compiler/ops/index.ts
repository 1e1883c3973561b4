// The metadata operations: each edits the document in process; the metadata API then recompiles
// and judges the result by the handler's `effect` (runtime/metadata-api/contract.ts).

import { ApiError } from '../../runtime/errors/index.js';
import { unknownOperation, type ApiKind } from '../../runtime/metadata-api/index.js';
import type { Json, Metadata } from '../metadata/index.js';
import type { Introspection } from '../introspect/index.js';
import { argKeyProblem } from './arg-keys.js';
import { extraOperations } from './extra/index.js';
import { coreOperations, refusedOperation } from './registry.js';
import type { OpOutput, OpTable } from './types.js';

export type { OpHandler, OpInput, OpOutput, OpTable } from './types.js';
/** Removes inconsistent objects from the document; prints one as a dependency-error lists it. */
export { dropObjects, dependentLabel } from './drop.js';
/** The document of a fresh catalog (the `default` source, nothing tracked). */
export { emptyMetadata } from './sources.js';
/** `/v1/query` `$and`/`$or`/`$not` to the stored `_and`/`_or`/`_not`. */
export { normalizeConnectives } from './permissions.js';
/** The first raw-section entry (collections, allow-list, endpoints, inherited roles, cron triggers, remote schemas) its operation's reader refuses. */
export { sectionProblem } from './extra/sections.js';

function lookup(type: string, api: ApiKind): OpTable[string] | undefined {
  for (const table of [coreOperations, extraOperations]) {
    const e = Object.hasOwn(table, type) ? table[type] : undefined;
    if (e && e.apis.includes(api)) return e;
  }
  return undefined;
}

export function knowsOperation(type: string, api: ApiKind): boolean {
  return lookup(type, api) !== undefined;
}

type Request = { readonly type: string; readonly args: Json; readonly version?: number; readonly api: ApiKind };

/**
 * What refuses an operation before it reads the document: an unknown type, a refused operation, an
 * argument key it does not take (Hasura parses a whole request, a bulk's every element, first).
 */
export function requestProblem(op: Request): ApiError | undefined {
  if (!lookup(op.type, op.api)) return unknownOperation(op.type, op.api);
  const refused = refusedOperation(op.type);
  if (refused) return refused;
  const problem = argKeyProblem(op.type, op.args);
  return problem ? relativeOnQuery(problem, op.api) : undefined;
}

/**
 * Applies one operation to the document. Throws ApiError for a bad or impossible request; on
 * `/v1/query` the paths of argument parse errors are relative to `args`, as Hasura reports them.
 */
export function applyOperation(metadata: Metadata, op: Request, introspection: { readonly [source: string]: Introspection | null }): OpOutput {
  const problem = requestProblem(op);
  if (problem) throw problem;
  try {
    return lookup(op.type, op.api)!.handler({ metadata, args: op.args ?? {}, version: op.version ?? 1, api: op.api, introspection });
  } catch (e) {
    throw e instanceof ApiError ? relativeOnQuery(e, op.api) : e;
  }
}

function relativeOnQuery(e: ApiError, api: ApiKind): ApiError {
  if (api === 'query' && e.code === 'parse-failed' && e.path[0] === 'args') return new ApiError(e.code, e.message, e.status, e.path.slice(1), e.internal);
  return e;
}
/** A run_sql's catalog change (renames, overloads) carried into the document. */
export { reconcileCatalog } from './reconcile.js';
export { sourceInfos } from './source-info.js';
