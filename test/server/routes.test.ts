import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, start, type Running } from './helpers.js';

const NOT_FOUND = { path: '$', error: 'resource does not exist', code: 'not-found' };

describe('service routes', () => {
  let srv: Running;
  beforeAll(async () => { srv = await start(); });
  afterAll(async () => { await srv.close(); });

  it('answers /healthz and /svc/healthz with plain OK', async () => {
    for (const path of ['/healthz', '/svc/healthz']) {
      const res = await fetch(srv.url(path));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe('OK');
    }
  });

  it('answers /v1/version with the version', async () => {
    const res = await fetch(srv.url('/v1/version'));
    expect(await res.json()).toEqual({ version: 'v-test', server_type: 'ce' });
  });

  it('answers an unknown path with 404 not-found', async () => {
    const res = await fetch(srv.url('/v1/nothing?x=1'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_FOUND);
  });

  it('answers a wrong method on a known path with 405 and the allowed methods', async () => {
    const res = await fetch(srv.url('/v1/metadata'));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ path: '$', error: 'Allowed methods: POST', code: 'method-not-allowed' });
    const put = await fetch(srv.url('/v1/graphql'), { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
  });

  it('answers the not-yet-built metadata API with not-supported', async () => {
    for (const path of ['/v1/metadata', '/v1/query', '/v2/query']) {
      const res = await post(srv.url(path), { type: 'export_metadata', args: {} });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('not-supported');
    }
  });

  it('hands management calls to the handler when one is given', async () => {
    const managed = await start({
      management: async ({ path, body, session }) => ({ status: 200, body: JSON.stringify({ path, body, role: session.role }) }),
    });
    try {
      const res = await post(managed.url('/v2/query'), { type: 'run_sql', args: { sql: 'select 1' } });
      expect(await res.json()).toEqual({ path: '/v2/query', body: { type: 'run_sql', args: { sql: 'select 1' } }, role: 'admin' });
      const bad = await post(managed.url('/v1/metadata'), '{oops');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { code: string }).code).toBe('invalid-json');
    } finally {
      await managed.close();
    }
  });

  it('answers a CORS preflight for any origin', async () => {
    const res = await fetch(srv.url('/v1/graphql'), {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-headers': 'x-svc-role, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-svc-role, content-type');
  });
});

describe('enabled APIs', () => {
  it('answers a disabled group with 404 and keeps health and version', async () => {
    const srv = await start({ enabledApis: ['metadata'] });
    try {
      const gql = await post(srv.url('/v1/graphql'), { query: '{ a }' });
      expect(gql.status).toBe(404);
      expect(await gql.json()).toEqual(NOT_FOUND);
      expect((await fetch(srv.url('/healthz'))).status).toBe(200);
      expect((await fetch(srv.url('/v1/version'))).status).toBe(200);
      expect((await post(srv.url('/v1/metadata'), {})).status).toBe(400);
    } finally {
      await srv.close();
    }
  });

  it('reports the health the runtime gives', async () => {
    const srv = await start({ health: () => 'warn' });
    try {
      const res = await fetch(srv.url('/healthz'));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('WARN: inconsistent objects in schema');
    } finally {
      await srv.close();
    }
  });
});

describe('console', () => {
  let dir: string;
  let srv: Running;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kiln-console-'));
    writeFileSync(join(dir, 'console.js'), script);
    writeFileSync(join(dir, 'console.css'), 'body { color: black }\n');
    srv = await start({ consoleEnabled: true, consoleAssetsDir: dir, adminSecret: 'k' });
  });
  afterAll(async () => { await srv.close(); rmSync(dir, { recursive: true, force: true }); });

  it('serves a GraphiQL page that loads only local files and posts to /v1/graphql', async () => {
    const res = await fetch(srv.url('/console'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('src="/console/assets/console.js"');
    expect(html).toContain('href="/console/assets/console.css"');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/src="\/\//);
    const config = JSON.parse(/<script id="kiln-console-config" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as
      { endpoint: string; defaultQuery: string; defaultHeaders: string };
    expect(config.endpoint).toBe('/v1/graphql');
    expect(config.defaultQuery).toContain('artist(limit: 5)');
    expect(JSON.parse(config.defaultHeaders)).toEqual({ 'x-svc-admin-secret': '' });
    // Its icon is served by the server itself, built files or not.
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="/console/assets/favicon.svg">');
    const icon = await fetch(srv.url('/console/assets/favicon.svg'));
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">.*<\/svg>\n$/s);
    // Console sub-routes are the same single page; "/" leads to it.
    expect((await fetch(srv.url('/console/api-explorer'))).status).toBe(200);
    const root = await fetch(srv.url('/'), { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console');
  });

  it('serves its assets with their content type, gzip when accepted, and 304 on a matching etag', async () => {
    const plain = await request(srv.url('/console/assets/console.js'));
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(await plain.body.text()).toBe(script);
    const zipped = await request(srv.url('/console/assets/console.js'), { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.body.arrayBuffer())).toString()).toBe(script);
    const etag = String(plain.headers.etag);
    const again = await request(srv.url('/console/assets/console.js'), { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    await again.body.dump();
    const css = await fetch(srv.url('/console/assets/console.css'));
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(srv.url('/console/assets/%2e%2e%2fpackage.json'))).status).toBe(404);
    expect((await fetch(srv.url('/console/assets/missing.js'))).status).toBe(404);
  });

  it('is absent when disabled', async () => {
    const off = await start({ consoleEnabled: false });
    try {
      expect((await fetch(off.url('/console'))).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
