// A remote schema that is an inconsistent object carries Hasura's reason prefix (imReason:
// "Inconsistent object: <reason>"), and update_remote_schema keeping the URL is judged as
// Hasura's runUpdateRemoteSchema judges it, through the rebuilt schema cache: 400
// invalid-configuration with that reason and the object in `internal` (tests-py
// test_schema_stitching.py test_update_schema_with_customization_change_invalid); changing the URL
// reads the remote first, whose failure is a plain remote-schema-error as for add_remote_schema.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('remote schema inconsistency reasons', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const FOO = 'Type name mappings are not distinct; the following types appear more than once: "Foo"';

  beforeAll(async () => {
    remote = await startRemote('type Hello { hello: String } schema { query: Hello }', { hello: () => 'hi' });
    server = await serveDatabase('fidrsincons', 'SELECT 1;', { metadata: [{ type: 'add_remote_schema', args: { name: 'simple 1', definition: { url: remote.url } } }] });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('refuses an update keeping the URL with the inconsistent object\'s reason', async () => {
    const definition = { url: remote.url, customization: { type_names: { mapping: { String: 'Foo', Hello: 'Foo' } } } };
    const r = await server.metadata('update_remote_schema', { name: 'simple 1', definition });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ path: '$.args', code: 'invalid-configuration', error: `Inconsistent object: ${FOO}` });
    expect(r.body.internal).toEqual([{ type: 'remote_schema', name: 'remote_schema simple 1', definition: { name: 'simple 1', definition }, reason: `Inconsistent object: ${FOO}` }]);
  });

  it('refuses an update changing the URL with the plain reason', async () => {
    const r = await server.metadata('update_remote_schema', { name: 'simple 1', definition: { url: 'http://127.0.0.1:1/graphql' } });
    expect(r).toEqual({ status: 400, body: { path: '$.args', code: 'remote-schema-error', error: 'HTTP exception occurred while sending the request to http://127.0.0.1:1/graphql' } });
    expect((await server.gql('{ hello }'))).toEqual({ data: { hello: 'hi' } });
  });

  it('lists a remote that cannot be read with the prefix', async () => {
    remote.answerWith('down');
    try {
      const r = await server.metadata('reload_metadata', { reload_remote_schemas: true });
      expect(r.body).toMatchObject({ is_consistent: false, inconsistent_objects: [{ type: 'remote_schema', name: 'remote_schema simple 1',
        reason: `Inconsistent object: the remote server at ${remote.url} did not answer with JSON` }] });
    } finally {
      remote.answerWith(null);
    }
    expect((await server.metadata('reload_remote_schema', { name: 'simple 1' })).status).toBe(200);
  });
});
