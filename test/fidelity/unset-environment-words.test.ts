// Hasura names an environment variable that is not set in one way wherever it reads one
// (getUrlFromEnv, getHeadersFromConf, getEnv): `environment variable 'X' not set`, the name in
// single quotes. A remote schema's url_from_env and header value_from_env (add_remote_schema) and an
// action's header value_from_env (when the action is called) alike.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('unset environment variables in Hasura\'s words', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown) => post('/v1/metadata', { type, args });

  beforeAll(async () => {
    for (const v of ['KILN_FID_NO_REMOTE_URL', 'KILN_FID_NO_REMOTE_TOKEN', 'KILN_FID_NO_ACTION_TOKEN']) delete process.env[v];
    server = await serveDatabase('fidunsetenv');
  });

  afterAll(() => server?.close());

  it('add_remote_schema: the URL and a header from the environment', async () => {
    const a = await md('add_remote_schema', { name: 'weather', definition: { url_from_env: 'KILN_FID_NO_REMOTE_URL' } });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe("environment variable 'KILN_FID_NO_REMOTE_URL' not set");
    const b = await md('add_remote_schema', { name: 'weather', definition: { url: 'http://127.0.0.1:9/graphql',
      headers: [{ name: 'x-token', value_from_env: 'KILN_FID_NO_REMOTE_TOKEN' }] } });
    expect(b.status).toBe(400);
    expect(b.body.error).toBe("environment variable 'KILN_FID_NO_REMOTE_TOKEN' not set");
    expect((await md('export_metadata', {})).body.remote_schemas).toBeUndefined();
  });

  it('an action whose header comes from an unset variable fails when called, before any request', async () => {
    expect((await md('create_action', { name: 'ping', definition: { handler: 'http://127.0.0.1:9/ping', output_type: 'Boolean', arguments: [],
      headers: [{ name: 'x-token', value_from_env: 'KILN_FID_NO_ACTION_TOKEN' }] } })).status).toBe(200);
    const r = await post('/v1/graphql', { query: 'mutation { ping }' });
    expect(r.body.errors).toEqual([{ message: "environment variable 'KILN_FID_NO_ACTION_TOKEN' not set", extensions: { path: '$', code: 'unexpected' } }]);
  });
});
