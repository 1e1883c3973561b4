// The messages between the metadata API's compiler and its worker thread (compile-worker.ts).

import type { BundleModel, Json } from '../../runtime/bundle/index.js';
import type { InconsistentObject } from '../../runtime/metadata-api/index.js';

/** One compile asked of the worker. */
export interface CompileRequest {
  readonly id: number;
  readonly metadata: Json;
  readonly introspection: { readonly [source: string]: Json | null };
  readonly engineVersion: string;
  readonly stringifyNumeric: boolean;
}

/** The worker's answer: the compiled model and SDL, or the error the compile threw. */
export type CompileAnswer =
  | { readonly id: number; readonly model: BundleModel; readonly sdlTexts: readonly string[]; readonly sdlIndex: { readonly [role: string]: number };
      readonly inconsistencies: readonly InconsistentObject[] }
  | { readonly id: number; readonly error: { readonly message: string; readonly stack: string } };

/** Each role's SDL with equal texts sent once (a structured clone copies every string it meets). */
export function packSdl(sdl: { readonly [role: string]: string }): { sdlTexts: string[]; sdlIndex: { [role: string]: number } } {
  const texts: string[] = [];
  const seen = new Map<string, number>();
  const index: { [role: string]: number } = {};
  for (const [role, text] of Object.entries(sdl)) {
    let i = seen.get(text);
    if (i === undefined) {
      seen.set(text, (i = texts.length));
      texts.push(text);
    }
    index[role] = i;
  }
  return { sdlTexts: texts, sdlIndex: index };
}

/** The roles' SDL back from a packed answer. */
export function unpackSdl(texts: readonly string[], index: { readonly [role: string]: number }): { [role: string]: string } {
  return Object.fromEntries(Object.entries(index).map(([role, i]) => [role, texts[i]!]));
}
