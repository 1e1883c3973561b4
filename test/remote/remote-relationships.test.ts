// Remote relationships (issue 17): from a table to a table of another source (`to_source`, the
// target's permissions applied) and from a table to a remote schema (`to_remote_schema`, batched:
// one remote call per relationship field whatever the number of rows).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startRemote, type RemoteServer } from './remote-server.js';

const MESSAGES = [
  { id: 1, user_id: 1, text: 'hi' }, { id: 2, user_id: 1, text: 'again' }, { id: 3, user_id: 2, text: 'yo' },
];
const SDL = `
  type Query { messages(user_id: Int!, limit: Int, order: Order): [Message!]!  profile(where: ProfileWhere!): Profile }
  enum Order { asc desc }
  input ProfileWhere { id: Int! }
  type Profile { bio: String  inner: Inner }
  type Inner { deep(x: Int!): String }
  type Message { id: Int!  text: String! }`;
const ROOT = {
  messages: ({ user_id, limit, order }: { user_id: number; limit?: number; order?: string }) => {
    const rows = MESSAGES.filter((m) => m.user_id === user_id);
    const sorted = order === 'desc' ? [...rows].reverse() : rows;
    return sorted.slice(0, limit ?? 100);
  },
  profile: ({ where }: { where: { id: number } }) => ({ bio: `bio of ${where.id}`, inner: { deep: ({ x }: { x: number }) => `deep ${where.id}/${x}` } }),
};

describe('remote relationships', () => {
  let db: TestDatabase;
  let other: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  let remote: RemoteServer;
  const base = () => `http://127.0.0.1:${server.port}`;
  const md = (body: unknown) => postJson(base(), '/v1/metadata', body);
  const query = (body: unknown) => postJson(base(), '/v1/query', body);
  const gql = (q: string, variables?: unknown, headers: Record<string, string> = {}) => postJson(base(), '/v1/graphql', { query: q, variables }, headers);

  beforeAll(async () => {
    db = await createTestDatabase('rrel', `CREATE TABLE users (id int PRIMARY KEY, name text, team int);
      INSERT INTO users SELECT g, 'user' || g, g % 3 FROM generate_series(1, 100) g; INSERT INTO users VALUES (101, 'nobody', NULL);
      CREATE TABLE teams (id int PRIMARY KEY, lead int);  INSERT INTO teams VALUES (1, 1), (2, 2);`);
    other = await createTestDatabase('rrel2', `CREATE TABLE badges (id serial PRIMARY KEY, user_id int, label text, secret boolean DEFAULT false);
      INSERT INTO badges (user_id, label, secret) VALUES (1, 'gold', false), (1, 'silver', true), (2, 'bronze', false);
      CREATE TABLE team_info (id int PRIMARY KEY, motto text); INSERT INTO team_info VALUES (1, 'one'), (2, 'two');`);
    process.env.KILN_RREL_OTHER = other.url;
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
      stringifyNumericTypes: false, console: false });
    remote = await startRemote(SDL, ROOT);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
    await db?.drop();
    await other?.drop();
  });
  beforeEach(async () => {
    await md({ type: 'clear_metadata', args: {} });
    for (const t of ['users', 'teams']) expect((await md({ type: 'pg_track_table', args: { table: t } })).status).toBe(200);
    expect((await md({ type: 'pg_add_source', args: { name: 'other', configuration: { connection_info: { database_url: { from_env: 'KILN_RREL_OTHER' } } } } })).status).toBe(200);
    for (const t of ['badges', 'team_info']) expect((await md({ type: 'pg_track_table', args: { table: t, source: 'other' } })).status).toBe(200);
    expect((await md({ type: 'add_remote_schema', args: { name: 'forum', definition: { url: remote.url } } })).status).toBe(200);
    remote.received.length = 0;
  });

  const toSource = (name: string, type: 'object' | 'array', table: string, mapping: Record<string, string>, on = 'users') =>
    md({ type: 'pg_create_remote_relationship', args: { name, source: 'default', table: on,
      definition: { to_source: { relationship_type: type, source: 'other', table, field_mapping: mapping } } } });
  const toRemote = (name: string, remoteField: unknown, lhs = ['id'], on = 'users') =>
    md({ type: 'pg_create_remote_relationship', args: { name, source: 'default', table: on,
      definition: { to_remote_schema: { remote_schema: 'forum', lhs_fields: lhs, remote_field: remoteField } } } });

  it('joins a table of another source: object and array, join columns fetched but not returned, nested', async () => {
    expect(await toSource('badges', 'array', 'badges', { id: 'user_id' })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await toSource('info', 'object', 'team_info', { team: 'id' })).status).toBe(200);
    const r = await gql(`{ users(where: {id: {_in: [1, 2, 3, 101]}}, order_by: {id: asc}) {
      name info { __typename motto } badges(order_by: {id: desc}) { label } } }`);
    expect(r.body).toEqual({ data: { users: [
      { name: 'user1', info: { __typename: 'team_info', motto: 'one' }, badges: [{ label: 'silver' }, { label: 'gold' }] },
      { name: 'user2', info: { __typename: 'team_info', motto: 'two' }, badges: [{ label: 'bronze' }] },
      { name: 'user3', info: null, badges: [] },
      { name: 'nobody', info: null, badges: [] },
    ] } });
    // Under an object relationship of the same source too.
    expect((await md({ type: 'pg_create_object_relationship', args: { table: 'teams', name: 'leader', using: { manual_configuration: {
      remote_table: 'users', column_mapping: { lead: 'id' } } } } })).status).toBe(200);
    const n = await gql('{ teams(order_by: {id: asc}) { id leader { badges(where: {label: {_eq: "gold"}}) { label } } } }');
    expect(n.body).toEqual({ data: { teams: [{ id: 1, leader: { badges: [{ label: 'gold' }] } }, { id: 2, leader: { badges: [] } }] } });
  });

  it('applies the target table\'s permissions for a role', async () => {
    await toSource('badges', 'array', 'badges', { id: 'user_id' });
    expect((await md({ type: 'pg_create_select_permission', args: { table: 'users', role: 'user', permission: { columns: ['id', 'name'], filter: {} } } })).status).toBe(200);
    expect((await md({ type: 'pg_create_select_permission', args: { source: 'other', table: 'badges', role: 'user',
      permission: { columns: ['label', 'user_id'], filter: { secret: { _eq: false } } } } })).status).toBe(200);
    const r = await gql('{ users(where: {id: {_eq: 1}}) { badges { label } } }', undefined, { 'x-svc-role': 'user' });
    expect(r.body).toEqual({ data: { users: [{ badges: [{ label: 'gold' }] }] } });
  });

  it('joins a remote schema in one call for 100 rows, $column arguments, client arguments, nulls without a call', async () => {
    expect((await toRemote('messages', { messages: { arguments: { user_id: '$id', order: 'desc' } } })).status).toBe(200);
    remote.received.length = 0;
    const r = await gql('{ users(order_by: {id: asc}) { id messages(limit: 1) { text } } }');
    expect(r.status).toBe(200);
    const users = r.body.data.users as { id: number; messages: { text: string }[] }[];
    expect(users).toHaveLength(101);
    expect(users[0]).toEqual({ id: 1, messages: [{ text: 'again' }] });
    expect(users[1]).toEqual({ id: 2, messages: [{ text: 'yo' }] });
    expect(users[2]).toEqual({ id: 3, messages: [] });
    expect(remote.calls()).toHaveLength(1);
    const sent = remote.calls()[0]!.body.query;
    expect(sent.match(/messages\(/g)).toHaveLength(101);
    expect(sent).toContain('order: desc');
  });

  it('keeps the join column out of the answer unless asked, and gives null for a null key', async () => {
    expect((await toRemote('lead_msgs', { messages: { arguments: { user_id: '$lead' } } }, ['lead'], 'teams')).status).toBe(200);
    await db.exec('INSERT INTO teams VALUES (3, NULL)');
    try {
      const r = await gql('{ teams(order_by: {id: asc}) { lead_msgs { id } } }');
      expect(r.body).toEqual({ data: { teams: [{ lead_msgs: [{ id: 1 }, { id: 2 }] }, { lead_msgs: [{ id: 3 }] }, { lead_msgs: null }] } });
      expect(remote.calls()).toHaveLength(1);
    } finally {
      await db.exec('DELETE FROM teams WHERE id = 3');
    }
  });

  it('follows a nested remote_field path with input objects', async () => {
    expect((await toRemote('deep', { profile: { arguments: { where: { id: '$id' } }, field: { inner: { arguments: {}, field: { deep: { arguments: { x: 7 } } } } } } })).status).toBe(200);
    const r = await gql('{ users(where: {id: {_lte: 2}}, order_by: {id: asc}) { deep } }');
    expect(r.body).toEqual({ data: { users: [{ deep: 'deep 1/7' }, { deep: 'deep 2/7' }] } });
  });

  it('refuses a relationship to a missing remote field or remote schema, and remove_remote_schema while one is used', async () => {
    const bad = await toRemote('nope', { nothing: { arguments: {} } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('nothing');
    const missing = await md({ type: 'pg_create_remote_relationship', args: { name: 'x', table: 'users', definition: {
      to_remote_schema: { remote_schema: 'ghost', lhs_fields: ['id'], remote_field: { messages: { arguments: { user_id: '$id' } } } } } } });
    expect(missing.status).toBe(400);
    expect((await toRemote('messages', { messages: { arguments: { user_id: '$id' } } })).status).toBe(200);
    const rm = await md({ type: 'remove_remote_schema', args: { name: 'forum' } });
    expect(rm.status).toBe(400);
    expect(rm.body.code).toBe('dependency-error');
    expect((await md({ type: 'pg_delete_remote_relationship', args: { table: 'users', name: 'messages' } })).status).toBe(200);
    expect((await md({ type: 'remove_remote_schema', args: { name: 'forum' } })).status).toBe(200);
  });

  it('takes the legacy operations of /v1/query and exports the new form', async () => {
    const c = await query({ type: 'create_remote_relationship', args: { name: 'messages', table: 'users', hasura_fields: ['id'],
      remote_schema: 'forum', remote_field: { messages: { arguments: { user_id: '$id' } } } } });
    expect(c).toEqual({ status: 200, body: { message: 'success' } });
    const u = await query({ type: 'update_remote_relationship', args: { name: 'messages', table: 'users', hasura_fields: ['id'],
      remote_schema: 'forum', remote_field: { messages: { arguments: { user_id: '$id', limit: 1 } } } } });
    expect(u.status).toBe(200);
    const exported = (await md({ type: 'export_metadata', args: {} })).body;
    const users = exported.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'users');
    expect(users.remote_relationships).toEqual([{ name: 'messages', definition: { to_remote_schema: { remote_schema: 'forum', lhs_fields: ['id'],
      remote_field: { messages: { arguments: { user_id: '$id', limit: 1 } } } } } }]);
    expect((await gql('{ users(where: {id: {_eq: 1}}) { messages { id } } }')).body).toEqual({ data: { users: [{ messages: [{ id: 1 }] }] } });
    expect((await query({ type: 'delete_remote_relationship', args: { name: 'messages', table: 'users' } })).status).toBe(200);
  });
});
