// A WebSocket authenticated with a JWT closes when the token expires (reference/auth.md), in each
// protocol's way; a token with a later expiry keeps its connection.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAuthenticator, parseJwtConfig } from '../../runtime/auth/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, sleep, startSubsServer, type SubsServer } from './helpers.js';

const KEY = 'a-test-key-that-is-at-least-thirty-two-characters-long';
const METADATA = {
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {}, tables: [{
    table: { schema: 'public', name: 'note' },
    select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }],
  }] }],
};

async function token(expiresInSeconds: number): Promise<string> {
  return new SignJWT({ 'https://svc.io/jwt/claims': { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '1' } })
    .setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(new TextEncoder().encode(KEY));
}

let db: TestDatabase;
let kiln: SubsServer;

beforeAll(async () => {
  db = await createTestDatabase('subs_expiry', 'CREATE TABLE note (id int PRIMARY KEY, owner int NOT NULL); INSERT INTO note VALUES (1, 1);');
  const jwt = await createJwtAuthenticator([parseJwtConfig(JSON.stringify({ type: 'HS256', key: KEY }))]);
  kiln = await startSubsServer({ metadata: METADATA, databaseUrl: db.url, adminSecret: 'secret', authenticators: [jwt] });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

describe('JWT expiry on a WebSocket', () => {
  it('closes a graphql-transport-ws connection with 4403 when the token expires', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init({ authorization: `Bearer ${await token(2)}` });
    c.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { note { id } }' } });
    expect((await c.next((m) => m.id === '1')).type).toBe('next');
    const closed = await c.waitClosed(4000);
    expect(closed).toEqual({ code: 4403, reason: 'Forbidden: Could not verify JWT: JWTExpired' });
  });

  it('sends connection_error then closes a legacy graphql-ws connection', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-ws');
    await c.init({ authorization: `Bearer ${await token(2)}` });
    const error = await c.next((m) => m.type === 'connection_error', 4000);
    expect(error.payload).toBe('Could not verify JWT: JWTExpired');
    expect((await c.waitClosed()).code).toBe(1000);
  });

  it('keeps a connection whose token is still valid', async () => {
    const c = await Client.open(kiln.wsUrl, 'graphql-transport-ws');
    await c.init({ authorization: `Bearer ${await token(3600)}` });
    await sleep(2500);
    expect(c.closed).toBeNull();
    c.close();
  });
});
