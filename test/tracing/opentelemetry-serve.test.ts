// OpenTelemetry traces of `kiln serve` (catalog mode) on a real socket and database: the
// configuration set with set_opentelemetry_config / set_opentelemetry_status, the spans of a
// request whose session comes from an auth webhook received by a real OTLP/HTTP receiver on
// 127.0.0.1 (decoded from protobuf and from OTLP/JSON), their parents, and the W3C traceparent
// read from the client and passed to the webhook. Nothing is exported while tracing is off.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
import { startRemote } from '../remote/remote-server.js';

const SECRET = 'otel-admin';
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

let db: TestDatabase;
let receiver: OtlpReceiver;
let hook: Server;
let hookUrl: string;
// The headers of every call the auth webhook received, in order.
const hookCalls: IncomingHttpHeaders[] = [];
// The headers of every event delivery the same server received.
const eventCalls: IncomingHttpHeaders[] = [];
// The headers of every action handler call.
const actionCalls: IncomingHttpHeaders[] = [];
let kiln: { port: number; close(): Promise<void> };
const saved: Record<string, string | undefined> = {};

const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
  const res = await fetch(`http://127.0.0.1:${kiln.port}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.status, body: await res.json() };
};
const meta = (type: string, args: unknown) => post('/v1/metadata', { type, args }, { 'x-svc-admin-secret': SECRET });
// A request without the admin secret: its session comes from the auth webhook.
const asUser = (query: string, headers: Record<string, string> = {}, operationName?: string) =>
  post('/v1/graphql', { query, ...(operationName ? { operationName } : {}) }, { authorization: 'Bearer ann', ...headers });
const QUERY = 'query Authors { author(order_by: {id: asc}) { name } }';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function config(protocol = 'http/protobuf'): unknown {
  return {
    status: 'enabled', data_types: ['traces'],
    exporter_otlp: {
      otlp_traces_endpoint: receiver.url, protocol, traces_propagators: ['tracecontext'],
      headers: [{ name: 'x-otel-token', value: 't0k' }, { name: 'x-from-env', value_from_env: 'KILN_TEST_OTEL_HEADER' }],
      resource_attributes: [{ name: 'deployment.environment', value: 'test' }],
    },
    batch_span_processor: { max_export_batch_size: 100 },
  };
}

beforeAll(async () => {
  // Export every 50 ms instead of every 5 s (OpenTelemetry's own variable for the batch delay).
  for (const [k, v] of Object.entries({ OTEL_BSP_SCHEDULE_DELAY: '50', KILN_TEST_OTEL_HEADER: 'from-env', SVC_GRAPHQL_ENABLED_LOG_TYPES: 'startup' })) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  db = await createTestDatabase('otel', "CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL); INSERT INTO author (name) VALUES ('Ann'), ('Bo');");
  receiver = await startOtlpReceiver();
  hook = createServer((req, res) => {
    if (req.url === '/action') {
      actionCalls.push(req.headers);
      let text = '';
      req.on('data', (c: Buffer) => { text += c; });
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n: (JSON.parse(text) as { input: { n: number } }).input.n })));
      return;
    }
    if (req.url === '/event') {
      eventCalls.push(req.headers);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    hookCalls.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'X-Svc-Role': 'user' }));
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/auth`;
  kiln = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
    stringifyNumericTypes: false, console: false, adminSecret: SECRET, authHook: hookUrl });
  const md = {
    version: 3,
    sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: db.url } },
      tables: [{ table: { schema: 'public', name: 'author' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: {} } }] }] }],
  };
  expect((await meta('replace_metadata', md)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await kiln?.close();
  await receiver?.close();
  await new Promise<void>((resolve) => (hook ? hook.close(() => resolve()) : resolve()));
  await db?.drop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('OpenTelemetry traces', () => {
  it('exports nothing while no configuration is set, and forwards the client\'s own traceparent untouched', async () => {
    const parent = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
    const r = await asUser(QUERY, { traceparent: parent }, 'Authors');
    expect(r.body).toEqual({ data: { author: [{ name: 'Ann' }, { name: 'Bo' }] } });
    expect(hookCalls.at(-1)?.['traceparent']).toBe(parent);
    await sleep(200);
    expect(receiver.exports).toEqual([]);
  });

  it('refuses a bad configuration with the path of the bad value and keeps tracing off', async () => {
    const cases: [unknown, string][] = [
      [{ status: 'on' }, '$.args.status'],
      [{ status: 'enabled', data_types: ['traces'] }, '$.args.exporter_otlp.otlp_traces_endpoint'],
      [{ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: 'not a url' } }, '$.args.exporter_otlp.otlp_traces_endpoint'],
      [{ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: receiver.url, protocol: 'grpc' } }, '$.args.exporter_otlp.protocol'],
      [{ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: receiver.url, traces_propagators: ['b3'] } }, '$.args.exporter_otlp.traces_propagators[0]'],
      [{ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: receiver.url }, batch_span_processor: { max_export_batch_size: 0 } }, '$.args.batch_span_processor.max_export_batch_size'],
      [{ status: 'enabled', data_types: ['profiles'], exporter_otlp: { otlp_traces_endpoint: receiver.url } }, '$.args.data_types[0]'],
      [{ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: receiver.url, headers: [{ name: 'a' }] } }, '$.args.exporter_otlp.headers[0]'],
    ];
    for (const [args, path] of cases) {
      const r = await meta('set_opentelemetry_config', args);
      expect([r.status, r.body.code, r.body.path]).toEqual([400, 'parse-failed', path]);
    }
    // Enabling a configuration that has no endpoint is refused too.
    const status = await meta('set_opentelemetry_status', 'enabled');
    expect([status.status, status.body.path]).toEqual([400, '$.args']);
    expect(status.body.error).toContain('$.opentelemetry.exporter_otlp.otlp_traces_endpoint');
    const exported = await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} }, { 'x-svc-admin-secret': SECRET });
    expect(exported.body.metadata.opentelemetry).toBeUndefined();
  });

  it('exports the spans of a request: its own under the client\'s, the auth webhook call, parse, plan and the SQL', async () => {
    expect(await meta('set_opentelemetry_config', config())).toEqual({ status: 200, body: { message: 'success' } });
    const r = await asUser(QUERY, { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, tracestate: 'vendor=1' }, 'Authors');
    expect(r.body.data.author).toHaveLength(2);
    const request = await receiver.waitFor((s) => s.traceId === CLIENT_TRACE && s.kind === 2);
    expect(request).toMatchObject({
      name: 'POST /v1/graphql', parentSpanId: CLIENT_SPAN, traceState: 'vendor=1', status: { code: 0, message: '' },
      attributes: {
        'http.request.method': 'POST', 'url.path': '/v1/graphql', 'http.route': '/v1/graphql', 'http.response.status_code': 200,
        'graphql.operation.type': 'query', 'graphql.operation.name': 'Authors', 'kiln.role': 'user',
      },
    });
    // Sampled, with a remote parent (trace.proto's flags: 0x1 sampled, 0x100 | 0x200 remote parent).
    expect(request.flags).toBe(0x301);
    const children = async (name: string): Promise<ReceivedSpan> =>
      receiver.waitFor((s) => s.traceId === CLIENT_TRACE && s.parentSpanId === request.spanId && s.name === name);
    const webhook = await children('GET auth webhook');
    expect(webhook.kind).toBe(3);
    expect(webhook.attributes).toMatchObject({ 'http.request.method': 'GET', 'url.full': hookUrl, 'http.response.status_code': 200 });
    // The webhook was called as a child of its client span, not of the client's span.
    expect(hookCalls.at(-1)?.['traceparent']).toBe(`00-${CLIENT_TRACE}-${webhook.spanId}-01`);
    expect(hookCalls.at(-1)?.['tracestate']).toBe('vendor=1');
    const parse = await children('graphql.parse');
    const plan = await children('graphql.plan');
    const sql = await children('query default');
    expect(sql.kind).toBe(3);
    expect(sql.attributes).toMatchObject({ 'db.system.name': 'postgresql', 'db.namespace': 'default', 'db.operation.name': 'SELECT' });
    expect(String(sql.attributes['db.query.text'])).toContain('"public"."author"');
    // Steps inside the request, in order: the webhook before parse, parse before plan, plan before the SQL.
    for (const s of [webhook, parse, plan, sql]) {
      expect(s.startNs).toBeGreaterThanOrEqual(request.startNs);
      expect(s.endNs).toBeLessThanOrEqual(request.endNs);
    }
    expect(webhook.endNs).toBeLessThanOrEqual(parse.startNs);
    expect(parse.endNs).toBeLessThanOrEqual(plan.startNs);
    expect(plan.endNs).toBeLessThanOrEqual(sql.startNs);
    const exp = receiver.exports.find((e) => e.spans.includes(request))!;
    expect(exp.contentType).toBe('application/x-protobuf');
    expect([exp.headers['x-otel-token'], exp.headers['x-from-env']]).toEqual(['t0k', 'from-env']);
    expect(exp.resource).toMatchObject({ 'service.name': 'kiln', 'deployment.environment': 'test' });
    expect(exp.scope.name).toBe('kiln');
  });

  it('starts a new trace without a traceparent, and marks a failed request as an error', async () => {
    const r = await asUser('query Broken { author { nope } }', {}, 'Broken');
    expect(r.body.errors[0].extensions.code).toBe('validation-failed');
    const span = await receiver.waitFor((s) => s.kind === 2 && s.attributes['graphql.operation.name'] === 'Broken');
    expect(span.parentSpanId).toBe('');
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.traceId).not.toBe(CLIENT_TRACE);
    expect(span.status.code).toBe(2);
    expect(span.status.message).toContain('validation-failed');
  });

  it('exports nothing of a trace the caller did not sample, yet passes its context on', async () => {
    const trace = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    await asUser(QUERY, { traceparent: `00-${trace}-bbbbbbbbbbbbbbbb-00` });
    expect(hookCalls.at(-1)?.['traceparent']).toMatch(new RegExp(`^00-${trace}-[0-9a-f]{16}-00$`));
    // A later sampled request's spans arrive; none of the unsampled trace came with them.
    await asUser(QUERY, { traceparent: `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01` });
    await receiver.waitFor((s) => s.traceId === 'c'.repeat(32) && s.kind === 2);
    expect(receiver.spans().filter((s) => s.traceId === trace)).toEqual([]);
  });

  it('traces an action handler call under the request, and passes it its traceparent', async () => {
    expect((await meta('set_custom_types', { objects: [{ name: 'Echo', fields: [{ name: 'n', type: 'Int!' }] }] })).status).toBe(200);
    expect((await meta('create_action', { name: 'echo', definition: { type: 'query', handler: hookUrl.replace(/\/auth$/, '/action'), output_type: 'Echo',
      arguments: [{ name: 'n', type: 'Int!' }] } })).status).toBe(200);
    expect((await meta('create_action_permission', { action: 'echo', role: 'user' })).status).toBe(200);
    const trace = '9'.repeat(32);
    const r = await asUser('query { echo(n: 7) { n } }', { traceparent: `00-${trace}-${'8'.repeat(16)}-01` });
    expect(r.body).toEqual({ data: { echo: { n: 7 } } });
    const request = await receiver.waitFor((s) => s.traceId === trace && s.kind === 2);
    const call = await receiver.waitFor((s) => s.traceId === trace && s.name === 'POST action handler');
    expect(call).toMatchObject({ kind: 3, parentSpanId: request.spanId, attributes: { 'http.response.status_code': 200 } });
    expect(actionCalls.at(-1)?.['traceparent']).toBe(`00-${trace}-${call.spanId}-01`);
  });

  it('traces a remote schema call under the request, and passes it its traceparent', async () => {
    const remote = await startRemote('type Query { hello: String }', { hello: () => 'hi' });
    try {
      expect((await meta('add_remote_schema', { name: 'greeter', definition: { url: remote.url, timeout_seconds: 5 } })).status).toBe(200);
      const trace = '7'.repeat(32);
      const r = await post('/v1/graphql', { query: '{ hello }' }, { 'x-svc-admin-secret': SECRET, traceparent: `00-${trace}-${'6'.repeat(16)}-01` });
      expect(r.body).toEqual({ data: { hello: 'hi' } });
      const request = await receiver.waitFor((s) => s.traceId === trace && s.kind === 2);
      const call = await receiver.waitFor((s) => s.traceId === trace && s.name === 'POST remote schema');
      expect(call).toMatchObject({ kind: 3, parentSpanId: request.spanId, attributes: { 'url.full': remote.url, 'http.response.status_code': 200 } });
      expect(remote.received.at(-1)?.headers['traceparent']).toBe(`00-${trace}-${call.spanId}-01`);
      expect((await meta('remove_remote_schema', { name: 'greeter' })).status).toBe(200);
    } finally {
      await remote.close();
    }
  });

  it('traces an event trigger delivery as the root of its trace, with the webhook its child', async () => {
    const webhook = hookUrl.replace(/\/auth$/, '/event');
    const created = await meta('pg_create_event_trigger', { name: 'author_added', source: 'default', table: { schema: 'public', name: 'author' }, webhook, insert: { columns: '*' } });
    expect(created.status).toBe(200);
    await db.exec("INSERT INTO author (name) VALUES ('Cy')");
    const span = await receiver.waitFor((s) => s.name === 'POST webhook', 15_000);
    expect(span).toMatchObject({ kind: 3, parentSpanId: '', attributes: { 'http.request.method': 'POST', 'url.full': webhook, 'http.response.status_code': 200 } });
    const deadline = Date.now() + 5000;
    while (eventCalls.length === 0 && Date.now() < deadline) await sleep(20);
    expect(eventCalls[0]?.['traceparent']).toBe(`00-${span.traceId}-${span.spanId}-01`);
  });

  it('speaks OTLP/JSON when asked, and stops with set_opentelemetry_status disabled', async () => {
    expect((await meta('set_opentelemetry_config', config('http/json'))).status).toBe(200);
    const trace = 'e'.repeat(32);
    await asUser(QUERY, { traceparent: `00-${trace}-${'f'.repeat(16)}-01` });
    const span = await receiver.waitFor((s) => s.traceId === trace && s.kind === 2);
    expect(span.name).toBe('POST /v1/graphql');
    expect(receiver.exports.find((e) => e.spans.includes(span))!.contentType).toBe('application/json');
    expect(await meta('set_opentelemetry_status', 'disabled')).toEqual({ status: 200, body: { message: 'success' } });
    const exported = await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} }, { 'x-svc-admin-secret': SECRET });
    expect(exported.body.metadata.opentelemetry).toMatchObject({ status: 'disabled', exporter_otlp: { protocol: 'http/json', otlp_traces_endpoint: receiver.url } });
    const before = receiver.spans().length;
    await asUser(QUERY, { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` });
    await sleep(300);
    expect(receiver.spans().length).toBe(before);
    // Empty args remove the configuration, as Hasura's console does.
    expect((await meta('set_opentelemetry_config', {})).status).toBe(200);
    const after = await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} }, { 'x-svc-admin-secret': SECRET });
    expect(after.body.metadata.opentelemetry).toBeUndefined();
  });
});
