// The metadata API's compile: the pipeline of `kiln compile` (compileModel) minus the files, with
// what earlier compiles built reused (reuse.ts: each role's root fields, precompiled predicates
// and schema, keyed by the digests of what they are built from). Both the worker thread and the
// in-process compile run this, so a change made through the API serves exactly what compiling
// the new document from nothing would (test/metadata-api/incremental-compile.test.ts).

import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled, CompileOptions } from '../../runtime/metadata-api/index.js';
import { compileModel } from '../emit/index.js';
import type { Introspection } from '../introspect/index.js';
import type { Metadata } from '../metadata/index.js';
import { CompileReuse } from './reuse.js';
import { SchemaCache } from './schema-cache.js';

/** A compiler that keeps what its earlier compiles built. */
export class IncrementalCompiler {
  readonly reuse = new CompileReuse();
  readonly schemas = new SchemaCache(this.reuse);

  constructor(private readonly engineVersion: string) {}

  /** Compiles `metadata` against the sources' snapshots (null: unreadable, left out). */
  compile(metadata: Json, introspection: { readonly [source: string]: Json | null }, opts: CompileOptions): Compiled {
    const present = Object.fromEntries(Object.entries(introspection).filter((e): e is [string, Json] => e[1] !== null)) as unknown as { [s: string]: Introspection };
    this.reuse.nextCompile();
    const { model, sdl, inconsistencies } = compileModel({ metadata: metadata as unknown as Metadata, introspection: present, engineVersion: this.engineVersion,
      stringifyNumeric: opts.stringifyNumeric, inferFunctionPermissions: opts.inferFunctionPermissions ?? true, roleSchemas: this.schemas.roleSchemas, templates: this.reuse.templates,
      roleTemplates: this.reuse.roleTemplates, reuse: this.reuse });
    return { model, sdl, inconsistencies };
  }
}
