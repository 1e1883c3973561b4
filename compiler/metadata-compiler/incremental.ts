// The metadata API's compile: the pipeline of `kiln compile` (compileModel) minus the files, with
// the role schemas of earlier compiles reused (schema-cache.ts). Both the worker thread and the
// in-process compile run this, so a change made through the API serves exactly what compiling
// the new document from nothing would.

import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled } from '../../runtime/metadata-api/index.js';
import { compileModel } from '../emit/index.js';
import type { Introspection } from '../introspect/index.js';
import type { Metadata } from '../metadata/index.js';
import type { SchemaCache } from './schema-cache.js';

/** Compiles `metadata` against the sources' snapshots (null: unreadable, left out), reusing `cache`. */
export function compileWithCache(cache: SchemaCache, metadata: Json, introspection: { readonly [source: string]: Json | null }, engineVersion: string,
  opts: { readonly stringifyNumeric: boolean }): Compiled {
  const present = Object.fromEntries(Object.entries(introspection).filter((e): e is [string, Json] => e[1] !== null)) as unknown as { [s: string]: Introspection };
  const { model, sdl, inconsistencies } = compileModel({ metadata: metadata as unknown as Metadata, introspection: present, engineVersion,
    stringifyNumeric: opts.stringifyNumeric, roleSchemas: cache.roleSchemas });
  return { model, sdl, inconsistencies };
}
