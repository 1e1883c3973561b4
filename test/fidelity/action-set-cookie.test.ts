// A synchronous action handler's Set-Cookie reaches the client in the HTTP response, as Hasura's
// callWebhook keeps it (mkSetCookieHeaders) and the HTTP transport adds it to the response headers
// (hasura/graphql-engine issue 4021; tests-py test_actions.py TestActionsSyncResponseHeaders
// test_set_cookie_header: the create_user mutation answers with Set-Cookie: abcd). An asynchronous
// call's answer, made later by the worker, has no client response to go to.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;

async function raw(query: string): Promise<{ cookies: string[]; body: any }> {
  const res = await fetch(`${server.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { cookies: res.headers.getSetCookie(), body: await res.json() };
}

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/sign', () => ({ body: { id: 1 }, headers: { 'set-cookie': 'session=abcd' } }));
  server = await serveDatabase('fidactcookie', 'SELECT 1;', {
    metadata: [
      { type: 'set_custom_types', args: { objects: [{ name: 'Signed', fields: [{ name: 'id', type: 'Int!' }] }] } },
      { type: 'create_action', args: { name: 'sign_in', definition: { handler: `${handler.base}/sign`, output_type: 'Signed' } } },
      { type: 'create_action', args: { name: 'look', definition: { type: 'query', handler: `${handler.base}/sign`, output_type: 'Signed' } } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
});

describe('Set-Cookie from an action handler', () => {
  it('is sent on with the response of a synchronous mutation or query action', async () => {
    const m = await raw('mutation { sign_in { id } }');
    expect(m.body).toEqual({ data: { sign_in: { id: 1 } } });
    expect(m.cookies).toEqual(['session=abcd']);
    const q = await raw('{ a: look { id } b: look { id } }');
    expect(q.cookies).toEqual(['session=abcd', 'session=abcd']);
  });
});
