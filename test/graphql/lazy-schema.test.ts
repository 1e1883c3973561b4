// A role's schema built a type at a time (issue 19) is the schema buildSchema gives: the same
// printed SDL and introspection (type order included), the same validation answers, and it
// builds only the types a query reaches.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSchema, getIntrospectionQuery, graphqlSync, parse, printSchema, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { indexSdl, sdlFromFile, sdlFromText } from '../../runtime/bundle/index.js';
import { lazySchema } from '../../runtime/graphql/lazy-schema.js';
import { prepareOperation } from '../../runtime/graphql/prepare.js';
import { compileFixture } from '../helpers/fixtures.js';

// What the engine does with a document (Hasura's checks, then graphql-js validation): its error, or ''.
const check = (s: GraphQLSchema, d: string): string => {
  try {
    prepareOperation(s, parse(d), null);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
};
const introspect = (s: GraphQLSchema): unknown => graphqlSync({ schema: s, source: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true }) });

describe('lazy role schema', async () => {
  const chinook = await compileFixture('chinook');
  const blog = await compileFixture('blog');
  const cases = [...Object.entries(chinook.sdl).map(([r, s]) => [`chinook ${r}`, s] as const), ...Object.entries(blog.sdl).map(([r, s]) => [`blog ${r}`, s] as const)];
  const dir = await mkdtemp(join(tmpdir(), 'kiln-lazy-schema-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(cases)('%s: prints and introspects as buildSchema does', (_name, sdl) => {
    const eager = buildSchema(sdl, { noLocation: true, assumeValidSDL: true });
    expect(printSchema(lazySchema(sdlFromText(sdl)))).toBe(printSchema(eager));
    expect(introspect(lazySchema(sdlFromText(sdl)))).toEqual(introspect(eager));
    // Every object type with its fields built one at a time, as a root type of a large schema is.
    expect(printSchema(lazySchema(sdlFromText(sdl), 0))).toBe(printSchema(eager));
    expect(introspect(lazySchema(sdlFromText(sdl), 0))).toEqual(introspect(eager));
  });

  it('answers validation as buildSchema does, building only what the document reaches', async () => {
    const sdl = chinook.sdl['admin']!;
    const eager = buildSchema(sdl, { noLocation: true, assumeValidSDL: true });
    const file = join(dir, 'admin.graphql');
    await writeFile(file, sdl);
    const source = sdlFromFile(file);
    let reads = 0;
    const lazy = lazySchema({ ...source, definition: (i) => { reads++; return source.definition(i); } }, 2000);
    const valid = [
      '{ album(limit: 2, where: {title: {_ilike: "%a%"}}) { album_id title artist { name } } }',
      'query ($n: Int!, $w: album_bool_exp) { album(limit: $n, where: $w) { title tracks_aggregate { aggregate { count } } } }',
      'fragment F on album { title } { album_by_pk(album_id: 1) { ...F } }',
      '{ __type(name: "album") { name fields { name } } }',
    ];
    for (const d of valid) {
      expect(check(lazy, d), d).toBe('');
      expect(check(eager, d), d).toBe('');
    }
    // Only a small part of the schema was read: validation does not list the whole type map.
    expect(reads).toBeGreaterThan(5);
    expect(reads).toBeLessThan(source.index.types.size / 4);
    const before = reads;
    const invalid = [
      '{ album(where: {nope: {_eq: 1}}) { album_id } }',
      'query ($w: Album_bool_exp) { album(where: $w) { title } }',
      '{ album { titel } }',
      'mutation { delete_Album(where: {}) { affected_rows } }',
      'mutation { delete_album { affected_rows } }',
    ];
    for (const d of invalid) {
      const message = check(eager, d);
      expect(message, d).not.toBe('');
      expect(check(lazy, d), d).toBe(message);
    }
    expect(reads - before).toBeLessThan(source.index.types.size / 4);
    expect(lazy.getType('album')).toBe(lazy.getType('album'));
    expect(lazy.getType('Int')).toBe(eager.getType('Int') ? lazy.getType('Int') : undefined);
    expect(lazy.getType('NoSuchType')).toBeUndefined();
  });

  it('shares one empty extensions map and one wrapper per type, where graphql-js makes one per use', () => {
    // Each a dictionary-mode object of its own in V8: 7 MB of the types a 1,000-table schema's queries built.
    const s = lazySchema(sdlFromText(chinook.sdl['admin']!));
    const album = s.getType('album') as GraphQLObjectType, artist = s.getType('artist') as GraphQLObjectType;
    const field = album.getFields()['album_id']!;
    expect(Object.isFrozen(album.extensions)).toBe(true);
    expect(Object.keys(album.extensions)).toEqual([]);
    expect(artist.extensions).toBe(album.extensions);
    expect(field.extensions).toBe(album.extensions);
    expect(album.extensionASTNodes).toBe(artist.extensionASTNodes);
    const root = s.getQueryType()!.getFields()['album']!;
    expect(root.args.every((a) => a.extensions === album.extensions)).toBe(true);
    // album.album_id and artist.artist_id are both Int!: one GraphQLNonNull.
    expect(artist.getFields()['artist_id']!.type).toBe(field.type);
    expect(String(field.type)).toBe('Int!');
  });

  it('indexes definitions past descriptions, strings with braces and block strings', () => {
    const sdl = `"""
a "quoted" type { with braces
type fake {
"""
type A { "x { y" f(a: String = "}"): B }
"Enum"
enum B { X Y }
schema { query: A }
`;
    const index = indexSdl(Buffer.from(sdl));
    expect([...index.types.keys()]).toEqual(['A', 'B']);
    expect(index.schema).toBe(3 - 1);
    const s = lazySchema(sdlFromText(sdl));
    expect(printSchema(s)).toBe(printSchema(buildSchema(sdl)));
    expect(s.getQueryType()!.description).toContain('quoted');
  });
});
