// The messages between the metadata API's compiler and its worker thread (compile-worker.ts).

import type { Json } from '../../runtime/bundle/index.js';
import type { InconsistentObject } from '../../runtime/metadata-api/index.js';
import type { PackedModel, PackedSdl } from './model-transfer.js';

/** One compile asked of the worker. */
export interface CompileRequest {
  readonly id: number;
  /**
   * The document as JSON text (a structured clone of a 1,000-table document costs four times what
   * JSON text does, on both sides), or null: the same text as the request before.
   */
  readonly metadataText: string | null;
  readonly introspection: { readonly [source: string]: Json | null };
  readonly engineVersion: string;
  readonly stringifyNumeric: boolean;
  readonly inferFunctionPermissions: boolean;
  /** What the asking thread holds from earlier answers: model entries by digest, SDL texts by key (model-transfer.ts). */
  readonly have: { readonly entries: readonly string[]; readonly texts: readonly string[] };
}

/** The worker's answer: the compiled model and SDL (what the asker lacks of them), or the error the compile threw. */
export type CompileAnswer =
  | { readonly id: number; readonly model: PackedModel; readonly sdl: PackedSdl; readonly inconsistencies: readonly InconsistentObject[];
      /** Timings of the compile's stages in the worker, in milliseconds (logged by nobody; tests and profiling read them). */
      readonly timings: { readonly [stage: string]: number } }
  | { readonly id: number; readonly error: { readonly message: string; readonly stack: string } };
