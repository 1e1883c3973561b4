// The shape every metadata operation handler has. A handler is a pure function of the current
// document and the request's args: it returns the new document (or null when nothing changed),
// the response body, and how the metadata API must judge the objects the edit made inconsistent
// (runtime/metadata-api/contract.ts, `Effect`). Bad requests throw ApiError with the
// specification's code and a path relative to the operation (`['args', 'table']`).

import type { Json } from '../../runtime/bundle/index.js';
import type { ApiKind, Effect } from '../../runtime/metadata-api/index.js';
import type { Introspection } from '../introspect/index.js';
import type { Metadata } from '../metadata/index.js';

export interface OpInput {
  readonly metadata: Metadata;
  /** The operation's `args`, unchecked. */
  readonly args: Json;
  /** The envelope's `version` (1 when absent). */
  readonly version: number;
  /** `query` for /v1/query and /v2/query (unprefixed names, `$and`/`$or` spellings), else `metadata`. */
  readonly api: ApiKind;
  /** The catalog snapshot of each source; null when the source could not be read. */
  readonly introspection: { readonly [source: string]: Introspection | null };
}

export interface OpOutput {
  readonly metadata: Metadata | null;
  /** Response body; `{message: 'success'}` when absent. */
  readonly result?: Json;
  readonly effect: Effect;
}

export type OpHandler = (input: OpInput) => OpOutput;

/** Handlers by operation type, as sent on the wire (`pg_track_table`, `track_table`, `create_query_collection`). */
export type OpTable = { readonly [type: string]: { readonly handler: OpHandler; readonly apis: readonly ApiKind[] } };
