// Metrics, logs and health of a served model, through `serveModel` (what `kiln-runtime` runs) on a
// real socket and a real database: /v1/metrics parsed as Prometheus text with its counters moving,
// the metrics secret enforced, http-log and query-log lines read back from stdout as JSON, and
// /healthz?strict=true failing once the source's database is gone.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { serveModel, type RunningServer, type ServeSettings } from '../../runtime/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { Client, sleep } from '../subscriptions/helpers.js';
import { parsePrometheusText, valueOf, type Exposition } from './prom-text.js';
import { captureLogLines } from '../helpers/log-lines.js';

const SECRET = 'scrape-secret';
const METADATA = {
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {}, tables: [{ table: { schema: 'public', name: 'author' } }] }],
};

/** Serves METADATA on `url` with these SVC_GRAPHQL_* variables set while it starts. */
async function serve(url: string, env: Record<string, string>): Promise<{ server: RunningServer; base: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const settings: ServeSettings = {
      databaseUrl: url, dataDir: '/nonexistent', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false,
      console: false, enabledApis: 'graphql,metadata,metrics',
    };
    const server = await serveModel(settings, {
      kind: 'compile',
      async compile(open) {
        const driver = await open('default', { kind: 'literal', url });
        const md = parseMetadata(METADATA).value!;
        const bundle = await buildBundle({ metadata: md, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test', stringifyNumeric: false });
        return { model: bundle.model, sdl: bundle.sdl };
      },
    }, () => undefined);
    return { server, base: `http://127.0.0.1:${server.port}` };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

let db: TestDatabase;
let kiln: { server: RunningServer; base: string };
// Every line the server writes to stdout while the tests run.
const lines: string[] = [];

beforeAll(async () => {
  captureLogLines(lines);
  db = await createTestDatabase('observe', "CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL); INSERT INTO author (name) VALUES ('Ann'), ('Bo');");
  kiln = await serve(db.url, {
    SVC_GRAPHQL_METRICS_SECRET: SECRET, SVC_GRAPHQL_ENABLED_LOG_TYPES: 'startup,http-log,query-log', SVC_GRAPHQL_LOG_LEVEL: 'info',
  });
});

afterAll(async () => {
  await kiln?.server.close();
  await db?.drop();
  vi.restoreAllMocks();
});

async function gql(query: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${kiln.base}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
}

async function scrape(): Promise<Exposition> {
  const res = await fetch(`${kiln.base}/v1/metrics`, { headers: { authorization: `Bearer ${SECRET}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

/** The JSON log lines of one type, parsed. */
function logLines(type: string): { type: string; level: string; timestamp: string; detail: Record<string, any> }[] {
  return lines.map((l) => JSON.parse(l) as { type: string; level: string; timestamp: string; detail: Record<string, any> }).filter((l) => l.type === type);
}

describe('/v1/metrics', () => {
  it('refuses a scrape without the secret or with a wrong one (401), and serves it with the bearer token', async () => {
    const none = await fetch(`${kiln.base}/v1/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: 'access-denied', path: '$' });
    const wrong = await fetch(`${kiln.base}/v1/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const e = await scrape();
    expect(e.types.get('svc_http_requests_total')).toBe('counter');
    expect(e.types.get('svc_http_request_duration_seconds')).toBe('histogram');
    expect(e.types.get('svc_postgres_connections')).toBe('gauge');
  });

  it('counts requests by endpoint, operation type and status, with latency, plan cache and pool figures moving', async () => {
    const before = await scrape();
    const q = 'query { author(order_by: {id: asc}) { name } }';
    for (let i = 0; i < 3; i++) expect((await (await gql(q)).json()).data.author).toEqual([{ name: 'Ann' }, { name: 'Bo' }]);
    expect((await (await gql('mutation { insert_author_one(object: {name: "Cy"}) { id } }')).json()).data.insert_author_one.id).toBe(3);
    expect((await (await gql('{ no_such_field }')).json()).errors[0].extensions.code).toBe('validation-failed');
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}): number => valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(delta('svc_http_requests_total', { endpoint: '/v1/graphql', operation_type: 'query', status: '200' })).toBe(4);
    expect(delta('svc_http_requests_total', { endpoint: '/v1/graphql', operation_type: 'mutation', status: '200' })).toBe(1);
    expect(delta('svc_graphql_requests_total', { operation_type: 'query', response_status: 'success' })).toBe(3);
    expect(delta('svc_graphql_requests_total', { operation_type: 'query', response_status: 'failed' })).toBe(1);
    expect(delta('svc_graphql_requests_total', { operation_type: 'mutation', response_status: 'success' })).toBe(1);
    // The scrape itself is counted when it is answered: `before` was one request of /v1/metrics.
    expect(delta('svc_http_requests_total', { endpoint: '/v1/metrics', operation_type: 'none', status: '200' })).toBe(1);
    expect(delta('svc_http_request_duration_seconds_count', { endpoint: '/v1/graphql' })).toBe(5);
    expect(delta('svc_http_request_duration_seconds_sum', { endpoint: '/v1/graphql' })).toBeGreaterThan(0);
    expect(valueOf(after, 'svc_http_request_duration_seconds_bucket', { endpoint: '/v1/graphql', le: '+Inf' }))
      .toBe(valueOf(after, 'svc_http_request_duration_seconds_count', { endpoint: '/v1/graphql' }));
    // The same text three times: one plan, two hits (the failed one is a miss of its own).
    expect(delta('svc_plan_cache_hits_total')).toBe(2);
    expect(delta('svc_plan_cache_misses_total')).toBe(3);
    const open = valueOf(after, 'svc_postgres_connections', { source_name: 'default', state: 'idle' })
      + valueOf(after, 'svc_postgres_connections', { source_name: 'default', state: 'busy' });
    expect(open).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'svc_postgres_pool_max_connections', { source_name: 'default' })).toBeGreaterThanOrEqual(4);
  });

  it('shows busy connections and waiting checkouts while a lock holds the reads up, and counts the waits', async () => {
    const before = await scrape();
    // A lock held by the test blocks the engine's reads. Of the 4 connections, 2 are the pipeline
    // lane's, whose sessions give up on a lock after 4 ms and send the read to the pool: so the 2
    // pooled ones are busy, the lane's idle, and 6 reads queue for a pooled connection.
    await db.exec('BEGIN; LOCK TABLE author IN ACCESS EXCLUSIVE MODE');
    const blocked = Array.from({ length: 8 }, () => gql('query { author { id } }').then((r) => r.json()));
    await sleep(300);
    const held = await scrape();
    expect(valueOf(held, 'svc_postgres_connections', { source_name: 'default', state: 'busy' })).toBe(2);
    expect(valueOf(held, 'svc_postgres_pool_waiting', { source_name: 'default' })).toBe(6);
    // The 6 seen waiting go on waiting at least this long, however late a loaded machine queued them.
    await sleep(250);
    await db.exec('COMMIT');
    const answers = await Promise.all(blocked);
    expect(answers.every((b) => Array.isArray(b.data?.author))).toBe(true);
    const after = await scrape();
    expect(valueOf(after, 'svc_postgres_pool_waits_total', { source_name: 'default' })
      - valueOf(before, 'svc_postgres_pool_waits_total', { source_name: 'default' })).toBe(6);
    expect(valueOf(after, 'svc_postgres_pool_wait_seconds_total', { source_name: 'default' }))
      .toBeGreaterThan(valueOf(before, 'svc_postgres_pool_wait_seconds_total', { source_name: 'default' }) + 6 * 0.2);
  });

  it('shows websocket connections, subscriptions and cohorts while a live query runs, and polls', async () => {
    const c = await Client.open(`${kiln.base.replace('http', 'ws')}/v1/graphql`, 'graphql-transport-ws');
    await c.init({});
    c.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { author(order_by: {id: asc}) { name } }' } });
    expect((await c.next((m) => m.id === '1')).type).toBe('next');
    await sleep(1300); // past one refetch interval (1 s): the poller has polled
    const during = await scrape();
    expect(valueOf(during, 'svc_websocket_connections')).toBe(1);
    expect(valueOf(during, 'svc_active_subscriptions')).toBe(1);
    expect(valueOf(during, 'svc_live_query_cohorts')).toBe(1);
    expect(valueOf(during, 'svc_subscription_polls_total')).toBeGreaterThanOrEqual(1);
    expect(valueOf(during, 'svc_subscription_poll_seconds_total')).toBeGreaterThan(0);
    c.close();
    await c.waitClosed();
    await sleep(100);
    const afterClose = await scrape();
    expect(valueOf(afterClose, 'svc_websocket_connections')).toBe(0);
    expect(valueOf(afterClose, 'svc_active_subscriptions')).toBe(0);
    expect(valueOf(afterClose, 'svc_live_query_cohorts')).toBe(0);
  });
});

describe('logs', () => {
  afterEach(() => { lines.length = 0; });

  it('writes one http-log line per request, with the x-request-id the client sent, echoed in the response', async () => {
    const res = await gql('query Named { author { id } }', { 'x-request-id': 'client-req-42' });
    expect(res.headers.get('x-request-id')).toBe('client-req-42');
    await res.text();
    await sleep(20);
    const mine = logLines('http-log').filter((l) => l.detail.request_id === 'client-req-42');
    expect(mine).toHaveLength(1);
    const line = mine[0]!;
    expect(line.level).toBe('info');
    expect(Number.isNaN(Date.parse(line.timestamp.replace('+0000', 'Z')))).toBe(false);
    expect(line.detail.http_info).toMatchObject({ status: 200, url: '/v1/graphql', method: 'POST', http_version: 'HTTP/1.1', ip: '127.0.0.1' });
    expect(line.detail.operation).toMatchObject({
      request_id: 'client-req-42', request_mode: 'single', error: null, query: { query: 'query Named { author { id } }' },
      user_vars: { 'x-svc-role': 'admin' },
    });
    expect(line.detail.operation.query_execution_time).toBeGreaterThan(0);
    expect(line.detail.operation.response_size).toBeGreaterThan(0);
  });

  it('writes a valid line when the request id, a session variable or the path need escapes', async () => {
    const id = 'q"uote\\back';
    const res = await gql('query Esc { author { id } }', { 'x-request-id': id, 'x-svc-team': 'caf\u00e9 "x"' });
    expect(res.headers.get('x-request-id')).toBe(id);
    await res.text();
    await sleep(20);
    const line = logLines('http-log').find((l) => l.detail.request_id === id);
    expect(line?.detail.operation.request_id).toBe(id);
    expect(line?.detail.operation.user_vars).toEqual({ 'x-svc-role': 'admin', 'x-svc-team': 'caf\u00e9 "x"' });
    expect(line?.detail.operation.query).toEqual({ query: 'query Esc { author { id } }' });
    expect(String(line?.detail.operation.query_execution_time)).toMatch(/^\d+\.\d{1,9}$/);
  });

  it('makes a request id (a UUID) when the client sent none, and logs a failed request at level error with its error', async () => {
    const res = await gql('{ nope }');
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await res.text();
    await sleep(20);
    const line = logLines('http-log').find((l) => l.detail.request_id === id);
    expect(line?.level).toBe('error');
    expect(line?.detail.operation.error).toMatchObject({ code: 'validation-failed' });
  });

  it('writes a query-log line with the generated SQL and its arguments, under the request id', async () => {
    const res = await gql('query { author(where: {name: {_eq: "Bo"}}) { id } }', { 'x-request-id': 'sql-please' });
    expect((await res.json()).data.author).toEqual([{ id: 2 }]);
    await sleep(20);
    const q = logLines('query-log').filter((l) => l.detail.request_id === 'sql-please');
    expect(q).toHaveLength(1);
    expect(q[0]!.detail.kind).toBe('database');
    expect(q[0]!.detail.generated_sql.query).toMatch(/"public"\."author"/);
    expect(q[0]!.detail.generated_sql.prepared_arguments).toContain('Bo');
    expect(q[0]!.detail.query.query).toContain('author(where');
  });
});

describe('/healthz', () => {
  it('answers OK, reports the source as JSON, and passes strict while the database is up', async () => {
    const plain = await fetch(`${kiln.base}/healthz?strict=true`);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toBe('OK');
    const report = await fetch(`${kiln.base}/healthz`, { headers: { accept: 'application/json' } });
    expect(await report.json()).toEqual({ status: 'ok', strict: false, catalog: 'none', sources: { default: { status: 'ok' } } });
    const version = await fetch(`${kiln.base}/v1/version`);
    expect(await version.json()).toMatchObject({ server_type: 'ce' });
  });

  it('fails strict (500) when the source database is dropped; the plain probe warns', async () => {
    const other = await createTestDatabase('observe_gone', 'CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);');
    const gone = await serve(other.url, {});
    try {
      await other.drop();
      const strict = await fetch(`${gone.base}/healthz?strict=true`);
      expect(strict.status).toBe(500);
      expect(await strict.text()).toMatch(/^ERROR/);
      const plain = await fetch(`${gone.base}/healthz`);
      expect(plain.status).toBe(200);
      expect(await plain.text()).toBe('OK');
      const report = await fetch(`${gone.base}/healthz?strict=true`, { headers: { accept: 'application/json' } });
      expect(report.status).toBe(500);
      const body = await report.json() as { status: string; sources: Record<string, { status: string; error?: string }> };
      expect(body.status).toBe('warn');
      expect(body.sources.default!.status).toBe('down');
      expect(body.sources.default!.error).toMatch(/\S/);
    } finally {
      await gone.server.close();
    }
  });
});
