// webhook-log lines of a failing auth webhook, in Hasura's WebHookLog shape (Server/Logging.hs),
// as userInfoFromAuthHook writes them (Server/Auth/WebHook.hs): a real hook on 127.0.0.1 answering
// what the request's x-test-answer asks, and the server's stdout read back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postJson } from '../helpers/http.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { captureLogLines } from '../helpers/log-lines.js';

const lines: string[] = [];
let hook: Server;
let kiln: ServedDatabase;
let hookUrl: string;

beforeAll(async () => {
  captureLogLines(lines);
  hook = createServer((req, res) => {
    const answer = req.headers['x-test-answer'];
    if (answer === 'crash') { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('hook crashed'); return; }
    if (answer === 'deny') { res.writeHead(401); res.end(); return; }
    if (answer === 'list') { res.writeHead(200, { 'content-type': 'application/json' }); res.end('["user"]'); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ 'X-Svc-Role': 'user' }));
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/auth`;
  const saved = process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
  process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = 'startup,webhook-log';
  try {
    kiln = await serveDatabase('hooklog', '', { adminSecret: 'hook-log-secret', authHook: hookUrl });
  } finally {
    if (saved === undefined) delete process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
    else process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = saved;
  }
});

afterAll(async () => {
  await kiln?.close();
  await new Promise((r) => hook?.close(r));
  vi.restoreAllMocks();
});

async function webhookLines(count: number): Promise<any[]> {
  for (let i = 0; i < 50; i++) {
    const found = lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'webhook-log');
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'webhook-log');
}

describe('webhook-log', () => {
  it('logs an answer neither 200 nor 401 with its status and body, and a 200 that is no session map with the reason', async () => {
    const crashed = await postJson(kiln.url, '/v1/graphql', { query: '{ __typename }' }, { 'x-test-answer': 'crash' });
    expect(crashed.body.errors[0].message).toBe('Invalid response from authorization hook');
    const first = await webhookLines(1);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ level: 'error', detail: { status_code: 500, url: hookUrl, method: 'GET', http_error: null, response: 'hook crashed', message: null } });
    await postJson(kiln.url, '/v1/graphql', { query: '{ __typename }' }, { 'x-test-answer': 'list' });
    const second = await webhookLines(2);
    expect(second[1].detail).toMatchObject({ status_code: 200, response: '["user"]' });
    expect(second[1].detail.message).toContain('parsing HashMap ~Text failed');
  });

  it('writes no line for a hook that answers a session or denies the request (401)', async () => {
    const before = (await webhookLines(0)).length;
    expect((await postJson(kiln.url, '/v1/graphql', { query: '{ __typename }' }, { 'x-test-answer': 'ok' })).body.data).toBeDefined();
    const denied = await postJson(kiln.url, '/v1/graphql', { query: '{ __typename }' }, { 'x-test-answer': 'deny' });
    expect(denied.body.errors[0].extensions.code).toBe('access-denied');
    await new Promise((r) => setTimeout(r, 100));
    expect((await webhookLines(0)).length).toBe(before);
  });

  it('logs a call that did not complete with its http_error', async () => {
    const saved = process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
    process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = 'webhook-log';
    // A port nothing listens on: the hook server's, once it is closed for this server.
    const idle = createServer();
    await new Promise<void>((r) => idle.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(idle.address() as AddressInfo).port}/auth`;
    await new Promise((r) => idle.close(r));
    let other: ServedDatabase | undefined;
    try {
      other = await serveDatabase('hooklog2', '', { adminSecret: 'hook-log-secret', authHook: deadUrl });
      const res = await postJson(other.url, '/v1/graphql', { query: '{ __typename }' });
      expect(res.body.errors[0].message).toBe('webhook authentication request failed');
      let line: any;
      for (let i = 0; i < 50 && !line; i++) {
        line = lines.map((l) => JSON.parse(l)).find((l) => l.type === 'webhook-log' && l.detail.url === deadUrl);
        if (!line) await new Promise((r) => setTimeout(r, 20));
      }
      expect(line.detail).toMatchObject({ status_code: null, method: 'GET', response: null, message: null, http_error: { type: 'connection_failure' } });
    } finally {
      if (saved === undefined) delete process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
      else process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = saved;
      await other?.close();
    }
  });
});
