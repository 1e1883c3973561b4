// The metadata API's compile reuses what earlier compiles built (issue 19: each role's root
// fields, precompiled predicates and schema, and only new parts sent back from the worker). After
// every edit its answer must be exactly what compiling the edited document from nothing gives:
// the model, each role's SDL and the inconsistent objects. Both the compile on the event loop
// and the one in the worker thread are checked on the same sequence of edits, and the in-process
// one is also checked to have rebuilt only the schemas the edit touched.

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../compiler/emit/index.js';
import { introspectionFromJson, type Introspection } from '../../compiler/introspect/index.js';
import { loadMetadata, type Metadata } from '../../compiler/metadata/index.js';
import { metadataCompiler } from '../../compiler/metadata-compiler/index.js';
import { IncrementalCompiler } from '../../compiler/metadata-compiler/incremental.js';
import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled, InconsistentObject, MetadataCompiler } from '../../runtime/metadata-api/index.js';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'fixtures', 'chinook');
const table = (name: string): Json => ({ schema: 'public', name });

/** One step: an edit of the document (or a function of it), and whether the compile after it may list inconsistent objects. */
interface Step {
  readonly label: string;
  readonly edit: (md: Json, compiler: MetadataCompiler, last: Compiled) => Json;
  /** The number of role schemas the in-process compile must print for it (the roles it touched). */
  readonly printed?: number;
}

const op = (type: string, args: Json) => (md: Json, compiler: MetadataCompiler, _last: Compiled, introspection: { [s: string]: Json }): Json => {
  const out = compiler.apply(md, { type, args, api: 'metadata' }, { introspection });
  if (out.metadata === null) throw new Error(`${type} changed nothing`);
  return out.metadata;
};

function steps(introspection: { [s: string]: Json }): Step[] {
  const edit = (type: string, args: Json) => (md: Json, c: MetadataCompiler, last: Compiled) => op(type, args)(md, c, last, introspection);
  return [
    { label: 'compiled again unchanged', edit: (md) => md, printed: 0 },
    { label: 'a select permission of an existing role', printed: 1,
      edit: edit('pg_create_select_permission', { source: 'default', table: table('track'), role: 'customer', permission: { columns: ['track_id', 'name', 'album_id'], filter: {} } }) },
    { label: 'a select permission of a new role', printed: 1,
      edit: edit('pg_create_select_permission', { source: 'default', table: table('artist'), role: 'guest', permission: { columns: '*', filter: { artist_id: { _gt: 10 } }, allow_aggregations: true } }) },
    { label: 'a row filter changed (no schema changes)', printed: 0, edit: (md) => withFilter(md, 'artist', 'guest', { artist_id: { _lt: 5 } }) },
    { label: 'a role dropped', printed: 0, edit: edit('pg_drop_select_permission', { source: 'default', table: table('artist'), role: 'guest' }) },
    { label: 'an insert permission', printed: 1,
      edit: edit('pg_create_insert_permission', { source: 'default', table: table('playlist'), role: 'customer', permission: { columns: ['name'], check: {} } }) },
    { label: 'a select permission dropped', printed: 1,
      edit: edit('pg_drop_select_permission', { source: 'default', table: table('invoice_line'), role: 'customer' }) },
    { label: 'a relationship added',
      edit: edit('pg_create_object_relationship', { source: 'default', table: table('invoice_line'), name: 'invoice_again', using: { foreign_key_constraint_on: 'invoice_id' } }) },
    // Untracking leaves the relationships to the table inconsistent (the API then drops them, with cascade).
    { label: 'a table untracked', edit: edit('pg_untrack_table', { source: 'default', table: table('playlist_track') }) },
    { label: 'its dependents dropped', edit: (md, c, last) => c.dropObjects(md, last.inconsistencies) },
    { label: 'the table tracked again', edit: edit('pg_track_table', { source: 'default', table: table('playlist_track') }) },
    { label: 'a permission on a column that does not exist (inconsistent)',
      edit: edit('pg_create_select_permission', { source: 'default', table: table('genre'), role: 'guest', permission: { columns: ['nope'], filter: {} } }) },
  ];
}

/** The document with the row filter of `role`'s select permission on `name` replaced (a copy). */
function withFilter(md: Json, name: string, role: string, filter: Json): Json {
  const doc = structuredClone(md) as unknown as Metadata;
  const perm = doc.sources[0]!.tables.find((t) => t.table.name === name)!.select_permissions!.find((p) => p.role === role)!;
  (perm.permission as { filter: Json }).filter = filter;
  return doc as unknown as Json;
}

/** What compiling `md` from nothing gives. */
function fromNothing(md: Json, introspection: { [s: string]: Json }, stringifyNumeric: boolean): { model: unknown; sdl: unknown; inconsistencies: readonly InconsistentObject[] } {
  const c = compileModel({ metadata: md as unknown as Metadata, introspection: introspection as unknown as { [s: string]: Introspection }, engineVersion: 'incremental-test', stringifyNumeric });
  return { model: c.model, sdl: c.sdl, inconsistencies: c.inconsistencies };
}

function expectSame(got: Compiled, want: ReturnType<typeof fromNothing>, label: string): void {
  expect(got.model, label).toEqual(want.model);
  expect(got.sdl, label).toEqual(want.sdl);
  expect(got.inconsistencies, label).toEqual(want.inconsistencies);
}

describe('the metadata API compile, reusing earlier compiles', async () => {
  const md = await loadMetadata(join(dir, 'metadata.json'));
  const snap = introspectionFromJson(JSON.parse(await readFile(join(dir, 'introspection.json'), 'utf8')));
  const start = md.value as unknown as Json;
  const introspection = { default: snap as unknown as Json };

  it('gives after every edit what a compile from nothing gives, and rebuilds only the schemas an edit touched', () => {
    const compiler = metadataCompiler('incremental-test', null);
    const inc = new IncrementalCompiler('incremental-test');
    let doc = start;
    let last = inc.compile(doc, introspection, { stringifyNumeric: false });
    expectSame(last, fromNothing(doc, introspection, false), 'first compile');
    expect(inc.schemas.lastPrinted).toBeGreaterThan(1);
    for (const s of steps(introspection)) {
      doc = s.edit(doc, compiler, last);
      last = inc.compile(doc, introspection, { stringifyNumeric: false });
      expectSame(last, fromNothing(doc, introspection, false), s.label);
      if (s.printed !== undefined) expect(inc.schemas.lastPrinted, s.label).toBe(s.printed);
    }
    expect(last.inconsistencies.some((o) => o.type === 'select_permission')).toBe(true);
  });

  it('gives the document before a failed edit what it gave before, reusing everything', () => {
    const compiler = metadataCompiler('incremental-test', null);
    const inc = new IncrementalCompiler('incremental-test');
    const served = inc.compile(start, introspection, { stringifyNumeric: false });
    const bad = op('pg_create_select_permission', { source: 'default', table: table('genre'), role: 'customer', permission: { columns: ['nope'], filter: {} } })(start, compiler, served, introspection);
    const failed = inc.compile(bad, introspection, { stringifyNumeric: false });
    expect(failed.inconsistencies.length).toBeGreaterThan(0);
    const again = inc.compile(start, introspection, { stringifyNumeric: false });
    expect(inc.schemas.lastPrinted).toBe(0);
    expectSame(again, fromNothing(start, introspection, false), 'after a failed edit');
    expect(again.sdl).toEqual(served.sdl);
    // A change of options is a change of what every role shares: everything is built again, and right.
    const numeric = inc.compile(start, introspection, { stringifyNumeric: true });
    expectSame(numeric, fromNothing(start, introspection, true), 'stringifyNumeric');
  });

  it("keeps an unchanged role's root and mutation templates as the same objects, and makes a changed role's again", () => {
    const compiler = metadataCompiler('incremental-test', null);
    const inc = new IncrementalCompiler('incremental-test');
    const first = inc.compile(start, introspection, { stringifyNumeric: false }).model;
    const roles = first.roles.filter((r) => Object.keys(first.rootTemplates?.roles[r] ?? {}).length > 0);
    expect(roles).toContain('customer');
    expect(roles.length).toBeGreaterThan(1);
    const again = inc.compile(start, introspection, { stringifyNumeric: false }).model;
    for (const role of roles) {
      expect(again.rootTemplates!.roles[role], role).toBe(first.rootTemplates!.roles[role]);
      expect(again.mutationTemplates!.roles[role], role).toBe(first.mutationTemplates!.roles[role]);
    }
    const edited = op('pg_create_insert_permission', { source: 'default', table: table('playlist'), role: 'customer', permission: { columns: ['name'], check: {} } })(start, compiler, { model: again, sdl: {}, inconsistencies: [] }, introspection);
    const after = inc.compile(edited, introspection, { stringifyNumeric: false }).model;
    expect(after.mutationTemplates!.roles['customer']).not.toBe(again.mutationTemplates!.roles['customer']);
    expect(Object.keys(after.mutationTemplates!.roles['customer']!)).toContain('insert_playlist');
    for (const role of roles.filter((r) => r !== 'customer')) {
      expect(after.rootTemplates!.roles[role], role).toBe(again.rootTemplates!.roles[role]);
      expect(after.mutationTemplates!.roles[role], role).toBe(again.mutationTemplates!.roles[role]);
    }
  });

  describe('in the worker thread', async () => {
    // Built as scripts/build.mjs builds it, inside the work tree so that its packages resolve.
    const file = join(root, 'build', `compile-worker-incremental-${process.pid}.mjs`);
    await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning',
      entryPoints: [join(root, 'compiler/metadata-compiler/compile-worker.ts')], outfile: file });
    afterAll(() => rm(file, { force: true }));

    it('answers after every edit what a compile from nothing gives (only new parts sent back)', async () => {
      const compiler = metadataCompiler('incremental-test', pathToFileURL(file));
      let doc = start;
      let last = await compiler.compileAsync!(doc, introspection, { stringifyNumeric: false });
      expectSame(last, fromNothing(doc, introspection, false), 'first compile');
      for (const s of steps(introspection)) {
        doc = s.edit(doc, compiler, last);
        last = await compiler.compileAsync!(doc, introspection, { stringifyNumeric: false });
        expectSame(last, fromNothing(doc, introspection, false), s.label);
      }
      // A compile that throws leaves the worker and what this side holds usable.
      await expect(compiler.compileAsync!({ version: 3 } as Json, {}, { stringifyNumeric: false })).rejects.toThrow();
      const again = await compiler.compileAsync!(start, introspection, { stringifyNumeric: false });
      expectSame(again, fromNothing(start, introspection, false), 'after a compile that threw');
    }, 180_000);
  });
});
