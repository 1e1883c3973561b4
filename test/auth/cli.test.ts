// `kiln serve` with --jwt-secret / --auth-hook (and their SVC_GRAPHQL_* variables), run as users
// run it: the built command line as a child process, against a real database.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, freePort, kiln, post, serve } from '../cli/cli-helpers.js';
import { json, METADATA, SETUP, startHttpServer, type TestHttpServer } from './helpers.js';

const KEY = 'cli-test-hmac-key-that-is-long-enough-for-hs256';
const AUTHORS = '{ author(order_by: {id: asc}) { id } }';

let db: TestDatabase;
let dir: string;
let metadataFile: string;
let hook: TestHttpServer;

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('authcli', SETUP);
  dir = mkdtempSync(join(tmpdir(), 'kiln-auth-cli-'));
  metadataFile = join(dir, 'metadata.json');
  writeFileSync(metadataFile, JSON.stringify(METADATA));
  hook = await startHttpServer((req, _body, res) => {
    if (req.headers.authorization === 'Bearer ok') json(res, 200, { 'X-Svc-Role': 'user', 'X-Svc-User-Id': '3' });
    else json(res, 401, {});
  });
}, 180_000);
afterAll(async () => {
  await hook?.close();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const base = async (): Promise<string[]> => ['--metadata', metadataFile, '--database-url', db.url, '--host', '127.0.0.1', '--port', String(await freePort()), '--no-console'];

describe('kiln serve authentication flags', () => {
  it('serves JWT mode from --jwt-secret', async () => {
    const srv = await serve([...await base(), '--admin-secret', 'adm', '--jwt-secret', JSON.stringify({ type: 'HS256', key: KEY })]);
    try {
      const token = await new SignJWT({ 'https://svc.io/jwt/claims': { 'x-svc-allowed-roles': ['user'], 'x-svc-default-role': 'user', 'x-svc-user-id': '2' } })
        .setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1m').sign(new TextEncoder().encode(KEY));
      expect((await post(srv.base, { query: AUTHORS }, { authorization: `Bearer ${token}` })).body).toEqual({ data: { author: [{ id: 2 }] } });
      expect((await post(srv.base, { query: AUTHORS })).body.errors[0].extensions.code).toBe('invalid-headers');
      expect((await post(srv.base, { query: AUTHORS }, { 'x-svc-admin-secret': 'adm' })).body.data.author).toHaveLength(3);
    } finally {
      await srv.stop();
    }
  });

  it('serves webhook mode from --auth-hook', async () => {
    const srv = await serve([...await base(), '--admin-secret', 'adm', '--auth-hook', `${hook.url}/auth`, '--auth-hook-mode', 'GET']);
    try {
      expect((await post(srv.base, { query: AUTHORS }, { authorization: 'Bearer ok' })).body).toEqual({ data: { author: [{ id: 3 }] } });
      expect((await post(srv.base, { query: AUTHORS }, { authorization: 'Bearer no' })).body.errors[0].message).toBe('Authentication hook unauthorized this request');
    } finally {
      await srv.stop();
    }
  });

  it('refuses to start with a short HMAC key or JWT without an admin secret (exit 2, a clear message)', async () => {
    const short = await kiln(['serve', ...await base(), '--admin-secret', 'adm', '--jwt-secret', '{"type":"HS256","key":"short"}']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('kiln: JWT secret (--jwt-secret / SVC_GRAPHQL_JWT_SECRET): the HS256 key must be at least 32 characters long (it has 5)');
    const unsecured = await kiln(['serve', ...await base()], { env: { SVC_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: KEY }) } });
    expect(unsecured.code).toBe(2);
    expect(unsecured.stderr).toContain('--jwt-secret (SVC_GRAPHQL_JWT_SECRET) requires --admin-secret (SVC_GRAPHQL_ADMIN_SECRET) to be set');
  });
});
