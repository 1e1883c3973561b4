// Actions in a compiled bundle (issue 18, "Compile"): a bundle served with no metadata catalog
// runs its synchronous actions (handler URL templates read at run time) and its asynchronous ones
// (logged in the metadata database); `kiln diff` reports the actions a role gains or loses.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { diffModels } from '../../compiler/cli/diff-model.js';
import { inspectCommand } from '../../compiler/cli/inspect.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { loadBundle } from '../../runtime/bundle/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startHandler, type HandlerServer } from './handler-server.js';

describe('actions in a bundle', () => {
  let db: TestDatabase;
  let handler: HandlerServer;
  let tmp: string;
  const metadata = (grantLater: boolean) => ({ version: 3,
    sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: db.url } },
      tables: [{ table: { schema: 'public', name: 'account' }, select_permissions: [{ role: 'user', permission: { columns: ['name'], filter: { name: { _eq: 'X-Svc-User-Id' } } } }] }] }],
    custom_types: { objects: [{ name: 'Out', fields: [{ name: 'id', type: 'Int!' }],
      relationships: [{ name: 'account', type: 'object', remote_table: 'account', field_mapping: { id: 'id' } }] }] },
    actions: [
      { name: 'hello', definition: { type: 'query', handler: '{{KILN_TEST_BUNDLE_HANDLER}}/h', output_type: 'Out', arguments: [{ name: 'n', type: 'Int!' }] }, permissions: [{ role: 'user' }] },
      { name: 'later', definition: { kind: 'asynchronous', handler: '{{KILN_TEST_BUNDLE_HANDLER}}/h', output_type: 'Out', arguments: [{ name: 'n', type: 'Int!' }] },
        ...(grantLater ? { permissions: [{ role: 'user' }] } : {}) },
    ] });
  const compile = async (name: string, md: unknown): Promise<string> => {
    const file = join(tmp, `${name}.json`);
    await writeFile(file, JSON.stringify(md));
    await compileCommand({ metadata: file, databaseUrl: db.url, out: join(tmp, name), quiet: true });
    return join(tmp, name);
  };

  beforeAll(async () => {
    handler = await startHandler();
    handler.route('/h', (b) => ({ body: { id: b.input.n * 10 } }));
    process.env['KILN_TEST_BUNDLE_HANDLER'] = handler.base;
    db = await createTestDatabase('actions_bundle', 'CREATE TABLE account (id int PRIMARY KEY, name text)');
    tmp = await mkdtemp(join(tmpdir(), 'kiln-actions-'));
  });
  afterAll(async () => {
    await handler?.close();
    await db?.drop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('serves synchronous and asynchronous actions from a bundle', async () => {
    const dir = await compile('served', metadata(false));
    process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'] = '100';
    const server = await serveCommand({ bundle: dir, databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false });
    try {
      const post = (body: unknown, headers: Record<string, string> = {}) => postJson(`http://127.0.0.1:${server.port}`, '/v1/graphql', body, headers);
      expect((await post({ query: '{ hello(n: 4) { id } }' }, { 'x-svc-role': 'user' })).body).toEqual({ data: { hello: { id: 40 } } });
      const id = (await post({ query: 'mutation { later(n: 5) }' })).body.data.later as string;
      let output = null;
      for (let i = 0; i < 50 && output === null; i++) {
        await new Promise((r) => setTimeout(r, 100));
        output = (await post({ query: `{ later(id: "${id}") { output { id } } }` })).body.data.later.output;
      }
      expect(output).toEqual({ id: 50 });
    } finally {
      await server.close();
      delete process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'];
    }
  });

  it('shows in kiln inspect --query the handler call and the SQL of the output\'s relationships for a role', async () => {
    const dir = await compile('inspected', metadata(false));
    const query = join(tmp, 'q.graphql');
    await writeFile(query, '{ hello(n: 1) { id account { name } } }');
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((c: string) => { chunks.push(String(c)); return true; }) as typeof process.stdout.write;
    try {
      await inspectCommand({ bundle: dir, role: 'user', query });
    } finally {
      process.stdout.write = write;
    }
    const text = chunks.join('');
    expect(text).toContain('-- action hello (query, synchronous)');
    expect(text).toContain('-- POST {{KILN_TEST_BUNDLE_HANDLER}}/h (timeout 30 s)');
    expect(text).toContain('-- relationship account (object, default:public.account)');
    // The role's filter is in the statement, its session value a parameter (a column of the relation of output objects).
    expect(text).toMatch(/"name" = \("_subs"\."p\d+"\)::text/);
    expect(text).toMatch(/FROM unnest\(\$1::int4\[\], \$2::text\[\]/);
    expect(text).not.toContain('X-Svc-User-Id');
  });

  it('reports in kiln diff the actions a role gains and loses', async () => {
    const before = (await loadBundle(await compile('before', metadata(false)))).model;
    const after = (await loadBundle(await compile('after', metadata(true)))).model;
    const gained = diffModels(before, after).filter((c) => c.aspect === 'action');
    expect(gained).toEqual([{ role: 'user', table: null, operation: null, aspect: 'action', verdict: 'widened', detail: 'added action later (mutation, asynchronous)' }]);
    const lost = diffModels(after, before).filter((c) => c.aspect === 'action');
    expect(lost).toEqual([{ role: 'user', table: null, operation: null, aspect: 'action', verdict: 'narrowed', detail: 'removed action later (mutation, asynchronous)' }]);
  });
});
