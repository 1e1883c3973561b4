// A remote schema's Set-Cookie reaches the client in the HTTP response of a request asking its
// root fields, as Hasura's runRemoteGQ keeps it (mkSetCookieHeaders) for the HTTP transport
// (tests-py test_schema_stitching.py TestRemoteSchemaResponseHeaders
// test_response_headers_from_remote: the auth-graphql remote answers Set-Cookie: abcd and a
// Custom-Header, and only the cookie comes through).

import { createServer, type Server } from 'node:http';
import { buildSchema, graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const schema = buildSchema('type Query { hello(arg: String = "world"): String }');
let remote: Server;
let server: ServedDatabase;

async function raw(body: unknown): Promise<{ cookies: string[]; custom: string | null; body: any }> {
  const res = await fetch(`${server.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { cookies: res.headers.getSetCookie(), custom: res.headers.get('custom-header'), body: await res.json() };
}

beforeAll(async () => {
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string };
        const out = await graphql({ schema, source: b.query, rootValue: { hello: ({ arg }: { arg: string }) => `Hello ${arg}` } });
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'abcd', 'custom-header': 'custom-value' }).end(JSON.stringify(out));
      })();
    });
  });
  await new Promise<void>((ok) => remote.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(remote.address() as { port: number }).port}/graphql`;
  server = await serveDatabase('fidrscookie', 'CREATE TABLE note (id int PRIMARY KEY);', {
    track: ['note'], metadata: [{ type: 'add_remote_schema', args: { name: 'sample-auth', definition: { url } } }],
  });
});
afterAll(async () => {
  await server?.close();
  remote?.closeAllConnections();
  await new Promise((ok) => remote?.close(ok));
});

describe('Set-Cookie from a remote schema', () => {
  it('is sent on with the response, other headers of the remote are not', async () => {
    const r = await raw({ query: 'query { hello(arg: "me") }' });
    expect(r.body).toEqual({ data: { hello: 'Hello me' } });
    expect(r.cookies).toEqual(['abcd']);
    expect(r.custom).toBeNull();
  });
  it('comes with a request mixing tables and the remote, and in a batch', async () => {
    expect((await raw({ query: '{ note { id } hello }' })).cookies).toEqual(['abcd']);
    const batch = await raw([{ query: '{ hello }' }, { query: '{ note { id } }' }]);
    expect(batch.body).toEqual([{ data: { hello: 'Hello world' } }, { data: { note: [] } }]);
    expect(batch.cookies).toEqual(['abcd']);
  });
  it('does not come when no remote field is asked', async () => {
    expect((await raw({ query: '{ note { id } }' })).cookies).toEqual([]);
  });
});
