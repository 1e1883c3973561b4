// Relationships from a remote schema's type to tables (issue 17, create_remote_schema_remote_relationship
// with to_source): the field on the remote type (customized names), the join fields asked of the
// remote even when not selected and not returned, one query of the table for every object of the
// answer, the table's permissions for the role, null join values giving null, errors of the
// metadata operations, and the same answers from a compiled bundle.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startRemote, type RemoteServer } from './remote-server.js';

const SDL = `
  type Query { posts: [Post!]!  post(id: Int!): Post }
  type Post { id: Int!  author_id: Int  title: String! }`;
const POSTS = [{ id: 1, author_id: 1, title: 'one' }, { id: 2, author_id: 2, title: 'two' }, { id: 3, author_id: null, title: 'three' }];
const ROOT = { posts: () => POSTS, post: ({ id }: { id: number }) => POSTS.find((p) => p.id === id) ?? null };

type Server = { port: number; close(): Promise<void> };
const settings = { dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false };

describe('relationships from a remote schema to tables', () => {
  let db: TestDatabase;
  let remote: RemoteServer;
  let server: Server;
  const base = () => `http://127.0.0.1:${server.port}`;
  const md = (body: unknown) => postJson(base(), '/v1/metadata', body);
  const gql = (s: Server, query: string, headers: Record<string, string> = {}) => postJson(`http://127.0.0.1:${s.port}`, '/v1/graphql', { query }, headers);
  const rel = (name: string, table: string, type: 'object' | 'array', mapping: Record<string, string>, typeName = 'Post') =>
    md({ type: 'create_remote_schema_remote_relationship', args: { remote_schema: 'forum', type_name: typeName, name,
      definition: { to_source: { source: 'default', table, relationship_type: type, field_mapping: mapping } } } });

  beforeAll(async () => {
    db = await createTestDatabase('remotebundle_srel', `CREATE TABLE authors (id int PRIMARY KEY, name text, secret boolean DEFAULT false);
      INSERT INTO authors VALUES (1, 'ann', false), (2, 'bob', true);
      CREATE TABLE likes (id serial PRIMARY KEY, post_id int, who text);
      INSERT INTO likes (post_id, who) VALUES (1, 'zed'), (1, 'amy'), (2, 'kim');
      CREATE TABLE readers (id int PRIMARY KEY, post_id int); INSERT INTO readers VALUES (10, 1), (11, 3);`);
    process.env.KILN_SREL_DB = db.url;
    remote = await startRemote(SDL, ROOT);
    server = await serveCommand({ ...settings, databaseUrl: db.url });
    for (const t of ['authors', 'likes', 'readers']) expect((await md({ type: 'pg_track_table', args: { table: t } })).status).toBe(200);
    expect((await md({ type: 'pg_create_select_permission', args: { table: 'authors', role: 'user', permission: { columns: ['id', 'name'], filter: { secret: { _eq: false } } } } })).status).toBe(200);
    expect((await md({ type: 'add_remote_schema', args: { name: 'forum', definition: { url: remote.url,
      customization: { type_names: { prefix: 'F_' }, field_names: [{ parent_type: 'Post', mapping: { author_id: 'writer' } }] } } } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
    await db?.drop();
  });

  it('joins each object of the remote answer to its rows, in one remote call and the join fields hidden', async () => {
    expect(await rel('author', 'authors', 'object', { author_id: 'id' })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await rel('likes', 'likes', 'array', { id: 'post_id' })).toEqual({ status: 200, body: { message: 'success' } });
    remote.received.length = 0;
    const r = await gql(server, '{ posts { __typename title author { name } likes(order_by: {who: asc}) { who } } one: post(id: 2) { ... on F_Post { writer author { id } } } }');
    expect(r.body).toEqual({ data: {
      posts: [
        { __typename: 'F_Post', title: 'one', author: { name: 'ann' }, likes: [{ who: 'amy' }, { who: 'zed' }] },
        { __typename: 'F_Post', title: 'two', author: { name: 'bob' }, likes: [{ who: 'kim' }] },
        { __typename: 'F_Post', title: 'three', author: null, likes: [] },
      ],
      one: { writer: 2, author: { id: 2 } },
    } });
    expect(remote.calls()).toHaveLength(1);
    const sent = remote.calls()[0]!.body.query;
    expect(sent).not.toMatch(/\bauthor\s*\{|likes/);
    expect(sent).toMatch(/kiln__rj\d+_0: author_id/);
  });

  it('applies the table\'s permissions for the role, and shows the field only to roles that may select the table and its join columns', async () => {
    const r = await gql(server, '{ posts { title author { name } } }', { 'x-svc-role': 'user' });
    expect(r.body).toEqual({ data: { posts: [{ title: 'one', author: { name: 'ann' } }, { title: 'two', author: null }, { title: 'three', author: null }] } });
    const likes = await gql(server, '{ posts { likes { who } } }', { 'x-svc-role': 'user' });
    expect(likes.body.errors[0].message).toBe('field "likes" not found in type: \'F_Post\'');
  });

  it('refuses a relationship that does not fit, and a name taken; delete takes the field away', async () => {
    const noType = await rel('x', 'authors', 'object', { author_id: 'id' }, 'Nope');
    expect(noType.status).toBe(400);
    expect(noType.body.error).toBe('Inconsistent object: object type "Nope" does not exist in remote schema "forum"');
    const noField = await rel('x', 'authors', 'object', { nope: 'id' });
    expect(noField.body.error).toBe('Inconsistent object: field "nope" does not exist in type "Post"');
    const noColumn = await rel('x', 'authors', 'object', { author_id: 'nope' });
    expect(noColumn.body.error).toBe('Inconsistent object: column "nope" does not exist in table "authors"');
    const clash = await rel('title', 'authors', 'object', { author_id: 'id' });
    expect(clash.body.error).toBe('Inconsistent object: field with name "title" already exists in type "Post"');
    expect((await rel('author', 'authors', 'object', { author_id: 'id' })).body).toMatchObject({ code: 'already-exists' });
    const untracked = await rel('x', 'nothere', 'object', { author_id: 'id' });
    expect(untracked.body).toMatchObject({ code: 'not-exists', path: '$.args.definition.to_source.table' });
    const exported = await md({ type: 'export_metadata', args: {} });
    expect(exported.body.remote_schemas[0].remote_relationships).toEqual([{ type_name: 'Post', relationships: [
      { name: 'author', definition: { to_source: { source: 'default', table: { schema: 'public', name: 'authors' }, relationship_type: 'object', field_mapping: { author_id: 'id' } } } },
      { name: 'likes', definition: { to_source: { source: 'default', table: { schema: 'public', name: 'likes' }, relationship_type: 'array', field_mapping: { id: 'post_id' } } } },
    ] }]);
  });

  it('serves the same from a compiled bundle', async () => {
    const exported = (await md({ type: 'export_metadata', args: {} })).body as { sources: { configuration: unknown }[] };
    exported.sources[0]!.configuration = { connection_info: { database_url: { from_env: 'KILN_SREL_DB' } } };
    const dir = await mkdtemp(join(tmpdir(), 'kiln-srel-'));
    try {
      await writeFile(join(dir, 'metadata.json'), JSON.stringify(exported));
      await compileCommand({ metadata: join(dir, 'metadata.json'), databaseUrl: db.url, out: join(dir, 'bundle'), quiet: true });
      const bundled = await serveCommand({ ...settings, bundle: join(dir, 'bundle') });
      try {
        for (const [q, h] of [['{ posts { title author { name } likes(order_by: {who: desc}) { who } } }', {}], ['{ posts { author { name } } }', { 'x-svc-role': 'user' }]] as const) {
          const want = await gql(server, q, h);
          expect(want.body.data.posts).toHaveLength(3);
          expect(await gql(bundled, q, h)).toEqual(want);
        }
      } finally {
        await bundled.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('joins inside a table\'s relationship to the remote too', async () => {
    expect((await md({ type: 'pg_create_remote_relationship', args: { name: 'post', source: 'default', table: 'readers',
      definition: { to_remote_schema: { remote_schema: 'forum', lhs_fields: ['post_id'], remote_field: { post: { arguments: { id: '$post_id' } } } } } } })).status).toBe(200);
    remote.received.length = 0;
    const r = await gql(server, '{ readers(order_by: {id: asc}) { id post { title ...A likes(order_by: {who: asc}) { who } } } } fragment A on F_Post { author { name } }');
    expect(r.body).toEqual({ data: { readers: [
      { id: 10, post: { title: 'one', author: { name: 'ann' }, likes: [{ who: 'amy' }, { who: 'zed' }] } },
      { id: 11, post: { title: 'three', author: null, likes: [] } },
    ] } });
    expect(remote.calls()).toHaveLength(1);
    expect(remote.calls()[0]!.body.query).not.toMatch(/\bauthor\s*\{|likes/);
  });

  it('untracking the table is refused while a relationship uses it, and takes it along when cascaded', async () => {
    const refused = await md({ type: 'pg_untrack_table', args: { table: 'likes' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'dependency-error' });
    expect(refused.body.error).toContain('remote_schema_remote_relationship likes on type Post in remote schema forum');
    expect((await md({ type: 'pg_untrack_table', args: { table: 'likes', cascade: true } })).status).toBe(200);
    const exported = await md({ type: 'export_metadata', args: {} });
    expect(exported.body.remote_schemas[0].remote_relationships[0].relationships.map((x: { name: string }) => x.name)).toEqual(['author']);
    expect((await md({ type: 'pg_track_table', args: { table: 'likes' } })).status).toBe(200);
    expect((await rel('likes', 'likes', 'array', { id: 'post_id' })).status).toBe(200);
  });

  it('delete_remote_schema_remote_relationship takes the field away', async () => {
    expect(await md({ type: 'delete_remote_schema_remote_relationship', args: { remote_schema: 'forum', type_name: 'Post', name: 'likes' } }))
      .toEqual({ status: 200, body: { message: 'success' } });
    expect((await gql(server, '{ posts { likes { who } } }')).body.errors[0].message).toBe('field "likes" not found in type: \'F_Post\'');
    expect((await md({ type: 'delete_remote_schema_remote_relationship', args: { remote_schema: 'forum', type_name: 'Post', name: 'likes' } })).body)
      .toMatchObject({ code: 'not-exists' });
  });
});
