// One compile pipeline: `kiln compile` (buildBundle), the metadata API's compile on write
// (metadataCompiler) and compileModel serve the same model and schemas for the same input.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle, compileModel } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { loadMetadata } from '../../compiler/metadata/index.js';
import { metadataCompiler } from '../../compiler/metadata-compiler/index.js';
import type { Json } from '../../runtime/bundle/index.js';

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'chinook');

async function input() {
  const md = await loadMetadata(join(dir, 'metadata.json'));
  if (!md.value) throw new Error(md.errors.map((e) => e.message).join('; '));
  const snap = introspectionFromJson(JSON.parse(await readFile(join(dir, 'introspection.json'), 'utf8')));
  return { metadata: md.value, introspection: Object.fromEntries(md.value.sources.map((s) => [s.name, snap])), engineVersion: 'pipeline' };
}

describe('the compile pipeline', () => {
  it('gives the bundle, the metadata API and compileModel the same model and SDL', async () => {
    const i = await input();
    const bundle = await buildBundle(i);
    const staged = compileModel(i);
    const onWrite = metadataCompiler('pipeline').compile(i.metadata as unknown as Json, i.introspection as unknown as { [s: string]: Json }, { stringifyNumeric: false });
    expect(Object.keys(bundle.model.tables).length).toBeGreaterThan(5);
    expect(staged.model).toEqual(bundle.model);
    expect(staged.sdl).toEqual(bundle.sdl);
    expect(onWrite.model).toEqual(bundle.model);
    expect(onWrite.sdl).toEqual(bundle.sdl);
    expect(onWrite.inconsistencies).toEqual(bundle.inconsistencies);
    // The metadata API's compile holds the permission templates engine.mjs carries, which its engine serves from.
    const invoice = bundle.model.templates?.roles['customer']?.['default:public.invoice']?.select;
    expect(invoice?.text.join('')).toContain('"customer_id" = ');
    expect(onWrite.model.templates?.roles['customer']?.['default:public.invoice']?.select).toEqual(invoice);
    // The bundle's schema files are the SDL the pipeline printed.
    for (const role of bundle.model.roles) expect(bundle.files.get(`schema/${role}.graphql`)).toBe(staged.sdl[role]);
  });

  it('reports what does not fit the database the same way everywhere', async () => {
    const i = await input();
    const snap = i.introspection[Object.keys(i.introspection)[0]!]!;
    const without = { ...snap, tables: snap.tables.filter((t) => t.name !== 'genre') };
    const broken = { ...i, introspection: Object.fromEntries(Object.keys(i.introspection).map((s) => [s, without])) };
    const staged = compileModel(broken);
    const onWrite = metadataCompiler('pipeline').compile(broken.metadata as unknown as Json, broken.introspection as unknown as { [s: string]: Json }, { stringifyNumeric: false });
    expect(staged.inconsistencies.some((x) => x.name.includes('genre'))).toBe(true);
    expect(onWrite.inconsistencies).toEqual(staged.inconsistencies);
    expect((await buildBundle(broken)).inconsistencies).toEqual(staged.inconsistencies);
  });
});
