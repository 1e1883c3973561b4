// REST endpoints over a real socket (reference/endpoints.md "REST endpoints"): variables from the
// path, the query string and the body (JSON or a form) coerced by their declared types; only the
// listed methods; the answer is `data` itself; permissions apply; the stored plan runs with no
// parse; /api/swagger/json describes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { as, SECRET, SETUP, startStored, type StoredKiln } from './stored-helpers.js';

let db: TestDatabase;
let kiln: StoredKiln;

beforeAll(async () => {
  db = await createTestDatabase('rest', SETUP);
  kiln = await startStored({ databaseUrl: db.url });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const ADMIN = { 'x-svc-admin-secret': SECRET };

async function call(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${kiln.url}${path}`, { ...init, headers: { ...ADMIN, ...init.headers } });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe('REST endpoints', () => {
  it('answers the data itself, with the permissions of the role', async () => {
    expect(await call('/api/rest/authors')).toMatchObject({ status: 200, body: { author: [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }, { id: 3, name: 'cyd' }] } });
    expect((await call('/api/rest/authors', { headers: as('user', { 'x-svc-user-id': '2' }) })).body).toEqual({ author: [{ id: 2, name: 'bob' }] });
  });

  it('takes a :param path segment, read as the variable\'s type (Int)', async () => {
    expect((await call('/api/rest/author/3')).body).toEqual({ author_by_pk: { id: 3, name: 'cyd' } });
    // bob is not public: the reader's filter applies.
    expect((await call('/api/rest/author/2', { headers: as('reader') })).body).toEqual({ author_by_pk: null });
    // The text reaches PostgreSQL as the column's value (Hasura's parsePGValue), which refuses it.
    const bad = await call('/api/rest/author/three');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('data-exception');
  });

  it('takes query-string variables, percent-decoded once', async () => {
    expect((await call('/api/rest/search?name=bob')).body).toEqual({ author: [{ id: 2, name: 'bob' }] });
    expect((await call('/api/rest/search?name=%61nn')).body).toEqual({ author: [{ id: 1, name: 'ann' }] });
    expect((await call('/api/rest/search?name=%2561nn')).body).toEqual({ author: [] });
  });

  it('reads a Boolean from the query string, a bare name as true', async () => {
    expect((await call('/api/rest/flag?public')).body).toEqual({ author: [{ name: 'ann' }, { name: 'cyd' }] });
    expect((await call('/api/rest/flag?public=false')).body).toEqual({ author: [{ name: 'bob' }] });
  });

  it('takes a JSON body\'s keys as they are, and a form body like a query string', async () => {
    const json = await call('/api/rest/search', { method: 'POST', body: JSON.stringify({ name: 'cyd' }), headers: { 'content-type': 'application/json' } });
    expect(json.body).toEqual({ author: [{ id: 3, name: 'cyd' }] });
    const form = await call('/api/rest/search', { method: 'POST', body: 'name=ann', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.body).toEqual({ author: [{ id: 1, name: 'ann' }] });
  });

  it('prefers the path over the query string over the body for the same name', async () => {
    const r = await call('/api/rest/articles/3?author=1', { method: 'POST', body: JSON.stringify({ title: 'p', author: 2 }), headers: { 'content-type': 'application/json' } });
    expect(r.body).toEqual({ insert_article_one: { title: 'p' } });
    expect(await db.query("SELECT author_id FROM article WHERE title = 'p'")).toEqual([{ author_id: 3 }]);
  });

  it('runs a mutation with each listed method', async () => {
    const put = await call('/api/rest/articles/1', { method: 'PUT', body: JSON.stringify({ title: 'by put' }), headers: { 'content-type': 'application/json' } });
    expect(put).toMatchObject({ status: 200, body: { insert_article_one: { title: 'by put' } } });
  });

  it('answers 405 with the allowed methods for a method not listed', async () => {
    const r = await call('/api/rest/search', { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ path: '$', error: 'Allowed methods: GET, POST', code: 'method-not-allowed' });
    expect(r.headers.get('allow')).toBe('GET, POST');
    expect((await call('/api/rest/articles/1')).body).toEqual({ path: '$', error: 'Allowed methods: POST, PUT', code: 'method-not-allowed' });
  });

  it('answers 404 for a path no template matches', async () => {
    for (const path of ['/api/rest/nothing', '/api/rest/author', '/api/rest/author/1/more', '/api/rest/authors/']) {
      const r = await call(path);
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ path: '$', error: 'Endpoint not found', code: 'not-found' });
    }
  });

  it('refuses a missing non-nullable variable as Hasura does', async () => {
    const r = await call('/api/rest/search');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ path: '$', error: 'expecting a value for non-nullable variable: "name"', code: 'validation-failed' });
  });

  it('answers a role without the root field with the error\'s status and path', async () => {
    const r = await call('/api/rest/authors', { headers: as('nobody') });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation-failed');
  });

  it('authenticates: a wrong admin secret is refused', async () => {
    const r = await call('/api/rest/authors', { headers: { 'x-svc-admin-secret': 'wrong' } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('access-denied');
  });

  it('runs the stored plan: no parse, validation or plan at request time', async () => {
    await call('/api/rest/search?name=ann');
    const before = kiln.engine.stats;
    expect((await call('/api/rest/search?name=bob')).body).toEqual({ author: [{ id: 2, name: 'bob' }] });
    expect((await call('/api/rest/author/1', { headers: as('reader') })).body).toEqual({ author_by_pk: { id: 1, name: 'ann' } });
    expect(kiln.engine.stats).toEqual(before);
  });
});

describe('GET /api/swagger/json', () => {
  it('describes every endpoint and method with its variables as parameters (admin)', async () => {
    const r = await call('/api/swagger/json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.0.0');
    expect(Object.keys(r.body.paths)).toEqual(['/api/rest/author/{id}', '/api/rest/articles/{author}', '/api/rest/authors', '/api/rest/flag',
      '/api/rest/search', '/api/rest/unlisted'].sort());
    expect(r.body.paths['/api/rest/author/{id}'].get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }]);
    expect(r.body.paths['/api/rest/search'].get.parameters).toEqual([{ name: 'name', in: 'query', required: true, schema: { type: 'string' } }]);
    expect(r.body.paths['/api/rest/search'].post.requestBody.content['application/json'].schema)
      .toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(Object.keys(r.body.paths['/api/rest/articles/{author}'])).toEqual(['post', 'put']);
  });

  it('is for admin only', async () => {
    const r = await call('/api/swagger/json', { headers: as('reader') });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ path: '$', error: 'restricted access : admin only', code: 'access-denied' });
  });
});
