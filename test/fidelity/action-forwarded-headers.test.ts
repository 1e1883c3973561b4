// What an action with forward_client_headers sends its handler, as Hasura's mkClientHeadersForward
// makes it (Server/Utils.hs): the client's Host and User-Agent as X-Forwarded-Host and
// X-Forwarded-User-Agent, then the client's other headers except those describing the request
// itself (commonClientHeadersIgnored) and the session's (x-svc-*). An error's
// internal.request.headers lists the configured headers as configured (value_from_env by the
// variable's name) and then the forwarded ones (callWebhook's ActionRequestInfo). Every call names
// the engine in its own User-Agent, as Hasura's default headers do ("hasura-graphql-engine/<version>";
// test_actions.py TestActionsSync test_mirror_headers), here svc-graphql-engine/<version>.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/echo', () => ({ body: { id: 1 } }));
  handler.route('/refuse', () => ({ body: null }));
  process.env['KILN_TEST_FWD_SECRET'] = 's3cret';
  const def = (path: string) => ({ handler: `${handler.base}${path}`, output_type: 'Echo!', forward_client_headers: true,
    headers: [{ name: 'x-api-key', value_from_env: 'KILN_TEST_FWD_SECRET' }, { name: 'x-plain', value: 'p' }] });
  server = await serveDatabase('fidactfwd', 'SELECT 1;', {
    metadata: [
      { type: 'set_custom_types', args: { objects: [{ name: 'Echo', fields: [{ name: 'id', type: 'Int!' }] }] } },
      { type: 'create_action', args: { name: 'echo', definition: def('/echo') } },
      { type: 'create_action', args: { name: 'refuse', definition: def('/refuse') } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
  delete process.env['KILN_TEST_FWD_SECRET'];
});

const client = { 'user-agent': 'probe/1.0', 'x-trace-id': 't-1', 'x-svc-role': 'admin', 'x-svc-user-id': '7', accept: 'application/json' };

describe('forwarded client headers', () => {
  it('carry Host and User-Agent as X-Forwarded-*, and leave out the session and the request\'s own headers', async () => {
    expect(await server.gql('mutation { echo { id } }', undefined, client)).toEqual({ data: { echo: { id: 1 } } });
    const got = handler.received.filter((r) => r.path === '/echo').at(-1)!.headers;
    expect(got['x-forwarded-host']).toBe(new URL(server.url).host);
    expect(got['x-forwarded-user-agent']).toBe('probe/1.0');
    expect(got['x-trace-id']).toBe('t-1');
    expect(got['x-api-key']).toBe('s3cret');
    expect(got['x-svc-role']).toBeUndefined();
    expect(got['x-svc-user-id']).toBeUndefined();
    expect(got['user-agent']).toMatch(/^svc-graphql-engine\/\d/);
    expect(got['content-type']).toBe('application/json');
  });

  it('are listed in an error\'s internal.request.headers after the configured ones, an environment value by its name', async () => {
    const r = await server.gql('mutation { refuse { id } }', undefined, client);
    const headers = r.errors[0].extensions.internal.request.headers as { name: string; value?: string; value_from_env?: string }[];
    expect(headers.slice(0, 2)).toEqual([{ name: 'x-api-key', value_from_env: 'KILN_TEST_FWD_SECRET' }, { name: 'x-plain', value: 'p' }]);
    expect(headers).toContainEqual({ name: 'X-Forwarded-User-Agent', value: 'probe/1.0' });
    expect(headers).toContainEqual({ name: 'x-trace-id', value: 't-1' });
    expect(JSON.stringify(headers)).not.toContain('s3cret');
    expect(headers.some((h) => h.name.toLowerCase().startsWith('x-svc-'))).toBe(false);
  });
});
