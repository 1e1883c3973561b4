// The http-log line of Hasura's tests-py test_logging.py (TestLogging), read back from the
// server's stdout: a server with an admin secret and query-log on, as Hasura's CI runs it
// (HASURA_GRAPHQL_ENABLED_LOG_TYPES " startup,http-log,webhook-log,websocket-log,query-log").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postJson } from '../helpers/http.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { captureLogLines } from '../helpers/log-lines.js';

const SECRET = 'log-secret';
const lines: string[] = [];
let kiln: ServedDatabase;

beforeAll(async () => {
  captureLogLines(lines);
  const saved = process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
  process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = ' startup,http-log,webhook-log,websocket-log,query-log';
  try {
    kiln = await serveDatabase('httplog', "CREATE TABLE hello (code text PRIMARY KEY, name text); INSERT INTO hello VALUES ('1', 'a');",
      { adminSecret: SECRET, track: ['hello'] });
  } finally {
    if (saved === undefined) delete process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
    else process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = saved;
  }
});

afterAll(async () => {
  await kiln?.close();
  vi.restoreAllMocks();
});

/** The http-log line of the request sent with this x-request-id (waiting for the log's flush). */
async function httpLog(requestId: string): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.type === 'http-log' && l.detail.operation.request_id === requestId);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no http-log line for ${requestId}`);
}

describe('http-log error', () => {
  it('holds the error of a refused metadata request (401) as of a refused GraphQL one', async () => {
    const res = await postJson(kiln.url, '/v1/query', { type: 'select', args: { table: 'hello', columns: ['code'] } },
      { 'x-request-id': 'unauthorized-metadata-test' });
    expect(res.status).toBe(401);
    const op = (await httpLog('unauthorized-metadata-test')).detail.operation;
    expect(op.error).toEqual({ error: 'x-svc-admin-secret/x-svc-access-key required, but not found', code: 'access-denied', path: '$' });
    const gql = await postJson(kiln.url, '/v1/graphql', { query: '{ hello { code } }' }, { 'x-request-id': 'unauthorized-query-test' });
    expect(gql.status).toBe(200);
    expect((await httpLog('unauthorized-query-test')).detail.operation.error.code).toBe('access-denied');
  });

  it('holds the error of a metadata operation that fails (400), and none of one that succeeds', async () => {
    const bad = await postJson(kiln.url, '/v1/metadata', { type: 'pg_track_table', args: { table: 'nope' } },
      { 'x-request-id': 'failed-metadata', 'x-svc-admin-secret': SECRET });
    expect(bad.status).toBe(400);
    const failed = await httpLog('failed-metadata');
    expect(failed.level).toBe('error');
    expect(failed.detail.operation.error).toMatchObject({ code: bad.body.code, error: bad.body.error });
    await postJson(kiln.url, '/v1/metadata', { type: 'export_metadata', args: {} }, { 'x-request-id': 'fine-metadata', 'x-svc-admin-secret': SECRET });
    expect((await httpLog('fine-metadata')).detail.operation.error).toBeNull();
  });
});

describe('http-log query and raw_query (query-log on)', () => {
  it('shows a GraphQL request read as query: the request as sent, absent fields left out; a batch as its list', async () => {
    const single = await postJson(kiln.url, '/v1/graphql', { query: 'query { hello {code name} }' },
      { 'x-request-id': 'successful-query-log-test', 'x-svc-admin-secret': SECRET });
    expect(single.body.data).toBeDefined();
    const op = (await httpLog('successful-query-log-test')).detail.operation;
    expect(op.query).toEqual({ query: 'query { hello {code name} }' });
    expect(op.raw_query).toBeUndefined();
    const q = 'query Q($c: String) { hello(where: {code: {_eq: $c}}) { code } }';
    await postJson(kiln.url, '/v1/graphql', [{ query: '{ hello { code } }' }, { query: q, variables: { c: '1' }, operationName: 'Q' }],
      { 'x-request-id': 'batched-log-test', 'x-svc-admin-secret': SECRET });
    expect((await httpLog('batched-log-test')).detail.operation.query)
      .toEqual([{ query: '{ hello { code } }' }, { operationName: 'Q', query: q, variables: { c: '1' } }]);
  });

  it('shows the body as raw_query when the request was refused before it was read into one', async () => {
    await postJson(kiln.url, '/v1/graphql', { query: 'query { hello {code name} }' }, { 'x-request-id': 'unauthorized-raw' });
    const refused = (await httpLog('unauthorized-raw')).detail.operation;
    expect(refused.query).toBeUndefined();
    expect(refused.raw_query).toBe('{"query":"query { hello {code name} }"}');
    await postJson(kiln.url, '/v1/graphql', { quer: 'query { hello {code name} }' }, { 'x-request-id': 'json-parse-fail-log-test', 'x-svc-admin-secret': SECRET });
    const malformed = (await httpLog('json-parse-fail-log-test')).detail.operation;
    expect(malformed.error.code).toBe('parse-failed');
    expect(malformed.raw_query).toBe('{"quer":"query { hello {code name} }"}');
  });

  it('never shows a metadata request body, which may carry database URLs', async () => {
    await postJson(kiln.url, '/v1/metadata', { type: 'export_metadata', args: {} }, { 'x-request-id': 'metadata-body', 'x-svc-admin-secret': SECRET });
    const op = (await httpLog('metadata-body')).detail.operation;
    expect(op.query).toBeUndefined();
    expect(op.raw_query).toBeUndefined();
  });
});

describe('startup line', () => {
  const KEYS = ['port', 'server_host', 'transaction_isolation', 'admin_secret_set', 'auth_hook', 'auth_hook_mode', 'jwt_secret',
    'unauth_role', 'cors_config', 'enable_console', 'console_assets_dir', 'enable_telemetry', 'use_prepared_statements',
    'stringify_numeric_types', 'enabled_apis', 'live_query_options', 'enable_allowlist', 'enabled_log_types'];
  const configurations = (): any[] => lines.map((l) => JSON.parse(l))
    .filter((l) => l.type === 'startup' && l.detail.kind === 'server_configuration');

  it('writes one server_configuration line with the settings, the admin secret as admin_secret_set only', () => {
    const found = configurations().filter((l) => l.detail.info.port === kiln.port);
    expect(found).toHaveLength(1);
    const info = found[0]!.detail.info;
    for (const key of KEYS) expect(info).toHaveProperty(key);
    expect(info).toMatchObject({ admin_secret_set: true, auth_hook: null, jwt_secret: null, unauth_role: null,
      cors_config: { disabled: false, allowed_origins: '*' } });
    expect(info.enabled_log_types).toEqual(expect.arrayContaining(['startup', 'http-log', 'query-log']));
    expect(lines.some((l) => l.includes(SECRET))).toBe(false);
  });

  it('shows a JWT secret with its key redacted, as Hasura\'s JWTConfig writes it', async () => {
    const key = 'a-very-long-jwt-signing-key-for-the-startup-line-test';
    const saved = process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
    process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = 'startup';
    let other: ServedDatabase | undefined;
    try {
      other = await serveDatabase('startlog', '', { adminSecret: SECRET, jwtSecret: JSON.stringify({ type: 'HS256', key }), unauthorizedRole: 'anonymous' });
      let info: any;
      for (let i = 0; i < 50 && !info; i++) {
        info = configurations().find((l) => l.detail.info.port === other!.port)?.detail.info;
        if (!info) await new Promise((r) => setTimeout(r, 20));
      }
      expect(info.jwt_secret).toMatchObject({ type: '<TYPE REDACTED>', key: '<JWK REDACTED>', claims_format: 'json' });
      expect(info.unauth_role).toBe('anonymous');
      expect(info.enabled_log_types).toEqual(['startup']);
      expect(lines.some((l) => l.includes(key))).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
      else process.env.SVC_GRAPHQL_ENABLED_LOG_TYPES = saved;
      await other?.close();
    }
  });
});

describe('http-log request_mode', () => {
  it('is error for a request that failed as a whole, single, non-graphql or batched otherwise', async () => {
    await postJson(kiln.url, '/v1/graphql', { query: '{ nope }' }, { 'x-request-id': 'mode-invalid', 'x-svc-admin-secret': SECRET });
    await postJson(kiln.url, '/v1/graphql', { query: '{ hello { code } }' }, { 'x-request-id': 'mode-denied' });
    await postJson(kiln.url, '/v1/metadata', { type: 'pg_track_table', args: { table: 'nope' } }, { 'x-request-id': 'mode-metadata', 'x-svc-admin-secret': SECRET });
    await postJson(kiln.url, '/v1/graphql', { query: '{ hello { code } }' }, { 'x-request-id': 'mode-single', 'x-svc-admin-secret': SECRET });
    await postJson(kiln.url, '/v1/metadata', { type: 'export_metadata', args: {} }, { 'x-request-id': 'mode-fine', 'x-svc-admin-secret': SECRET });
    await postJson(kiln.url, '/v1/graphql', [{ query: '{ hello { code } }' }, { query: '{ nope }' }], { 'x-request-id': 'mode-batch', 'x-svc-admin-secret': SECRET });
    const mode = async (id: string): Promise<string> => (await httpLog(id)).detail.operation.request_mode;
    expect(await mode('mode-invalid')).toBe('error');
    expect(await mode('mode-denied')).toBe('error');
    expect(await mode('mode-metadata')).toBe('error');
    expect(await mode('mode-single')).toBe('single');
    expect(await mode('mode-fine')).toBe('non-graphql');
    expect(await mode('mode-batch')).toBe('batched');
  });
});
