import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { loadMetadata } from '../../compiler/metadata/index.js';

const root = join(import.meta.dirname, '..', '..');

/** Compiles fixtures/<fixture>/ from its metadata and committed introspection snapshot. */
export async function compileFixture(fixture: string): Promise<Bundle> {
  const dir = join(root, 'fixtures', fixture);
  const md = await loadMetadata(join(dir, 'metadata.json'));
  if (!md.value) throw new Error(`fixture ${fixture}: ${md.errors.map((e) => e.message).join('; ')}`);
  const snap = introspectionFromJson(JSON.parse(await readFile(join(dir, 'introspection.json'), 'utf8')));
  return buildBundle({ metadata: md.value, introspection: Object.fromEntries(md.value.sources.map((s) => [s.name, snap])), engineVersion: 'golden' });
}
