// How a synchronous action reports its handler's answer, as Hasura's callWebhook and
// makeActionResponseNoRelations (Execute/Action.hs, March 2022) do, against tests-py
// test_actions.py (queries/actions/sync):
// - the answer's headers in an error's internal.response keep the names and order the handler sent
//   ("Content-Type", "Set-Cookie": test_expecting_object_response_got_null and its neighbours).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/nothing', () => ({ body: null, headers: { 'X-Handler-Trace': 'abc' } }));
  server = await serveDatabase('fidactanswer', 'SELECT 1;', {
    metadata: [
      { type: 'set_custom_types', args: { objects: [{ name: 'Point', fields: [{ name: 'id', type: 'Int!' }] }] } },
      { type: 'create_action', args: { name: 'place', definition: { kind: 'synchronous', handler: `${handler.base}/nothing`, output_type: 'Point!' } } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
});

describe('a handler answer in an action error', () => {
  it('lists the answer\'s headers with the names as the handler spelled them', async () => {
    const r = await server.gql('mutation { place { id } }');
    expect(r.errors[0].message).toBe('got null for the action webhook response');
    const names = (r.errors[0].extensions.internal.response.headers as { name: string }[]).map((h) => h.name);
    expect(names).toContain('X-Handler-Trace');
    expect(names).not.toContain('x-handler-trace');
    expect(names.indexOf('content-type')).toBeLessThan(names.indexOf('X-Handler-Trace'));
  });
});
