// An asynchronous action's failure is stored as Hasura's async processor stores it: the QErr
// itself, `{path, error, code}` (a 4xx answer's top-level `code`, else `unexpected`; the handler's
// own `extensions` are not kept), with `internal` (request and response) only when admin made the
// call. A 2xx answer that does not fit the output type is checked when it arrives (Hasura's
// `callWebhook` validates it before the call is stored) and stored as the call's error. A
// synchronous call of the same handler still answers the GraphQL error shape.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) => server.post(path, body, headers);
const md = async (type: string, args: unknown): Promise<void> => {
  const r = await post('/v1/metadata', { type, args });
  if (r.status !== 200) throw new Error(`${type}: ${JSON.stringify(r.body)}`);
};
const clerk = { 'x-svc-role': 'clerk', 'x-svc-clerk-id': '7' };

// Calls `action` (asynchronous) as `headers` and reads its result once the worker stored it.
async function storedErrors(action: string, headers: Record<string, string>): Promise<any> {
  const id = (await post('/v1/graphql', { query: `mutation { ${action}(n: 1) }` }, headers)).body.data[action] as string;
  for (let i = 0; i < 100; i++) {
    const r = await post('/v1/graphql', { query: `{ ${action}(id: "${id}") { errors output { n } } }` }, headers);
    if (r.body.errors) return r.body;
    if (r.body.data?.[action]?.errors || r.body.data?.[action]?.output) return r.body.data[action];
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`${action} was not delivered`);
}

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/refuse', () => ({ status: 422, body: { message: 'stock too low', code: 'stock-low', extensions: { shelf: 4 } } }));
  handler.route('/refuse-bare', () => ({ status: 400, body: { message: 'no such shelf' } }));
  handler.route('/garbled', () => ({ status: 200, body: 'not json at all', raw: true }));
  handler.route('/crash', () => ({ status: 503, body: { message: 'down' } }));
  handler.route('/half', () => ({ body: { note: 'n is missing' } }));
  handler.route('/word', () => ({ body: 'restocked' }));
  handler.route('/fine', () => ({ body: { n: 12 } }));
  process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'] = '100';
  server = await serveDatabase('fidasyncerr', 'SELECT 1;');
  await md('set_custom_types', { objects: [{ name: 'Restock', fields: [{ name: 'n', type: 'Int!' }] }] });
  for (const [name, path] of [['restock', '/refuse'], ['restock_bare', '/refuse-bare'], ['restock_garbled', '/garbled'], ['restock_crash', '/crash'],
    ['restock_half', '/half'], ['restock_word', '/word'], ['restock_fine', '/fine']] as const) {
    await md('create_action', { name, definition: { kind: 'asynchronous', handler: `${handler.base}${path}`, output_type: 'Restock', arguments: [{ name: 'n', type: 'Int!' }] } });
    await md('create_action_permission', { action: name, role: 'clerk' });
  }
  await md('create_action', { name: 'restock_now', definition: { kind: 'synchronous', handler: `${handler.base}/refuse`, output_type: 'Restock', arguments: [{ name: 'n', type: 'Int!' }] } });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
  delete process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'];
});

describe('asynchronous action errors', () => {
  it('stores a 4xx answer as {path, error, code}, its code from the answer, its extensions left out', async () => {
    expect(await storedErrors('restock', clerk)).toEqual({ output: null, errors: { path: '$', error: 'stock too low', code: 'stock-low' } });
    expect(await storedErrors('restock_bare', clerk)).toEqual({ output: null, errors: { path: '$', error: 'no such shelf', code: 'unexpected' } });
  });

  it('keeps internal out of what another role stored, and in what admin stored', async () => {
    expect(await storedErrors('restock_garbled', clerk))
      .toEqual({ output: null, errors: { path: '$', error: 'not a valid json response from webhook', code: 'unexpected' } });
    const asAdmin = await storedErrors('restock_garbled', {});
    expect(asAdmin.errors).toMatchObject({ path: '$', error: 'not a valid json response from webhook', code: 'unexpected' });
    expect(asAdmin.errors.internal).toBeDefined();
    const crashed = await storedErrors('restock_crash', {});
    expect(crashed.errors).toMatchObject({ path: '$', error: 'internal error', code: 'unexpected' });
    expect(JSON.stringify(crashed.errors.internal)).toContain('503');
  });

  it('checks a 2xx answer against the output type when it arrives, and stores a misfit as the error', async () => {
    expect(await storedErrors('restock_half', clerk))
      .toEqual({ output: null, errors: { path: '$', error: 'field "n" expected in webhook response, but not found', code: 'unexpected' } });
    expect(await storedErrors('restock_word', clerk))
      .toEqual({ output: null, errors: { path: '$', error: 'got scalar String for the action webhook response, expecting Restock', code: 'unexpected' } });
    const asAdmin = await storedErrors('restock_half', {});
    expect(asAdmin.errors.internal).toMatchObject({ response: { body: { note: 'n is missing' } } });
    expect(await storedErrors('restock_fine', clerk)).toEqual({ output: { n: 12 }, errors: null });
  });

  it('answers a synchronous call of the same handler with the GraphQL error, the handler\'s extensions kept', async () => {
    expect((await post('/v1/graphql', { query: 'mutation { restock_now(n: 1) { n } }' })).body)
      .toEqual({ errors: [{ message: 'stock too low', extensions: { shelf: 4 } }] });
  });
});
