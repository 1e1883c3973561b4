// The metadata API's compile in a worker thread (issue 19): the same model, SDL and
// inconsistencies as the compile on the event loop, while the event loop keeps turning.

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { loadMetadata } from '../../compiler/metadata/index.js';
import { metadataCompiler } from '../../compiler/metadata-compiler/index.js';
import type { Json } from '../../runtime/bundle/index.js';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'fixtures', 'chinook');

describe('the metadata API compile worker', async () => {
  // Built as scripts/build.mjs builds it, inside the work tree so that its packages resolve.
  const file = join(root, 'build', `compile-worker-test-${process.pid}.mjs`);
  await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning',
    entryPoints: [join(root, 'compiler/metadata-compiler/compile-worker.ts')], outfile: file });
  afterAll(() => rm(file, { force: true }));
  const md = await loadMetadata(join(dir, 'metadata.json'));
  const snap = introspectionFromJson(JSON.parse(await readFile(join(dir, 'introspection.json'), 'utf8')));
  const metadata = md.value as unknown as Json;
  const introspection = Object.fromEntries(md.value!.sources.map((s) => [s.name, snap])) as unknown as { [s: string]: Json };

  it('compiles what the event-loop compile does, without stopping the event loop', async () => {
    const compiler = metadataCompiler('worker-test', pathToFileURL(file));
    expect(compiler.compileAsync).toBeTypeOf('function');
    const inline = compiler.compile(metadata, introspection, { stringifyNumeric: false });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const inWorker = await compiler.compileAsync!(metadata, introspection, { stringifyNumeric: false });
    const again = await compiler.compileAsync!(metadata, introspection, { stringifyNumeric: true });
    clearInterval(timer);
    expect(inWorker.model).toEqual(inline.model);
    expect(inWorker.sdl).toEqual(inline.sdl);
    expect(inWorker.inconsistencies).toEqual(inline.inconsistencies);
    expect(again.model.options).toEqual({ stringifyNumeric: true });
    // Two compiles (and the worker's start) took many milliseconds: timers ran meanwhile.
    expect(ticks).toBeGreaterThan(10);
  }, 180_000); // three compiles and a worker's start, on a machine other runs share

  it('answers a compile that throws with its error, and compiles again after', async () => {
    const compiler = metadataCompiler('worker-test', pathToFileURL(file));
    await expect(compiler.compileAsync!({ version: 3 } as Json, {}, { stringifyNumeric: false })).rejects.toThrow();
    const ok = await compiler.compileAsync!(metadata, introspection, { stringifyNumeric: false });
    expect(Object.keys(ok.model.tables).length).toBeGreaterThan(5);
  }, 120_000);

  it('has no worker when run from the sources (no built file beside them)', () => {
    expect(metadataCompiler('worker-test').compileAsync).toBeUndefined();
  });
});
