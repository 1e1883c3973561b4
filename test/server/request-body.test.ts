// Request bodies over a real socket to a real `kiln serve` process: a request is authenticated
// from its headers before its body is read (refused unread, whatever it declares), a declared
// Content-Length over the cap is refused before anything is read, a body that passes the cap while
// it streams is refused with 413 and a JSON error, and the server's memory does not grow by the
// sizes of the bodies it refused.

import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createWebhookAuthenticator, resolveSessionBeforeBody } from '../../runtime/auth/index.js';
import { ensureBuilt, freePort, serve, type Served } from '../cli/cli-helpers.js';

const SECRET = 'body-secret';
const CAP = 1024 * 1024;
let db: TestDatabase;
let server: Served;
let port: number;

interface Reply { status: number; headers: string; body: string; closed: boolean }

/**
 * Sends a request head, then `bodyBytes` of body in 64 KiB chunks (or none), and resolves with the
 * reply as soon as it is complete, whatever part of the body the server took.
 */
function request(path: string, headers: Record<string, string>, bodyBytes: number, o: { chunked?: boolean; send?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) { if (closed) { done = true; reject(new Error(`no reply: ${text}`)); } return; }
      const head = text.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (text.length - end - 4 < length && !closed) return;
      done = true;
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: text.slice(end + 4, end + 4 + length), closed });
      socket.destroy();
    };
    socket.on('data', (d: Buffer) => { data = Buffer.concat([data, d]); finish(false); });
    socket.on('close', () => finish(true));
    socket.on('error', () => { /* the server hung up while we were still sending: expected */ });
    const framing = o.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(bodyBytes) };
    const lines = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', ...framing, ...headers }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    if (o.send === false) return;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (!done && !socket.destroyed && sent < bodyBytes) {
        const n = Math.min(chunk.length, bodyBytes - sent);
        sent += n;
        const piece = o.chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), chunk.subarray(0, n), Buffer.from('\r\n')]) : chunk.subarray(0, n);
        if (!socket.write(piece)) { socket.once('drain', pump); return; }
      }
      if (!done && !socket.destroyed && o.chunked && sent >= bodyBytes) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

beforeAll(async () => {
  await ensureBuilt();
  db = await createTestDatabase('req_body', 'SELECT 1');
  port = await freePort();
  server = await serve(['--database-url', db.url, '--port', String(port), '--host', '127.0.0.1', '--admin-secret', SECRET,
    '--max-request-body-bytes', String(CAP)], { readyMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe('request bodies', () => {
  it.each(['/v1/graphql', '/v1/metadata', '/v1/graphql/explain'])('%s refuses an unauthenticated request from its headers, without waiting for its body', async (path) => {
    // 1000 bytes declared, none sent: an answer can only come before the body was read.
    const r = await request(path, {}, 1000, { send: false });
    expect([200, 401]).toContain(r.status);
    expect(JSON.stringify(JSON.parse(r.body))).toContain('access-denied');
  });

  it('refuses a declared Content-Length over the cap before reading anything (413, JSON)', async () => {
    const message = `request body exceeds ${CAP} bytes (SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES)`;
    const metadata = await request('/v1/metadata', { 'x-svc-admin-secret': SECRET }, 100 * CAP, { send: false });
    expect(metadata.status).toBe(413);
    expect(JSON.parse(metadata.body)).toEqual({ path: '$', code: 'bad-request', error: message });
    const graphql = await request('/v1/graphql', { 'x-svc-admin-secret': SECRET }, 100 * CAP, { send: false });
    expect(graphql.status).toBe(413);
    expect(JSON.parse(graphql.body)).toEqual({ errors: [{ message, extensions: { path: '$', code: 'bad-request' } }] });
  });

  it('refuses a chunked body while it streams, once it passes the cap (413, JSON)', async () => {
    const r = await request('/v1/graphql', { 'x-svc-admin-secret': SECRET }, 40 * CAP, { chunked: true });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).errors[0].extensions.code).toBe('bad-request');
  });

  it('still serves bodies under the cap', async () => {
    const query = JSON.stringify({ query: '{ __typename }' });
    const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body: query, headers: { 'x-svc-admin-secret': SECRET } });
    expect(await res.json()).toEqual({ data: { __typename: 'query_root' } });
  });

  it('ten unauthenticated 45 MB bodies at once do not grow the server by their size', async () => {
    // The cap is 1 MiB here, so the bodies declare no length (chunked) to get past the declared-length check:
    // they are refused by authentication alone.
    const before = rssBytes(server.pid);
    const replies = await Promise.all(Array.from({ length: 10 }, () => request('/v1/metadata', {}, 45 * 1024 * 1024, { chunked: true })));
    for (const r of replies) expect(r.status).toBe(401);
    const after = rssBytes(server.pid);
    expect(after - before).toBeLessThan(40 * 1024 * 1024);
    process.stderr.write(`server RSS: ${(before / 2 ** 20).toFixed(0)} MiB before, ${(after / 2 ** 20).toFixed(0)} MiB after ten refused 45 MB bodies\n`);
    // Authenticated bodies over the cap: refused at the cap, nothing kept.
    const capped = await Promise.all(Array.from({ length: 10 }, () => request('/v1/metadata', { 'x-svc-admin-secret': SECRET }, 45 * 1024 * 1024, { chunked: true })));
    for (const r of capped) expect(r.status).toBe(413);
    const last = rssBytes(server.pid);
    expect(last - before).toBeLessThan(60 * 1024 * 1024);
    process.stderr.write(`server RSS: ${(last / 2 ** 20).toFixed(0)} MiB after ten more authenticated ones refused at the ${CAP}-byte cap\n`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  }, 60_000);
});

describe('which modes authenticate before the body', () => {
  // The hook is never called here: the URL is closed, so a call would fail the test.
  const hook = (mode: 'GET' | 'POST') => createWebhookAuthenticator({ url: 'http://127.0.0.1:1/hook', mode });

  it('the auth webhook in POST mode must see the body (unless the admin secret is sent); every other mode decides from the headers', async () => {
    const post = { adminSecret: SECRET, authenticators: [hook('POST')] };
    expect(await resolveSessionBeforeBody({}, post)).toBeNull();
    expect(await resolveSessionBeforeBody({ 'x-svc-admin-secret': SECRET }, post)).toMatchObject({ role: 'admin' });
    await expect(resolveSessionBeforeBody({ 'x-svc-admin-secret': 'wrong' }, post)).rejects.toMatchObject({ code: 'access-denied', status: 401 });
    await expect(resolveSessionBeforeBody({}, { adminSecret: SECRET })).rejects.toMatchObject({ code: 'access-denied', status: 401 });
    expect(await resolveSessionBeforeBody({}, { adminSecret: SECRET, unauthorizedRole: 'anonymous' })).toMatchObject({ role: 'anonymous' });
    // GET mode calls the hook with the headers alone (here it fails: nothing listens), before any body.
    await expect(resolveSessionBeforeBody({}, { adminSecret: SECRET, authenticators: [hook('GET')] })).rejects.toMatchObject({ code: 'unexpected' });
  });
});
