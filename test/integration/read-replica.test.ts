// Read replicas against a real streaming replica (test/helpers/replica.ts: pg_basebackup and a
// second PostgreSQL on another port). Who answered is read from the database itself: a tracked
// view of pg_is_in_recovery() and inet_server_port(), and a column whose default is the port of
// the server that inserted the row. Queries come from the replica, mutations from the primary,
// a write shows up on the replica once replayed, and a stopped replica is skipped (the primary
// answers) and read again once it is back.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { replicaUnavailable, startReplica, waitFor, type Replica } from '../helpers/replica.js';
import { Client } from '../subscriptions/helpers.js';

const unavailable = await replicaUnavailable();
if (unavailable) console.warn(`read-replica tests skipped: ${unavailable}`);

const SETUP = `
  CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL, written_on int NOT NULL DEFAULT inet_server_port());
  CREATE VIEW whoami AS SELECT pg_is_in_recovery() AS in_recovery, inet_server_port() AS port;`;

interface Server { port: number; close(): Promise<void> }

async function gql(server: Server, query: string): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${server.port}/v1/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }),
  });
  return res.json();
}

const WHO = '{ whoami { in_recovery port } }';

describe.skipIf(unavailable !== null)('read replicas on a real streaming replica', () => {
  let db: TestDatabase;
  let replica: Replica | undefined;
  let dir: string | undefined;
  const servers: Server[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('replica', SETUP);
    replica = await startReplica();
    // The test database exists on the replica once the base backup has it (it was made after).
    await waitFor(async () => {
      const c = new pg.Client({ connectionString: replica!.url(db.name) });
      await c.connect();
      try { return (await c.query('SELECT pg_is_in_recovery() AS r')).rows[0].r === true ? true : undefined; } finally { await c.end(); }
    }, 60_000, 'the replica to answer');
  }, 240_000);
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    await replica?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
    await db?.drop();
  }, 120_000);

  it('serves a bundle: queries from the replica, mutations from the primary, writes readable once replayed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kiln-replica-bundle-'));
    const metadata = {
      version: 3,
      sources: [{
        name: 'default', kind: 'postgres',
        configuration: {
          connection_info: { database_url: db.url },
          read_replicas: [{ database_url: replica!.url(db.name), pool_settings: { max_connections: 3 } }],
        },
        tables: [{ table: { schema: 'public', name: 'note' } }, { table: { schema: 'public', name: 'whoami' } }],
      }],
    };
    await writeFile(join(dir, 'metadata.json'), JSON.stringify(metadata));
    await compileCommand({ metadata: join(dir, 'metadata.json'), databaseUrl: db.url, out: join(dir, 'bundle'), quiet: true });
    const server = await serveCommand({ bundle: join(dir, 'bundle'), databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1',
      pgConnections: 3, stringifyNumericTypes: false, console: false });
    servers.push(server);

    for (let i = 0; i < 5; i++) expect(await gql(server, WHO)).toEqual({ data: { whoami: [{ in_recovery: true, port: replica!.port }] } });
    const inserted = await gql(server, 'mutation { insert_note_one(object: {body: "first"}) { id written_on } }');
    expect(inserted).toEqual({ data: { insert_note_one: { id: 1, written_on: 5432 } } });
    // One statement: the rows and the server that read them come from the same connection.
    const seen = await waitFor(async () => {
      const r = await gql(server, '{ whoami { in_recovery } note { body written_on } }');
      return r.data?.note?.length === 1 ? r : undefined;
    }, 10_000, 'the insert to reach the replica');
    expect(seen).toEqual({ data: { whoami: [{ in_recovery: true }], note: [{ body: 'first', written_on: 5432 }] } });
  }, 60_000);

  it('polls live queries on the replica', async () => {
    const c = await Client.open(`ws://127.0.0.1:${servers[0]!.port}/v1/graphql`, 'graphql-transport-ws');
    try {
      await c.init({});
      c.send({ id: 'who', type: 'subscribe', payload: { query: 'subscription { whoami { in_recovery port } }' } });
      expect(await c.next((m) => m.id === 'who', 10_000)).toEqual({ id: 'who', type: 'next', payload: { data: { whoami: [{ in_recovery: true, port: replica!.port }] } } });
      c.send({ id: 'count', type: 'subscribe', payload: { query: 'subscription { note_aggregate { aggregate { count } } }' } });
      expect((await c.next((m) => m.id === 'count', 10_000)).payload).toEqual({ data: { note_aggregate: { aggregate: { count: 1 } } } });
      await gql(servers[0]!, 'mutation { insert_note_one(object: {body: "second"}) { id } }');
      // Written on the primary, seen by the live query once the replica has replayed it.
      expect((await c.next((m) => m.id === 'count', 10_000)).payload).toEqual({ data: { note_aggregate: { aggregate: { count: 2 } } } });
    } finally {
      c.close();
    }
  }, 30_000);

  it('answers from the primary while the replica is down, and from the replica again once it is back', async () => {
    const server = servers[0]!;
    await replica!.stop();
    for (let i = 0; i < 3; i++) expect(await gql(server, WHO)).toEqual({ data: { whoami: [{ in_recovery: false, port: 5432 }] } });
    expect(await gql(server, 'mutation { insert_note_one(object: {body: "while down"}) { written_on } }'))
      .toEqual({ data: { insert_note_one: { written_on: 5432 } } });
    await replica!.start();
    // The replica is tried again after its pause (1 s, doubling while it failed).
    const back = await waitFor(async () => {
      const r = await gql(server, '{ whoami { in_recovery port } note(order_by: {id: asc}) { body } }');
      return r.data?.whoami?.[0]?.in_recovery === true && r.data.note.length === 3 ? r : undefined;
    }, 40_000, 'reads from the replica again');
    expect(back).toEqual({ data: { whoami: [{ in_recovery: true, port: replica!.port }], note: [{ body: 'first' }, { body: 'second' }, { body: 'while down' }] } });
  }, 90_000);

  it('reads the default source from SVC_GRAPHQL_READ_REPLICA_URLS in catalog mode; the metadata API writes the primary', async () => {
    process.env.SVC_GRAPHQL_READ_REPLICA_URLS = replica!.url(db.name);
    let server: Server;
    try {
      server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 3,
        stringifyNumericTypes: false, console: false });
    } finally {
      delete process.env.SVC_GRAPHQL_READ_REPLICA_URLS;
    }
    servers.push(server);
    const track = await fetch(`http://127.0.0.1:${server.port}/v1/metadata`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'whoami' } }, { type: 'pg_track_table', args: { table: 'note' } }] }),
    });
    expect(track.status).toBe(200);
    expect(await gql(server, WHO)).toEqual({ data: { whoami: [{ in_recovery: true, port: replica!.port }] } });
    expect(await gql(server, 'mutation { insert_note_one(object: {body: "catalog"}) { written_on } }')).toEqual({ data: { insert_note_one: { written_on: 5432 } } });
  }, 60_000);
});
