// Relationships from a remote schema's type to another remote schema (create_remote_schema_remote_relationship
// with to_remote_schema, as in Hasura v2): the field on the type with the other remote's field type,
// one call of the other remote for every object of the first answer (an aliased field per distinct
// key set), `$field` arguments from the type's join fields, join fields asked but not returned,
// null keys giving null with no call, the other remote's errors passed on, a chain on to a table,
// the metadata operations' errors, dependencies, and the same answers from a compiled bundle.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startRemote, type RemoteServer } from './remote-server.js';

const FORUM_SDL = `
  type Query { posts: [Post!]! }
  type Post { id: Int!  author_id: Int  editor_id: Int  title: String! }`;
const POSTS = [
  { id: 1, author_id: 1, editor_id: 2, title: 'one' },
  { id: 2, author_id: 2, editor_id: 2, title: 'two' },
  { id: 3, author_id: 1, editor_id: null, title: 'three' },
  { id: 4, author_id: null, editor_id: 9, title: 'four' },
];
const PEOPLE_SDL = `
  type Query { user(id: Int!, shout: Boolean): User  team(ids: [Int!]!): [User!]! }
  type User { id: Int!  name: String!  city_id: Int }`;
const USERS = [{ id: 1, name: 'ann', city_id: 10 }, { id: 2, name: 'bob', city_id: 20 }];
const PEOPLE_ROOT = {
  user: ({ id, shout }: { id: number; shout?: boolean }) => {
    if (id === 9) throw new Error('user 9 is hidden');
    const u = USERS.find((x) => x.id === id);
    return u && shout ? { ...u, name: u.name.toUpperCase() } : u ?? null;
  },
  team: ({ ids }: { ids: number[] }) => USERS.filter((u) => ids.includes(u.id)),
};

type Server = { port: number; close(): Promise<void> };
const settings = { dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false };

describe('relationships from a remote schema to another remote schema', () => {
  let db: TestDatabase;
  let forum: RemoteServer;
  let people: RemoteServer;
  let server: Server;
  const base = () => `http://127.0.0.1:${server.port}`;
  const md = (body: unknown) => postJson(base(), '/v1/metadata', body);
  const gql = (s: Server, query: string, headers: Record<string, string> = {}) => postJson(`http://127.0.0.1:${s.port}`, '/v1/graphql', { query }, headers);
  const toPeople = (name: string, lhs: string[], field: unknown, remote = 'people', typeName = 'Post') =>
    md({ type: 'create_remote_schema_remote_relationship', args: { remote_schema: 'forum', type_name: typeName, name,
      definition: { to_remote_schema: { remote_schema: remote, lhs_fields: lhs, remote_field: field } } } });

  beforeAll(async () => {
    db = await createTestDatabase('remote_to_remote', `CREATE TABLE cities (id int PRIMARY KEY, name text);
      INSERT INTO cities VALUES (10, 'Lyon'), (20, 'Oslo');`);
    process.env.KILN_R2R_DB = db.url;
    forum = await startRemote(FORUM_SDL, { posts: () => POSTS });
    people = await startRemote(PEOPLE_SDL, PEOPLE_ROOT);
    server = await serveCommand({ ...settings, databaseUrl: db.url });
    expect((await md({ type: 'pg_track_table', args: { table: 'cities' } })).status).toBe(200);
    expect((await md({ type: 'add_remote_schema', args: { name: 'forum', definition: { url: forum.url } } })).status).toBe(200);
    expect((await md({ type: 'add_remote_schema', args: { name: 'people', definition: { url: people.url,
      customization: { type_names: { prefix: 'P_' } } } } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await forum?.close();
    await people?.close();
    await db?.drop();
  });

  it('calls the other remote once for every post, an aliased field per distinct key, with the join fields hidden', async () => {
    expect(await toPeople('author', ['author_id'], { user: { arguments: { id: '$author_id' } } })).toEqual({ status: 200, body: { message: 'success' } });
    forum.received.length = 0;
    people.received.length = 0;
    const r = await gql(server, '{ posts { title author(shout: true) { __typename name } } }');
    expect(r.body).toEqual({ data: { posts: [
      { title: 'one', author: { __typename: 'P_User', name: 'ANN' } },
      { title: 'two', author: { __typename: 'P_User', name: 'BOB' } },
      { title: 'three', author: { __typename: 'P_User', name: 'ANN' } },
      { title: 'four', author: null },
    ] } });
    expect(forum.calls()).toHaveLength(1);
    expect(forum.calls()[0]!.body.query).toMatch(/kiln__rj\d+_0: author_id/);
    expect(forum.calls()[0]!.body.query).not.toMatch(/\bauthor\s*[({]/);
    // Authors 1 and 2: two aliased fields in one call; the null author needs none.
    expect(people.calls()).toHaveLength(1);
    const sent = people.calls()[0]!.body.query;
    expect(sent.match(/\buser\(/g)).toHaveLength(2);
    expect(sent).toMatch(/id: 1/);
    expect(sent).toMatch(/id: 2/);
    expect(sent).toMatch(/shout: true/);
  });

  it('shows the field with the other remote\'s type and its unbound arguments only', async () => {
    const r = await gql(server, '{ __type(name: "Post") { fields { name type { name kind } args { name } } } }');
    const author = (r.body.data.__type.fields as { name: string; type: { name: string }; args: { name: string }[] }[]).find((f) => f.name === 'author');
    expect(author).toEqual({ name: 'author', type: { name: 'P_User', kind: 'OBJECT' }, args: [{ name: 'shout' }] });
  });

  it('passes the other remote\'s errors on, and keeps the rest of the answer', async () => {
    expect((await toPeople('editor', ['editor_id'], { user: { arguments: { id: '$editor_id' } } })).status).toBe(200);
    const r = await gql(server, '{ posts { id editor { name } } }');
    expect(r.body.data.posts).toEqual([
      { id: 1, editor: { name: 'bob' } }, { id: 2, editor: { name: 'bob' } }, { id: 3, editor: null }, { id: 4, editor: null },
    ]);
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual(['user 9 is hidden']);
  });

  it('joins on from the other remote\'s type to a table, and takes list arguments', async () => {
    expect((await md({ type: 'create_remote_schema_remote_relationship', args: { remote_schema: 'people', type_name: 'User', name: 'city',
      definition: { to_source: { source: 'default', table: 'cities', relationship_type: 'object', field_mapping: { city_id: 'id' } } } } })).status).toBe(200);
    expect((await toPeople('crew', ['author_id', 'editor_id'], { team: { arguments: { ids: ['$author_id', '$editor_id'] } } })).status).toBe(200);
    people.received.length = 0;
    const r = await gql(server, '{ posts { id author { name city { name } } crew { id } } }');
    expect(r.body).toEqual({ data: { posts: [
      { id: 1, author: { name: 'ann', city: { name: 'Lyon' } }, crew: [{ id: 1 }, { id: 2 }] },
      { id: 2, author: { name: 'bob', city: { name: 'Oslo' } }, crew: [{ id: 2 }] },
      { id: 3, author: { name: 'ann', city: { name: 'Lyon' } }, crew: null },
      { id: 4, author: null, crew: null },
    ] } });
    // One call per relationship: `author` and `crew` each call the remote once.
    expect(people.calls()).toHaveLength(2);
  });

  it('refuses what does not fit, changing nothing', async () => {
    const before = (await md({ type: 'export_metadata', args: {} })).body;
    const missingRemote = await toPeople('x', ['author_id'], { user: { arguments: { id: '$author_id' } } }, 'ghost');
    expect(missingRemote.body).toMatchObject({ code: 'not-exists', path: '$.args.definition.to_remote_schema.remote_schema' });
    const noField = await toPeople('x', ['author_id'], { nobody: { arguments: {} } });
    expect(noField.status).toBe(400);
    expect(noField.body.error).toContain('nobody');
    const noLhs = await toPeople('x', ['nope'], { user: { arguments: { id: '$nope' } } });
    expect(noLhs.body.error).toBe('Inconsistent object: field "nope" does not exist in type "Post"');
    const unbound = await toPeople('x', ['author_id'], { user: { arguments: { id: '$editor_id' } } });
    expect(unbound.body.error).toBe('Inconsistent object: the argument value "$editor_id" names a field that is not in lhs_fields');
    const empty = await toPeople('x', [], { user: { arguments: { id: 1 } } });
    expect(empty.body).toMatchObject({ code: 'parse-failed', path: '$.args.definition.to_remote_schema.lhs_fields' });
    expect((await toPeople('author', ['author_id'], { user: { arguments: { id: '$author_id' } } })).body).toMatchObject({ code: 'already-exists' });
    expect((await md({ type: 'export_metadata', args: {} })).body).toEqual(before);
    expect(before.remote_schemas.find((r: { name: string }) => r.name === 'forum').remote_relationships[0].relationships[0]).toEqual(
      { name: 'author', definition: { to_remote_schema: { remote_schema: 'people', lhs_fields: ['author_id'], remote_field: { user: { arguments: { id: '$author_id' } } } } } });
  });

  it('serves the same from a compiled bundle', async () => {
    const exported = (await md({ type: 'export_metadata', args: {} })).body as { sources: { configuration: unknown }[] };
    exported.sources[0]!.configuration = { connection_info: { database_url: { from_env: 'KILN_R2R_DB' } } };
    const dir = await mkdtemp(join(tmpdir(), 'kiln-r2r-'));
    try {
      await writeFile(join(dir, 'metadata.json'), JSON.stringify(exported));
      await compileCommand({ metadata: join(dir, 'metadata.json'), databaseUrl: db.url, out: join(dir, 'bundle'), quiet: true });
      const bundled = await serveCommand({ ...settings, bundle: join(dir, 'bundle') });
      try {
        const q = '{ posts { id author(shout: true) { name city { name } } crew { id } } }';
        const want = await gql(server, q);
        expect(want.body.data.posts[0]).toEqual({ id: 1, author: { name: 'ANN', city: { name: 'Lyon' } }, crew: [{ id: 1 }, { id: 2 }] });
        expect(await gql(bundled, q)).toEqual(want);
      } finally {
        await bundled.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to remove the other remote while a relationship calls it; delete takes the field away', async () => {
    const refused = await md({ type: 'remove_remote_schema', args: { name: 'people' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'dependency-error' });
    for (const name of ['author', 'editor', 'crew']) {
      expect((await md({ type: 'delete_remote_schema_remote_relationship', args: { remote_schema: 'forum', type_name: 'Post', name } })).status).toBe(200);
    }
    expect((await gql(server, '{ posts { author { name } } }')).body.errors[0].message).toBe('field "author" not found in type: \'Post\'');
    expect((await md({ type: 'remove_remote_schema', args: { name: 'people' } })).status).toBe(200);
  });
});
