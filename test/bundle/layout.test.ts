// The stored layout of a bundle: text several roles share is written once and read back per role.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELTA_SUFFIX, expandLayout, loadBundle, readLinks, sdlFromFile, sdlFromText, storedLayout, storedStatement } from '../../runtime/bundle/index.js';

const stmt = (role: string, body: string): string => `-- role: ${role}\n-- root field: t\n${body}\n`;

describe('bundle layout', () => {
  const files = new Map<string, string>([
    ['engine.mjs', 'export const model = {};'],
    ['schema/a.graphql', 'type query_root { t: Int }'],
    ['schema/b.graphql', 'type query_root { t: Int }'],
    ['schema/c.graphql', 'type query_root { u: Int }'],
    ['sql/a/t.sql', stmt('a', 'SELECT 1')],
    ['sql/b/t.sql', stmt('b', 'SELECT 1')],
    ['sql/c/t.sql', stmt('c', 'SELECT 2')],
    ['sql/a/u.sql', stmt('a', 'SELECT 3')],
  ]);
  const stored = storedLayout(files);

  it('stores a statement several roles run once, and keeps one only a role runs at its own path', () => {
    const shared = [...stored.files.keys()].filter((p) => p.startsWith('shared/') && p.endsWith('.sql'));
    expect(shared).toHaveLength(1);
    expect(stored.files.get(shared[0]!)).toBe('-- root field: t\nSELECT 1\n');
    expect(stored.files.has('sql/a/t.sql')).toBe(false);
    expect(stored.files.get('sql/c/t.sql')).toBe(stmt('c', 'SELECT 2'));
    expect(stored.files.get('sql/a/u.sql')).toBe(stmt('a', 'SELECT 3'));
    const hash = shared[0]!.slice('shared/'.length, -'.sql'.length);
    expect(readLinks(stored.files.get('sql/a/links.json')!, (h) => stored.files.get(`shared/${h}.links.json`))).toEqual({ 't.sql': hash });
  });

  it('stores the links several roles have once, each role naming them', () => {
    const a = JSON.parse(stored.files.get('sql/a/links.json')!) as { links: string };
    expect(JSON.parse(stored.files.get('sql/b/links.json')!)).toEqual(a);
    expect(JSON.parse(stored.files.get(`shared/${a.links}.links.json`)!)).toEqual({ 't.sql': expect.any(String) });
    // A role whose links no other has keeps them in its own file.
    const own = storedLayout(new Map([['sql/a/t.sql', stmt('a', 'SELECT 1')], ['sql/b/t.sql', stmt('b', 'SELECT 1')], ['sql/b/u.sql', stmt('b', 'SELECT 9')], ['sql/a/u.sql', stmt('a', 'SELECT 9')], ['sql/c/u.sql', stmt('c', 'SELECT 9')]]));
    expect(Object.keys(JSON.parse(own.files.get('sql/c/links.json')!) as object)).toEqual(['u.sql']);
  });

  it('stores a schema several roles see once and names each role\'s file', () => {
    expect(stored.schemas['a']).toBe(stored.schemas['b']);
    expect(stored.schemas['a']).toMatch(/^shared\/\w+\.graphql$/);
    expect(stored.schemas['c']).toBe('schema/c.graphql');
  });

  it('reads back exactly the files it was given', () => {
    const back = expandLayout(stored.files, stored.schemas);
    expect([...back]).toEqual([...files].sort(([x], [y]) => (x < y ? -1 : 1)));
  });

  it('keeps a statement whose first line is not its role line at its own path', () => {
    const odd = storedLayout(new Map([['sql/a/t.sql', 'SELECT 1\n'], ['sql/b/t.sql', 'SELECT 1\n']]));
    expect([...odd.files.keys()]).toEqual(['sql/a/t.sql', 'sql/b/t.sql']);
  });
});

describe('bundle layout of large schemas: definitions several schemas have written once', () => {
  const def = (name: string, fields: string): string => `"""\ncolumns of "${name}"\n"""\ntype ${name} {\n  ${fields}\n}\n\n`;
  const common = def('author', 'id: Int!\n  name: String') + def('article', 'id: Int!\n  title: String');
  const schema = (root: string, extra = ''): string => `schema {\n  query: query_root\n}\n\n${common}${extra}type query_root {\n  ${root}\n}\n`;
  const files = new Map<string, string>([
    ['schema/admin.graphql', schema('author: [author!]!\n  article: [article!]!', def('secret', 'id: Int!'))],
    ['schema/a.graphql', schema('author: [author!]!\n  article: [article!]!')],
    ['schema/b.graphql', schema('author: [author!]!\n  article: [article!]!')],
    ['schema/c.graphql', schema('article: [article!]!')],
  ]);
  // Pooled whatever their size (a real bundle pools past POOL_SCHEMAS_OVER bytes).
  const stored = storedLayout(files, 0);
  const pool = stored.files.get('shared/schema-definitions.graphql')!;

  it('writes each distinct definition once and each schema as ranges of them', () => {
    expect(pool.split('type author {').length).toBe(2);
    expect(pool.split('type article {').length).toBe(2);
    expect(pool).toContain('type secret {');
    expect(stored.schemas['a']).toBe(stored.schemas['b']);
    expect(stored.schemas['a']).toMatch(/^shared\/\w+\.schema\.json$/);
    expect(stored.schemas['c']).not.toBe(stored.schemas['a']);
    expect([...stored.files.keys()].some((p) => p.startsWith('schema/'))).toBe(false);
    const total = [...files.values()].reduce((n, t) => n + t.length, 0);
    expect(pool.length).toBeLessThan(total / 2);
  });

  it('reads every schema back byte for byte', () => {
    const back = expandLayout(stored.files, stored.schemas);
    for (const [path, text] of files) expect(back.get(path), path).toBe(text);
  });

  it('serves a pooled schema a definition at a time from the files, as the runtime reads them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiln-pool-'));
    try {
      for (const [path, text] of stored.files) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
      for (const role of ['admin', 'a', 'c']) {
        const text = files.get(`schema/${role}.graphql`)!;
        const source = sdlFromFile(join(dir, stored.schemas[role]!));
        const inMemory = sdlFromText(text);
        expect(source.text()).toBe(text);
        // Indexed range by range from the pool file (no copy of the schema's text made): the
        // index of the whole text, every definition at the same byte range.
        expect(source.index).toEqual(inMemory.index);
        expect([...source.index.types.keys()]).toEqual([...inMemory.index.types.keys()]);
        for (const [name, i] of source.index.types) expect(source.definition(i), name).toBe(inMemory.definition(inMemory.index.types.get(name)!));
        expect(source.definition(source.index.schema)).toContain('query: query_root');
      }
      // What the runtime loads: each role's SDL read back whole.
      const bundle = { model: { roles: ['admin', 'a', 'b', 'c'] } };
      await writeFile(join(dir, 'engine.mjs'), `export const model = ${JSON.stringify(bundle.model)};\n`);
      await writeFile(join(dir, 'manifest.json'), JSON.stringify({ bundleFormat: 1, engineVersion: 'test', roles: bundle.model.roles, schemas: stored.schemas }));
      const loaded = await loadBundle(dir);
      for (const role of bundle.model.roles) expect(loaded.sdl[role]).toBe(files.get(`schema/${role}.graphql`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bundle layout of large schemas: statements stored as the changes of another', () => {
  const columns = Array.from({ length: 30 }, (_, i) => `'c${i}', "_t_1"."c${i}"`).join(', ');
  const select = (field: string, table: string, where: string, header = ''): string =>
    `-- root field: ${field} (select on public.${table})\n${header}SELECT json_build_object(${columns.replaceAll('_t_', `_${table}_`)})\nFROM "public"."${table}" AS "_${table}_1"\nWHERE ${where};\n`;
  const filter = '("_t_1"."tenant_id" = ($1)::int4)';
  const files = new Map<string, string>([
    ['sql/admin/t.sql', `-- role: admin\n${select('t', 't', 'true')}`],
    ['sql/admin/t_by_pk.sql', `-- role: admin\n${select('t_by_pk', 't', '"_t_1"."id" = $1')}`],
    ['sql/admin/u.sql', `-- role: admin\n${select('u', 'u', 'true')}`],
    ['sql/a/t.sql', `-- role: a\n${select('t', 't', filter, '-- $1 = session x-svc-tenant-id :: int4\n')}`],
    ['sql/b/t.sql', `-- role: b\n${select('t', 't', filter, '-- $1 = session x-svc-tenant-id :: int4\n')}`],
    ['sql/c/t.sql', `-- role: c\n${select('t', 't', `${filter}\nLIMIT 10`, '-- $1 = session x-svc-tenant-id :: int4\n')}`],
    ['sql/c/fn.sql', '-- role: c\n-- root field: fn (function)\nSELECT 1;\n'],
  ]);
  const stored = storedLayout(files, undefined, 0);

  it('stores the first statement whole and the others as changes of one of their table, or of their kind', () => {
    expect(stored.files.get('sql/admin/t.sql')).toBe(files.get('sql/admin/t.sql'));
    const delta = JSON.parse(stored.files.get(`sql/admin/t_by_pk.sql${DELTA_SUFFIX}`)!) as { base: string; edits: unknown[] };
    expect(delta.base).toBe('sql/admin/t.sql');
    expect(stored.files.has('sql/admin/t_by_pk.sql')).toBe(false);
    // The statement several roles run is shared, then stored as changes of admin's.
    const shared = [...stored.files.keys()].filter((p) => p.startsWith('shared/') && p.endsWith(`.sql${DELTA_SUFFIX}`));
    expect(shared).toHaveLength(1);
    expect(stored.files.get(shared[0]!)!.length).toBeLessThan(files.get('sql/a/t.sql')!.length / 3);
    // Another table's statement of the same kind differs in the table's names: stored as changes too.
    expect((JSON.parse(stored.files.get(`sql/admin/u.sql${DELTA_SUFFIX}`)!) as { base: string }).base).toBe('sql/admin/t.sql');
    // One of no table is stored whole.
    expect(stored.files.get('sql/c/fn.sql')).toBe(files.get('sql/c/fn.sql'));
  });

  it('reads back exactly the files it was given, each role and field as if nothing were shared', () => {
    const back = expandLayout(stored.files, stored.schemas);
    expect([...back]).toEqual([...files].sort(([x], [y]) => (x < y ? -1 : 1)));
    const read = (p: string): string | undefined => stored.files.get(p);
    expect(storedStatement('sql/admin/t_by_pk.sql', read)).toBe(files.get('sql/admin/t_by_pk.sql')!.replace('-- role: admin\n', ''));
    expect(storedStatement('sql/admin/none.sql', read)).toBeUndefined();
  });

  it('stores a statement of a table like another as that one renamed, plus edits', () => {
    const alike = new Map<string, string>([
      ['sql/admin/author.sql', `-- role: admin\n${select('author', 'author', 'true').replaceAll('"_t_1"', '"_author_1"')}`],
      ['sql/admin/editor.sql', `-- role: admin\n${select('editor', 'editor', 'true').replaceAll('"_t_1"', '"_editor_1"')}`],
    ]);
    const laid = storedLayout(alike, undefined, 0);
    const delta = JSON.parse(laid.files.get(`sql/admin/editor.sql${DELTA_SUFFIX}`)!) as { base: string; rename: string[]; edits: unknown[] };
    expect(delta).toEqual({ base: 'sql/admin/author.sql', rename: ['author', 'editor'], edits: [] });
    expect([...expandLayout(laid.files, laid.schemas)]).toEqual([...alike]);
  });

  it('gives the same stored files for the same files, whatever their order', () => {
    const again = storedLayout(new Map([...files].reverse()), undefined, 0);
    expect([...again.files]).toEqual([...stored.files]);
  });

  it('stores nothing as changes below the size it starts at', () => {
    const small = storedLayout(files);
    expect([...small.files.keys()].some((p) => p.endsWith(DELTA_SUFFIX))).toBe(false);
  });
});
