// A subscription naming a remote schema's root field: Hasura v2 (March 2022) parses a subscription
// with its query parser (Execute.hs getResolvedExecPlan, "Parse as query to check correctness"),
// so the remote field is found, then buildSubscriptionPlan refuses it: 400 not-supported
// "subscription to remote server is not supported" (tests-py test_schema_stitching.py
// TestRemoteSchemaBasic test_remote_subscription, basic_subscription_not_supported.yaml, sent over
// HTTP with only the remote in the schema). Kiln answered "no subscriptions exist" when no table
// gave it a subscription_root, else "field not found in type: 'query_root'".

import { createServer, type Server } from 'node:http';
import { buildSchema, graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

const schema = buildSchema('type Query { hello(arg: String = "world"): String }');
let remote: Server;
let bare: ServedDatabase;
let withTable: ServedDatabase;
let c: Client;

async function http(server: ServedDatabase, query: string, role?: string): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(role ? { 'x-svc-role': role } : {}) };
  const res = await fetch(`${server.url}/v1/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
  return { status: res.status, body: await res.json() };
}

const first = (query: string): Promise<unknown> => c.firstAnswer(query);

const refused = { errors: [{ message: 'subscription to remote server is not supported', extensions: { path: '$', code: 'not-supported' } }] };

beforeAll(async () => {
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', () => {
      void (async () => {
        const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string };
        const out = await graphql({ schema, source: b.query, rootValue: { hello: ({ arg }: { arg: string }) => `Hello ${arg}` } });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      })();
    });
  });
  await new Promise<void>((ok) => remote.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(remote.address() as { port: number }).port}/graphql`;
  const add = [{ type: 'add_remote_schema', args: { name: 'simple 1', definition: { url } } }];
  bare = await serveDatabase('fidrssubbare', '', { metadata: add });
  // reader may query note but not subscribe to it (subscription_root_fields: none).
  const reader = { type: 'pg_create_select_permission', args: { table: 'note', role: 'reader',
    permission: { columns: ['id'], filter: {}, query_root_fields: ['select'], subscription_root_fields: [] } } };
  withTable = await serveDatabase('fidrssubtbl', 'CREATE TABLE note (id int PRIMARY KEY);', { track: ['note'], metadata: [...add, reader] });
  c = await Client.open(`${withTable.url.replace('http', 'ws')}/v1/graphql`, 'graphql-ws');
  await c.init({});
});
afterAll(async () => {
  c?.close();
  await bare?.close();
  await withTable?.close();
  remote?.closeAllConnections();
  await new Promise((ok) => remote?.close(ok));
});

describe('a subscription to a remote schema field', () => {
  it('is refused with Hasura\'s words over HTTP, even with no table in the schema', async () => {
    expect(await http(bare, 'subscription { hello }')).toEqual({ status: 200, body: refused });
    expect(await http(withTable, 'subscription { hello }')).toEqual({ status: 200, body: refused });
  });

  it('is refused over WebSocket, after the query parser has checked it', async () => {
    expect(await first('subscription { hello }')).toEqual({ type: 'error', payload: refused });
    // The query's own validation error comes first, word for word.
    const asQuery = (await http(withTable, 'query { hello(nope: 1) }')) as { body: { errors: unknown[] } };
    expect(asQuery.body.errors).toHaveLength(1);
    expect(await first('subscription { hello(nope: 1) }')).toEqual({ type: 'error', payload: asQuery.body });
  });

  it('leaves other subscriptions as they were', async () => {
    expect(await first('subscription { note { id } }')).toEqual({ type: 'data', payload: { data: { note: [] } } });
    expect(await http(bare, 'subscription { nothing }')).toMatchObject({ status: 200, body: { errors: [{ extensions: { code: 'validation-failed' } }] } });
  });

  it('does not call a table field left out of subscription_root a query action', async () => {
    expect(await http(withTable, 'query { note { id } }', 'reader')).toEqual({ status: 200, body: { data: { note: [] } } });
    const out = (await http(withTable, 'subscription { note { id } }', 'reader')) as { body: { errors: { message: string; extensions: { code: string } }[] } };
    expect(out.body.errors).toHaveLength(1);
    expect(out.body.errors[0]!.message).not.toContain('query actions');
    expect(out.body.errors[0]!.extensions.code).toBe('validation-failed');
  });
});
