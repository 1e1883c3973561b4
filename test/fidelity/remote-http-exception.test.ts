// A remote root field whose server does not answer in time, or cannot be reached, fails with
// remote-schema-error "HTTP exception occurred while sending the request to <url>", and the admin
// sees Hasura's HttpException JSON under `internal` ({type: "http_exception", message: "Response
// timeout" | "Connection failure"}: execRemoteGQ's throwRemoteSchemaHttp, Hasura.HTTP's ToJSON;
// tests-py test_schema_stitching.py TestRemoteSchemaTimeout test_remote_query_timeout reads
// errors[0].extensions.internal.type and .message); other roles do not.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('a remote that does not answer', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const admin = { 'x-svc-admin-secret': 'sec' };

  beforeAll(async () => {
    remote = await startRemote('type Query { hello: String }', { hello: () => 'hi' });
    server = await serveDatabase('fidrshttp', 'SELECT 1;', { adminSecret: 'sec', metadata: [
      { type: 'add_remote_schema', args: { name: 'slow', definition: { url: remote.url, timeout_seconds: 1 } } },
    ] });
  });
  afterAll(async () => {
    remote.delay(0);
    await server?.close();
    await remote?.close();
  });

  it('is a remote-schema-error with the HTTP exception as internal for the admin', async () => {
    remote.delay(1500);
    try {
      expect(await server.gql('{ hello }', undefined, admin)).toEqual({ errors: [{ message: `HTTP exception occurred while sending the request to ${remote.url}`,
        extensions: { path: '$', code: 'remote-schema-error', internal: { type: 'http_exception', message: 'Response timeout' } } }] });
      expect(await server.gql('{ hello }', undefined, { ...admin, 'x-svc-role': 'user' })).toEqual({ errors: [{ message: `HTTP exception occurred while sending the request to ${remote.url}`,
        extensions: { path: '$', code: 'remote-schema-error' } }] });
    } finally {
      remote.delay(0);
    }
  });

  it('says "Connection failure" when nothing listens', async () => {
    await remote.close();
    const r = await server.gql('{ hello }', undefined, admin);
    expect(r.errors[0].extensions).toEqual({ path: '$', code: 'remote-schema-error', internal: { type: 'http_exception', message: 'Connection failure' } });
  });
});
