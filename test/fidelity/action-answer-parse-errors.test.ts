// How an action reports a handler answer it cannot read, as Hasura's callWebhook
// (Execute/Action.hs, 2021 and March 2022 alike) does:
// - a body that is not JSON: "not a valid json response from webhook" whose internal.error is
//   "invalid json: " and aeson's eitherDecode message ("Error in $: not enough input" for an
//   empty body, "Error in $: Failed reading: not a valid json value at '<rest>'" for text that
//   no JSON value starts, "Error in $: endOfInput" for a value followed by more, "not enough
//   input" for one cut short too), beside the request and the response with its raw text as
//   body (tests-py TestActionsAsync test_async_actions_error_response_*: a 204 answer without a
//   body);
// - a 4xx body decoded as ActionWebhookErrorResponse {message: Text, code: Maybe Text, ...} by
//   aeson: a missing message is `parse-failed` "the key 'message' was not present" at `$`, a
//   message or code that is not a string is "parsing Text failed, expected String, but
//   encountered <kind>" at `$.message` / `$.code`, with the exchange as internal;
// - an asynchronous call's payload carries `request_query: null` (ActionWebhookPayload's Maybe
//   field, derived without omitNothingFields), a synchronous one the client's query text.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;
const user = { 'x-svc-role': 'user' };

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/empty', () => ({ status: 204, body: '', raw: true }));
  handler.route('/words', () => ({ body: 'Broken { JSON', raw: true }));
  handler.route('/trailing', () => ({ body: '{"id": 1} and more', raw: true }));
  handler.route('/cut', () => ({ body: '{"id": 1', raw: true }));
  handler.route('/no-message', () => ({ status: 400, body: { error: 'nope' } }));
  handler.route('/number-message', () => ({ status: 422, body: { message: 7 } }));
  handler.route('/null-message', () => ({ status: 400, body: { message: null } }));
  handler.route('/number-code', () => ({ status: 400, body: { message: 'bad', code: 12 } }));
  handler.route('/null-code', () => ({ status: 400, body: { message: 'bad', code: null } }));
  handler.route('/point', () => ({ body: { id: 1 } }));
  process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'] = '100';
  const action = (name: string, path: string) => ({ type: 'create_action', args: { name, definition: { handler: `${handler.base}${path}`, output_type: 'Point' } } });
  server = await serveDatabase('fidactparse', '', {
    metadata: [
      { type: 'set_custom_types', args: { objects: [{ name: 'Point', fields: [{ name: 'id', type: 'Int!' }] }] } },
      action('empty', '/empty'), action('words', '/words'), action('trailing', '/trailing'), action('cut', '/cut'),
      action('no_message', '/no-message'), action('number_message', '/number-message'), action('null_message', '/null-message'),
      action('number_code', '/number-code'), action('null_code', '/null-code'), action('point_now', '/point'),
      { type: 'create_action', args: { name: 'point_later', definition: { kind: 'asynchronous', handler: `${handler.base}/point`, output_type: 'Point' } } },
      { type: 'create_action_permission', args: { action: 'no_message', role: 'user' } },
      { type: 'create_action_permission', args: { action: 'words', role: 'user' } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
  delete process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'];
});

const error = async (action: string, headers: Record<string, string> = {}): Promise<any> =>
  (await server.post('/v1/graphql', { query: `mutation { ${action} { id } }` }, headers)).body.errors[0];

describe('an answer that is not JSON', () => {
  it('holds aeson\'s reason as internal.error and the raw text as the response body', async () => {
    const empty = await error('empty');
    expect(empty.message).toBe('not a valid json response from webhook');
    expect(empty.extensions).toMatchObject({ path: '$', code: 'unexpected',
      internal: { error: 'invalid json: Error in $: not enough input', response: { status: 204, body: '' }, request: { url: `${handler.base}/empty` } } });
    expect((await error('words')).extensions.internal.error).toBe("invalid json: Error in $: Failed reading: not a valid json value at 'Broken{JSON'");
    expect((await error('words')).extensions.internal.response.body).toBe('Broken { JSON');
    expect((await error('trailing')).extensions.internal.error).toBe('invalid json: Error in $: endOfInput');
    expect((await error('cut')).extensions.internal.error).toBe('invalid json: Error in $: not enough input');
  });

  it('shows no internal to another role', async () => {
    expect(await error('words', user)).toEqual({ message: 'not a valid json response from webhook', extensions: { path: '$', code: 'unexpected' } });
  });
});

describe('a 4xx answer that is not an error object', () => {
  it('is aeson\'s parse-failed error at the field it stopped at', async () => {
    const missing = await error('no_message');
    expect(missing.message).toBe("the key 'message' was not present");
    expect(missing.extensions).toMatchObject({ path: '$', code: 'parse-failed', internal: { error: 'unexpected response', response: { status: 400, body: { error: 'nope' } } } });
    expect(await error('no_message', user)).toEqual({ message: "the key 'message' was not present", extensions: { path: '$', code: 'parse-failed' } });
    const number = await error('number_message');
    expect([number.message, number.extensions.path, number.extensions.code]).toEqual(['parsing Text failed, expected String, but encountered Number', '$.message', 'parse-failed']);
    expect((await error('null_message')).message).toBe('parsing Text failed, expected String, but encountered Null');
    const code = await error('number_code');
    expect([code.message, code.extensions.path]).toEqual(['parsing Text failed, expected String, but encountered Number', '$.code']);
  });

  it('reads a null code as no code', async () => {
    expect(await error('null_code')).toEqual({ message: 'bad', extensions: { path: '$', code: 'unexpected' } });
  });
});

describe('the payload a handler receives', () => {
  it('has request_query null for an asynchronous call and the query text for a synchronous one', async () => {
    await server.gql('mutation { point_now { id } }');
    await server.gql('mutation { point_later }');
    const later = async (): Promise<any> => {
      for (let i = 0; i < 100; i++) {
        const got = handler.received.find((r) => r.body?.action?.name === 'point_later');
        if (got) return got.body;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      throw new Error('point_later was not delivered');
    };
    const body = await later();
    expect(Object.keys(body).sort()).toEqual(['action', 'input', 'request_query', 'session_variables']);
    expect(body.request_query).toBeNull();
    expect(handler.received.find((r) => r.body?.action?.name === 'point_now')?.body.request_query).toBe('mutation { point_now { id } }');
  });
});
