// A compiled bundle carries the API limits and introspection options (engine.mjs, model), so a
// served bundle enforces them with no metadata API behind it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildBundle, writeBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { loadBundle } from '../../runtime/bundle/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { LIMITS_SCHEMA, limitsMetadata, nested } from './limits-helpers.js';

let db: TestDatabase;
let dir: string;
let driver: Driver;

beforeAll(async () => {
  db = await createTestDatabase('apilimitsbundle', LIMITS_SCHEMA);
  dir = await mkdtemp(join(tmpdir(), 'kiln-limits-'));
  driver = createPgDriver({ url: db.url, max: 2 });
}, 60_000);

afterAll(async () => {
  await driver?.close();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('compiles api_limits and introspection options into the bundle, and the served bundle enforces them', async () => {
  const md = parseMetadata(limitsMetadata({
    api_limits: { depth_limit: { global: 2, per_role: { editor: 1 } }, rate_limit: { per_role: { user: { max_reqs_per_min: 50, unique_params: ['X-Svc-User-Id'] } } },
      time_limit: { global: 1.5 } },
    graphql_schema_introspection: { disabled_for_roles: ['user', 'editor', 'user'] },
  })).value!;
  await writeBundle(dir, await buildBundle({ metadata: md, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' }));
  expect(await readFile(join(dir, 'engine.mjs'), 'utf8')).toContain('apiLimits');
  const { model, sdl } = await loadBundle(dir);
  expect(model.apiLimits).toEqual({
    disabled: false,
    depth: { global: 2, perRole: { editor: 1 } },
    rate: { perRole: { user: { maxReqsPerMin: 50, uniqueParams: { kind: 'session', variables: ['x-svc-user-id'] } } } },
    time: { global: 1.5, perRole: {} },
  });
  expect(model.introspectionDisabledFor).toEqual(['editor', 'user']);

  const engine = new Engine({ model, sdl, driverFor: () => driver });
  const server = createServer({ engine, version: 'test', consoleEnabled: false });
  const { port } = await server.listen(0, '127.0.0.1');
  try {
    const ask = async (query: string, role: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query }), headers: { 'content-type': 'application/json', 'x-svc-role': role } });
      return (await res.json()) as { data?: unknown; errors?: { message: string }[] };
    };
    expect((await ask(nested(2), 'user')).errors).toBeUndefined();
    expect((await ask(nested(3), 'user')).errors?.[0]?.message).toBe('The depth limit has been exceeded for this query');
    expect((await ask(nested(2), 'editor')).errors?.[0]?.message).toBe('The depth limit has been exceeded for this query');
    expect((await ask('{ __schema { queryType { name } } }', 'user')).errors?.[0]?.message).toBe('introspection is disabled for role: "user"');
  } finally {
    await server.close();
  }
});

it('refuses a metadata file whose api_limits do not parse, with the path of the bad value', async () => {
  const md = parseMetadata(limitsMetadata({ api_limits: { batch_limit: { per_role: { user: 2.5 } } } })).value!;
  await expect(buildBundle({ metadata: md, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' }))
    .rejects.toMatchObject({ code: 'parse-failed', path: ['api_limits', 'batch_limit', 'per_role', 'user'] });
});
