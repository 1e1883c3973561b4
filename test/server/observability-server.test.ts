// The server's side of metrics, logs and health with its options given directly (real sockets;
// the sources are real pg drivers, one of them on a port nothing listens on).
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { logSettingsFromEnv, ServerMetrics } from '../../runtime/server/index.js';
import { operationTypeOf } from '../../runtime/server/request-log.js';
import { PG_ROOT } from '../helpers/database.js';
import { post, start, type Running } from './helpers.js';
import { parsePrometheusText, valueOf } from './prom-text.js';

/** A TCP port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let up: Driver;
let down: Driver;

beforeAll(async () => {
  up = createPgDriver({ url: `${PG_ROOT}/postgres`, max: 2 });
  down = createPgDriver({ url: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`, max: 2 });
});

afterAll(async () => {
  await up?.close();
  await down?.close();
});

describe('/v1/metrics switches', () => {
  it('is not found unless `metrics` is among the enabled APIs', async () => {
    const s = await start({ enabledApis: ['graphql', 'metadata'], metricsSecret: 's' });
    try {
      const res = await fetch(s.url('/v1/metrics'), { headers: { authorization: 'Bearer s' } });
      expect(res.status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it('is open without a secret (as Hasura is), and each server counts in its own registry', async () => {
    const a = await start({ enabledApis: ['graphql', 'metrics'] });
    const b = await start({ enabledApis: ['graphql', 'metrics'] });
    try {
      for (let i = 0; i < 3; i++) await (await post(a.url('/v1/graphql'), { query: 'query { x }' })).text();
      await (await post(b.url('/v1/graphql'), { query: 'mutation { y }' })).text();
      const ea = parsePrometheusText(await (await fetch(a.url('/v1/metrics'))).text());
      const eb = parsePrometheusText(await (await fetch(b.url('/v1/metrics'))).text());
      expect(valueOf(ea, 'svc_graphql_requests_total', { operation_type: 'query', response_status: 'success' })).toBe(3);
      expect(valueOf(ea, 'svc_graphql_requests_total', { operation_type: 'mutation' })).toBe(0);
      expect(valueOf(eb, 'svc_graphql_requests_total', { operation_type: 'mutation', response_status: 'success' })).toBe(1);
      expect(valueOf(eb, 'svc_graphql_requests_total', { operation_type: 'query' })).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('labels unknown paths `other`, not with the path a client made up', async () => {
    const metrics = new ServerMetrics();
    const s = await start({ enabledApis: ['graphql', 'metrics'], metrics });
    try {
      expect((await fetch(s.url('/made/up/path-123'))).status).toBe(404);
      const e = parsePrometheusText(await metrics.text());
      expect(valueOf(e, 'svc_http_requests_total', { endpoint: 'other', status: '404' })).toBe(1);
      expect(e.samples.some((x) => Object.values(x.labels).some((v) => v.includes('made')))).toBe(false);
    } finally {
      await s.close();
    }
  });
});

describe('/healthz with a source down', () => {
  let s: Running;
  beforeAll(async () => {
    s = await start({ sources: () => new Map([['up', up], ['down', down]]), health: () => 'ok' });
  });
  afterAll(async () => { await s?.close(); });

  it('answers 500 to ?strict=true when a source\'s port is closed, and names it in the JSON report', async () => {
    const strict = await fetch(s.url('/healthz?strict=true'));
    expect(strict.status).toBe(500);
    const report = await fetch(s.url('/healthz?strict=true'), { headers: { accept: 'application/json' } });
    expect(report.status).toBe(500);
    const body = await report.json() as { status: string; catalog: string; sources: Record<string, { status: string; error?: string }> };
    expect(body.catalog).toBe('ok');
    expect(body.sources.up).toEqual({ status: 'ok' });
    expect(body.sources.down!.status).toBe('down');
  });

  it('answers 200 without strict (a liveness probe does not depend on the sources)', async () => {
    const plain = await fetch(s.url('/healthz'));
    expect(plain.status).toBe(200);
    expect(await plain.text()).toBe('OK');
  });

  it('fails strict on inconsistent metadata even with every source up, and keeps Hasura\'s WARN otherwise', async () => {
    const w = await start({ sources: () => new Map([['up', up]]), health: () => 'warn' });
    try {
      expect((await fetch(w.url('/healthz?strict=true'))).status).toBe(500);
      const plain = await fetch(w.url('/healthz'));
      expect(plain.status).toBe(200);
      expect(await plain.text()).toBe('WARN: inconsistent objects in schema');
    } finally {
      await w.close();
    }
  });
});

describe('log settings', () => {
  it('writes only lines at or above SVC_GRAPHQL_LOG_LEVEL', async () => {
    const lines: string[] = [];
    const logging = logSettingsFromEnv({ SVC_GRAPHQL_LOG_LEVEL: 'error' }, (l) => lines.push(l));
    const s = await start({ logging });
    try {
      await (await post(s.url('/v1/graphql'), { query: 'query { fine }' })).text();
      await (await post(s.url('/v1/graphql'), { query: 'api-error' })).text();
      await new Promise((r) => setTimeout(r, 20));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as { type: string; level: string; detail: { operation: { error: { code: string } } } };
      expect(line).toMatchObject({ type: 'http-log', level: 'error', detail: { operation: { error: { code: 'validation-failed' } } } });
    } finally {
      await s.close();
    }
  });

  it("notes a gzipped answer's encoding in http_info.content_encoding, and null otherwise", async () => {
    const lines: string[] = [];
    const s = await start({ logging: logSettingsFromEnv({}, (l) => lines.push(l)) });
    try {
      await (await post(s.url('/v1/graphql'), { query: 'query { fine }' }, { 'accept-encoding': 'gzip' })).text();
      await (await post(s.url('/v1/graphql'), { query: 'query { fine }' }, { 'accept-encoding': 'identity' })).text();
      await new Promise((r) => setTimeout(r, 20));
      const encodings = lines.map((l) => (JSON.parse(l) as { detail: { http_info: { content_encoding: string | null } } }).detail.http_info.content_encoding);
      expect(encodings).toEqual(['gzip', null]);
    } finally {
      await s.close();
    }
  });

  it('refuses an unknown level, and leaves http-log out when the enabled types do', () => {
    expect(() => logSettingsFromEnv({ SVC_GRAPHQL_LOG_LEVEL: 'loud' })).toThrow(/debug, info, warn, error/);
    expect(logSettingsFromEnv({ SVC_GRAPHQL_ENABLED_LOG_TYPES: 'startup' }).types.has('http-log')).toBe(false);
    expect(logSettingsFromEnv({}).types.has('http-log')).toBe(true);
    expect(logSettingsFromEnv({}).types.has('query-log')).toBe(false);
  });
});

describe('operationTypeOf', () => {
  it('reads the kind from the text start, and by name when a document has several operations', () => {
    expect(operationTypeOf({ query: '{ a }' })).toBe('query');
    expect(operationTypeOf({ query: '  # c\n mutation M { a }' })).toBe('mutation');
    expect(operationTypeOf({ query: 'subscription { a }' })).toBe('subscription');
    expect(operationTypeOf({ query: 'query A { a } mutation B { b }', operationName: 'B' })).toBe('mutation');
    expect(operationTypeOf({ query: 'fragment F on T { a } query A { ...F }', operationName: 'A' })).toBe('query');
    expect(operationTypeOf({ query: 'query A { a }', operationName: 'Nope' })).toBe('unknown');
    expect(operationTypeOf({ query: 'garbage' })).toBe('unknown');
  });
});
