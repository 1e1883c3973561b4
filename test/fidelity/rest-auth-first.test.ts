// A REST endpoint call is authenticated before its path and method are looked up, as Hasura's:
// mkSpockAction resolves the UserInfo first and Server/Rest.hs runCustomEndpoint, given it, then
// answers 404 "Endpoint not found" or 405 "Allowed methods: ...". Hasura's validate.py
// (test_forbidden_when_admin_secret_reqd, test_forbidden_webhook) POSTs every REST case, among
// them test_endpoints.py test_simple_endpoint_wrong_method, with no or a wrong credential and
// expects 401 (or 404), never the 405 the admin gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { SECRET, SETUP, startStored, type StoredKiln } from '../server/stored-helpers.js';

let db: TestDatabase;
let kiln: StoredKiln;
beforeAll(async () => {
  db = await createTestDatabase('fidrestauth', SETUP);
  kiln = await startStored({ databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

async function call(path: string, method: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${kiln.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(method === 'GET' ? {} : { body: 'null' }) });
  return { status: res.status, body: await res.json() };
}

const missing = { path: '$', error: 'x-svc-admin-secret/x-svc-access-key required, but not found', code: 'access-denied' };
const invalid = { path: '$', error: 'invalid x-svc-admin-secret/x-svc-access-key', code: 'access-denied' };

describe('a REST call without valid credentials', () => {
  it('is refused (401) before its method is checked', async () => {
    expect(await call('/api/rest/search', 'DELETE', {})).toEqual({ status: 401, body: missing });
    expect(await call('/api/rest/authors', 'POST', { 'x-svc-admin-secret': 'wrong' })).toEqual({ status: 401, body: invalid });
  });

  it('is refused (401) where no endpoint matches', async () => {
    expect(await call('/api/rest/no/such/endpoint', 'POST', {})).toEqual({ status: 401, body: missing });
  });

  it('gets the 405 and 404 once authenticated', async () => {
    const admin = { 'x-svc-admin-secret': SECRET };
    expect(await call('/api/rest/search', 'DELETE', admin)).toEqual({ status: 405, body: { path: '$', error: 'Allowed methods: GET, POST', code: 'method-not-allowed' } });
    expect(await call('/api/rest/no/such/endpoint', 'POST', admin)).toEqual({ status: 404, body: { path: '$', error: 'Endpoint not found', code: 'not-found' } });
  });
});
