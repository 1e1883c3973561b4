// Hostile input to the endpoints other than /v1/graphql (fast-check, a served `kiln serve` in
// catalog mode, real sockets): REST endpoints, the /v1/query data operations as random roles,
// WebSocket subscriptions in both protocols, and /v1/metadata operations with mangled arguments.
// Every HTTP request must be answered within the time limit in the route's JSON shape, never with a
// 500 or an `unexpected` error; a WebSocket must be answered or closed, never take the process
// down; /healthz must answer after every case; and a metadata call that fails must leave the
// metadata exactly as it was (export_metadata before and after).
//
// KILN_ENDPOINT_FUZZ_RUNS: cases per endpoint (default 60). KILN_ENDPOINT_FUZZ_SEED: the seed.
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreOperations } from '../../compiler/ops/registry.js';
import { postJson } from '../helpers/http.js';
import { ROLES, TABLES } from './fixture.js';
import { startFuzzServer, type FuzzServer } from './served.js';
import { hostile } from './text-gen.js';

const RUNS = Number(process.env.KILN_ENDPOINT_FUZZ_RUNS ?? 60);
const SEED = Number(process.env.KILN_ENDPOINT_FUZZ_SEED ?? 977);
const ANSWER_WITHIN = 20_000;

let base: string;
let server: FuzzServer;
let crashes: unknown[] = [];

beforeAll(async () => {
  server = await startFuzzServer('fuzzends');
  base = server.base;
  crashes = server.crashes;
  // REST endpoints over the fixture: one without variables, one with an Int and a String.
  const steps = [
    { type: 'create_query_collection', args: { name: 'fz', definition: { queries: [
      { name: 'orgs', query: 'query { org(order_by: {id: asc}) { id name } }' },
      { name: 'article', query: 'query ($id: Int!, $t: String) { article(where: {id: {_eq: $id}, title: {_neq: $t}}) { id title } }' },
    ] } } },
    { type: 'create_rest_endpoint', args: { name: 'orgs', url: 'orgs', methods: ['GET', 'POST'], definition: { query: { collection_name: 'fz', query_name: 'orgs' } } } },
    { type: 'create_rest_endpoint', args: { name: 'article', url: 'article/:id', methods: ['GET', 'POST'], definition: { query: { collection_name: 'fz', query_name: 'article' } } } },
    { type: 'add_collection_to_allowlist', args: { collection: 'fz' } },
  ];
  for (const step of steps) {
    const r = await postJson(base, '/v1/metadata', step);
    if (r.status !== 200) throw new Error(`${step.type}: ${JSON.stringify(r.body)}`);
  }
}, 60_000);

afterAll(async () => {
  console.log(`endpoint fuzz: ${RUNS} cases per endpoint, 0 crashes; answers by route and status ${JSON.stringify(statuses)}; metadata errors by code ${JSON.stringify(metadataCodes)}; RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`);
  await server?.close();
}, 60_000);

// ---------- what an answer may be ----------

// An error in the management shape ({error, code, path}) or the GraphQL shape ({errors: [...]}),
// with any code but `unexpected` (a bug). The statement timeout may cancel a legitimately huge query.
function errorProblems(body: unknown): string[] {
  const o = body as { error?: unknown; code?: unknown; path?: unknown; errors?: unknown };
  if (Array.isArray(o?.errors)) {
    return (o.errors as { message?: unknown; extensions?: { code?: unknown } }[]).flatMap((e) =>
      typeof e?.message !== 'string' || typeof e.extensions?.code !== 'string' ? [`bad GraphQL error ${JSON.stringify(e).slice(0, 200)}`]
        : e.extensions.code === 'unexpected' ? [`unexpected: ${e.message}`] : []);
  }
  if (typeof o?.error !== 'string' || typeof o.code !== 'string' || typeof o.path !== 'string') return [`bad error shape ${JSON.stringify(body).slice(0, 300)}`];
  return o.code === 'unexpected' ? [`unexpected: ${o.error}`] : [];
}

// Answers per route and status, printed at the end (what the cases reached).
const statuses: Record<string, Record<number, number>> = {};
const metadataCodes: Record<string, number> = {};

async function send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(`${base}${path}`, { method, ...(body === undefined ? {} : { body }), headers, signal: AbortSignal.timeout(ANSWER_WITHIN) });
    const route = path.startsWith('/api/rest') ? 'rest' : path;
    const tally = (statuses[route] ??= {});
    tally[res.status] = (tally[res.status] ?? 0) + 1;
    return { status: res.status, text: await res.text() };
  } catch (e) {
    throw new Error(`${method} ${path}: no answer (${(e as Error).message})\nbody: ${String(body).slice(0, 1000)}`);
  }
}

async function judgeHttp(what: string, status: number, text: string, errorExpected: boolean): Promise<void> {
  if (status >= 500) throw new Error(`${what}: HTTP ${status}: ${text.slice(0, 500)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${what}: not JSON (${status}): ${text.slice(0, 300)}`);
  }
  const failed = status >= 400 || errorExpected || (body !== null && typeof body === 'object' && ('errors' in body || ('error' in body && 'code' in body)));
  if (failed && status >= 400) {
    const problems = errorProblems(body);
    if (problems.length) throw new Error(`${what}: ${problems.join('; ')}`);
  } else if (body !== null && typeof body === 'object' && 'errors' in body) {
    const problems = errorProblems(body);
    if (problems.length) throw new Error(`${what}: ${problems.join('; ')}`);
  }
  await healthy(what);
}

async function healthy(after: string): Promise<void> {
  const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN) });
  if (health.status !== 200) throw new Error(`/healthz answered ${health.status} after ${after}`);
  expect(crashes).toEqual([]);
}

// ---------- generators ----------

const ARG_KEYS = ['source', 'table', 'name', 'role', 'permission', 'columns', 'filter', 'check', 'using', 'foreign_key_constraint_on', 'manual_configuration',
  'remote_table', 'column_mapping', 'definition', 'comment', 'cascade', 'url', 'webhook', 'headers', 'schema', 'function', 'configuration', 'type', 'args',
  'query', 'queries', 'collection', 'methods', 'relationship', 'new_name', 'insert', 'update', 'delete', 'retry_conf', 'schedule', 'payload', 'limit',
  'offset', 'tables', 'version', 'metadata', 'custom_root_fields', 'custom_column_names', 'is_enum', 'disabled_for_roles', 'role_set', 'arguments',
  'output_type', 'handler', 'kind', 'field', 'resource_version'];

const roleHeaders = fc.constantFrom(...ROLES).chain((role) => fc.nat(100).map((n) => role.session(n)));
const tableNames = Object.keys(TABLES);
const atom = fc.oneof(
  fc.constantFrom<unknown>('default', 'public', ...tableNames, 'user', 'editor', 'admin', 'id', 'title', 'name', '', ' ', '%', 'x-svc-user-id',
    'X-Svc-User-Id', 'http://127.0.0.1:9/', 'not a url', '{{NO_SUCH_ENV}}', '日本', '\u0000', '\uD800', 'a'.repeat(300), '_eq', '_and', '$', '*'),
  fc.constantFrom<unknown>(0, 1, -1, 2 ** 31, 2 ** 53, 0.5, true, false, null),
  fc.constantFrom<unknown>(...tableNames.map((name) => ({ schema: 'public', name })), { schema: 'nope', name: 'article' }),
  fc.string({ maxLength: 12 }),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, atom, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...ARG_KEYS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
})).value;

// ---------- REST ----------

const restCase = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  path: fc.oneof(
    { arbitrary: fc.oneof(fc.constant('/api/rest/orgs'), fc.oneof(fc.constantFrom('1', '0', '-1', 'abc', '1.5', '99999999999', '%00', '%zz', ''), fc.string({ maxLength: 8 }))
      .map((id) => `/api/rest/article/${id.startsWith('%') ? id : encodeURIComponent(id)}`)), weight: 3 },
    fc.constantFrom('/api/rest/article/', '/api/rest/article/1/2', '/api/rest/', '/api/rest', '/api/rest/../v1/metadata', '/api/rest/ORGS'),
    fc.array(fc.constantFrom('orgs', 'article', '1', ':id', '..', '%2e', '?', '&', '=', 'id=1', 't=x', 'id=9999999999999999999'), { maxLength: 5 })
      .map((parts) => `/api/rest/${parts.join('/')}`),
  ),
  query: fc.oneof(fc.constant(''), fc.array(fc.tuple(fc.constantFrom('id', 't', 'x', ''), fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('1', '-1', '1e400', 'null', '[1]'))), { maxLength: 4 })
    .map((kv) => `?${kv.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`)),
  body: fc.oneof(fc.constant(undefined), json.map((v) => JSON.stringify(v)), fc.string({ maxLength: 40 })),
  headers: roleHeaders,
});

// ---------- /v1/query data operations ----------

const v1Case = fc.record({
  type: fc.constantFrom('select', 'insert', 'update', 'delete', 'count', 'bulk'),
  table: fc.oneof(fc.constantFrom<unknown>(...tableNames, ...tableNames.map((name) => ({ schema: 'public', name }))), atom),
  extra: fc.dictionary(fc.constantFrom('columns', 'where', 'objects', '$set', '$inc', 'order_by', 'limit', 'offset', 'returning', 'on_conflict', 'args'), json, { maxKeys: 4 }),
  headers: roleHeaders,
});

// ---------- WebSocket ----------

const wsFrame = fc.oneof(
  fc.string({ maxLength: 60 }),
  json.map((v) => JSON.stringify(v)),
  fc.record({ type: fc.constantFrom('connection_init', 'start', 'subscribe', 'stop', 'complete', 'ping', 'pong', 'connection_terminate', 'ka', 'nonsense'),
    id: fc.oneof(fc.constant(undefined), fc.constantFrom<unknown>('1', '1', '', 7, null, 'x'.repeat(200))),
    payload: fc.oneof(json, hostile.map((h) => { try { return JSON.parse(h.body) as unknown; } catch { return h.body; } }),
      fc.constant({ headers: { 'x-svc-role': 'user', 'x-svc-user-id': '1' } }), fc.constant({ query: 'subscription { org { id } }' })) })
    .map((m) => JSON.stringify(m)),
);
const wsCase = fc.record({
  protocol: fc.constantFrom<string | undefined>('graphql-ws', 'graphql-transport-ws', 'nonsense', undefined),
  frames: fc.array(fc.oneof(wsFrame, fc.constant(JSON.stringify({ type: 'connection_init', payload: {} }))), { minLength: 1, maxLength: 6 }),
});

// One WebSocket session: open, send the frames, read for a moment, close. Resolves with what the
// server sent; rejects only if the socket could not be opened at all for an accepted protocol.
function wsSession(protocol: string | undefined, frames: readonly string[]): Promise<{ messages: string[]; closeCode: number | null }> {
  return new Promise((resolve, reject) => {
    const ws = protocol === undefined ? new WebSocket(`${base.replace('http', 'ws')}/v1/graphql`) : new WebSocket(`${base.replace('http', 'ws')}/v1/graphql`, protocol);
    const messages: string[] = [];
    let closeCode: number | null = null;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try { ws.terminate(); } catch { /* already gone */ }
      resolve({ messages, closeCode });
    };
    const timer = setTimeout(finish, 250);
    ws.on('message', (data) => messages.push(String(data)));
    ws.on('close', (code) => { closeCode = code; finish(); });
    ws.on('error', () => finish());
    ws.on('unexpected-response', (_req, res) => {
      // Refusing the handshake (an unknown subprotocol) is an answer too, as long as it is not a 500.
      if ((res.statusCode ?? 0) >= 500) reject(new Error(`WebSocket handshake answered ${res.statusCode}`));
      else finish();
    });
    ws.on('open', () => {
      for (const f of frames) {
        if (ws.readyState !== WebSocket.OPEN) break;
        ws.send(f);
      }
    });
  });
}

// ---------- metadata ----------

const RUNTIME_OPS = ['create_remote_schema', 'update_remote_schema', 'remove_remote_schema', 'add_remote_schema_permissions', 'drop_remote_schema_permissions',
  'create_action', 'update_action', 'drop_action', 'create_action_permission', 'drop_action_permission', 'set_custom_types',
  'create_query_collection', 'drop_query_collection', 'add_query_to_collection', 'drop_query_from_collection', 'create_rest_endpoint', 'drop_rest_endpoint',
  'add_collection_to_allowlist', 'drop_collection_from_allowlist', 'update_scope_of_collection_in_allowlist',
  'pg_create_event_trigger', 'pg_delete_event_trigger', 'pg_redeliver_event', 'pg_invoke_event_trigger', 'create_cron_trigger', 'delete_cron_trigger',
  'create_scheduled_event', 'delete_scheduled_event', 'get_scheduled_events', 'get_cron_triggers', 'set_api_limits', 'remove_api_limits',
  'set_graphql_schema_introspection_options', 'add_inherited_role', 'drop_inherited_role', 'export_metadata', 'get_inconsistent_metadata',
  'drop_inconsistent_metadata', 'reload_metadata', 'replace_metadata', 'test_webhook_transform', 'no_such_operation'];
// clear_metadata is left out: it succeeds with any args and would leave nothing to fuzz.
const METADATA_OPS = [...new Set([...Object.keys(coreOperations).filter((t) => !t.endsWith('clear_metadata')), ...RUNTIME_OPS])]
  .filter((t) => !/run_sql|bulk/.test(t));
// Calls near a valid one (one part of it hostile), which reach the operations' own checks, and
// calls of any operation with any arguments, which mostly stop at the argument checks.
const hostileQuery = hostile.map((h) => { try { return (JSON.parse(h.body) as { query?: unknown }).query ?? h.body; } catch { return h.body; } });
const nameArb = fc.oneof({ arbitrary: fc.constantFrom('fz_a', 'fz_b', 'fz_c'), weight: 4 }, atom);
const filterArb = fc.oneof({ arbitrary: fc.record({ id: fc.dictionary(fc.constantFrom('_eq', '_gt', '_in', '_is_null', '_nonsense'),
  fc.oneof(fc.integer(), fc.constant('X-Svc-User-Id'), fc.constant([1, 2]), atom), { minKeys: 1, maxKeys: 2 }) }), weight: 3 }, json);
const nearValid = fc.oneof(
  fc.record({ type: fc.constant('pg_create_select_permission'), args: fc.record({ source: fc.constant('default'), table: fc.constantFrom(...tableNames),
    role: fc.constantFrom('fz_role', 'user'), permission: fc.record({ columns: fc.oneof(fc.constant('*'), fc.constant(['id']), fc.array(atom, { maxLength: 3 })), filter: filterArb }) }) }),
  fc.record({ type: fc.constant('pg_create_object_relationship'), args: fc.record({ source: fc.constant('default'), table: fc.constantFrom(...tableNames),
    name: nameArb, using: fc.record({ foreign_key_constraint_on: fc.oneof(fc.constantFrom('org_id', 'author_id', 'id'), atom) }) }) }),
  fc.record({ type: fc.constantFrom('pg_track_table', 'pg_untrack_table', 'pg_set_table_is_enum'), args: fc.record({ source: fc.constant('default'), table: atom, is_enum: atom }) }),
  fc.record({ type: fc.constant('pg_set_table_customization'), args: fc.record({ source: fc.constant('default'), table: fc.constantFrom(...tableNames), configuration: json }) }),
  fc.record({ type: fc.constant('create_query_collection'), args: fc.record({ name: nameArb,
    definition: fc.record({ queries: fc.array(fc.record({ name: nameArb, query: hostileQuery }), { maxLength: 2 }) }) }) }),
  fc.record({ type: fc.constant('create_rest_endpoint'), args: fc.record({ name: nameArb, url: fc.oneof(fc.constantFrom('fz/:id', 'fz', 'orgs', '/x', 'a/:b/:b'), atom), methods: fc.oneof(fc.constant(['GET']), fc.array(atom, { maxLength: 2 })),
    definition: fc.record({ query: fc.record({ collection_name: fc.constant('fz'), query_name: fc.oneof(fc.constantFrom('orgs', 'article'), atom) }) }) }) }),
  fc.record({ type: fc.constant('set_api_limits'), args: fc.dictionary(fc.constantFrom('depth_limit', 'node_limit', 'batch_limit', 'time_limit', 'rate_limit', 'disabled'),
    fc.oneof(json, fc.record({ global: atom, per_role: json })), { maxKeys: 3 }) }),
  fc.record({ type: fc.constant('pg_create_event_trigger'), args: fc.record({ name: nameArb, source: fc.constant('default'), table: fc.constantFrom(...tableNames),
    webhook: fc.constantFrom('http://127.0.0.1:9/', 'nope', ''), insert: fc.oneof(json, fc.record({ columns: json })), retry_conf: json }) }),
  fc.record({ type: fc.constant('create_cron_trigger'), args: fc.record({ name: nameArb, webhook: fc.constantFrom('http://127.0.0.1:9/', 'nope'),
    schedule: fc.oneof(atom, fc.constantFrom('* * * * *', '*/5 * * *', '61 * * * *', '@hourly')), payload: json, include_in_metadata: atom }) }),
  fc.record({ type: fc.constant('add_inherited_role'), args: fc.record({ role_name: nameArb, role_set: fc.oneof(fc.constant(['user', 'editor']), json) }) }),
  fc.record({ type: fc.constant('set_graphql_schema_introspection_options'), args: fc.record({ disabled_for_roles: json }) }),
);
const metadataCase = fc.record({
  call: fc.oneof({ arbitrary: nearValid, weight: 3 }, fc.record({
    type: fc.constantFrom(...METADATA_OPS),
    args: fc.oneof(json, fc.dictionary(fc.constantFrom(...ARG_KEYS), json, { minKeys: 1, maxKeys: 6 })),
  })),
  version: fc.constantFrom<unknown>(undefined, undefined, undefined, 1, 2, '2', null),
});

// ---------- the properties ----------

describe('hostile input to REST, /v1/query, WebSocket and /v1/metadata never takes Kiln down', () => {
  it(`${RUNS} REST requests: JSON answers in the REST shapes, no 500, /healthz up`, async () => {
    await fc.assert(fc.asyncProperty(restCase, async (c) => {
      const headers = { ...c.headers, ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}) };
      const body = c.method === 'GET' ? undefined : c.body;
      const r = await send(c.method, `${c.path}${c.query}`, body, headers);
      await judgeHttp(`${c.method} ${c.path}${c.query} as ${JSON.stringify(c.headers)} body ${String(body).slice(0, 200)}`, r.status, r.text, false);
    }), { numRuns: RUNS, seed: SEED });
  }, Math.max(60_000, RUNS * 1500));

  it(`${RUNS} /v1/query data operations as random roles: no 500, no unexpected error`, async () => {
    await fc.assert(fc.asyncProperty(v1Case, async (c) => {
      const args = c.type === 'bulk' ? [{ type: 'select', args: { table: c.table, ...c.extra } }, c.extra] : { table: c.table, ...c.extra };
      const r = await send('POST', '/v1/query', JSON.stringify({ type: c.type, args }), { 'content-type': 'application/json', ...c.headers });
      await judgeHttp(`/v1/query ${c.type} as ${JSON.stringify(c.headers)} args ${JSON.stringify(args).slice(0, 300)}`, r.status, r.text, false);
    }), { numRuns: RUNS, seed: SEED });
  }, Math.max(60_000, RUNS * 1500));

  it(`${RUNS} WebSocket sessions of hostile frames: answered or closed, the process lives, /healthz up`, async () => {
    const seen = { sessions: 0, messages: 0, closed: 0 };
    await fc.assert(fc.asyncProperty(wsCase, async (c) => {
      const { messages, closeCode } = await wsSession(c.protocol, c.frames);
      seen.sessions++;
      seen.messages += messages.length;
      if (closeCode !== null) seen.closed++;
      for (const m of messages) {
        let parsed: { type?: unknown; payload?: unknown };
        try {
          parsed = JSON.parse(m) as typeof parsed;
        } catch {
          throw new Error(`a server frame is not JSON: ${m.slice(0, 200)}`);
        }
        if (typeof parsed.type !== 'string') throw new Error(`a server frame without a type: ${m.slice(0, 200)}`);
        if (m.includes('"code":"unexpected"')) throw new Error(`an unexpected error over the socket: ${m.slice(0, 300)}\nframes: ${c.frames.join(' | ').slice(0, 1000)}`);
      }
      await healthy(`a WebSocket session (${c.protocol}) of ${c.frames.join(' | ').slice(0, 500)}`);
    }), { numRuns: RUNS, seed: SEED });
    // The sessions reached the server and were answered, not all refused at the handshake.
    expect(seen.messages).toBeGreaterThan(0);
  }, Math.max(60_000, RUNS * 2000));

  it(`${RUNS} metadata calls with mangled arguments: no 500, and a call that fails changes nothing`, async () => {
    let failures = 0;
    await fc.assert(fc.asyncProperty(metadataCase, async (c) => {
      const before = await postJson(base, '/v1/metadata', { type: 'export_metadata', args: {} });
      const call = { ...c.call, ...(c.version === undefined ? {} : { version: c.version }) };
      const r = await send('POST', '/v1/metadata', JSON.stringify(call), { 'content-type': 'application/json' });
      const what = `/v1/metadata ${JSON.stringify(call).slice(0, 400)}`;
      await judgeHttp(what, r.status, r.text, false);
      if (r.status >= 400) {
        failures++;
        const code = /"code":"([^"]+)"/.exec(r.text)?.[1] ?? '?';
        metadataCodes[code] = (metadataCodes[code] ?? 0) + 1;
        const after = await postJson(base, '/v1/metadata', { type: 'export_metadata', args: {} });
        if (JSON.stringify(after.body) !== JSON.stringify(before.body)) {
          throw new Error(`${what} failed (${r.text.slice(0, 300)}) but changed the metadata`);
        }
      }
    }), { numRuns: RUNS, seed: SEED });
    // The calls were mostly refused (a generator that produced only valid calls would test nothing here).
    expect(failures).toBeGreaterThan(RUNS / 2);
  }, Math.max(60_000, RUNS * 2000));
});
