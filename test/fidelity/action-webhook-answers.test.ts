// How a synchronous action reports its handler's answer, as Hasura's callWebhook and
// makeActionResponseNoRelations (Execute/Action.hs, March 2022) do, against tests-py
// test_actions.py (queries/actions/sync):
// - the answer's headers in an error's internal.response keep the names and order the handler sent
//   ("Content-Type", "Set-Cookie": test_expecting_object_response_got_null and its neighbours);
// - a field the answer leaves out is left out of the output, at any depth and in list elements
//   (test_query_action_recursive_output: {"id": 4} answers {"id": 4}, not {"id": 4, "these": null}),
//   except for an asynchronous output with relationships, which Hasura reads with SQL
//   (jsonb_to_recordset), where it is null;
// - an answer of the wrong kind as a whole: an array where no list is due, an object where a list
//   or a built-in scalar is, is "got array|object for the action webhook response, might want to
//   check the action return type defined!" (test_expecting_object_response_got_array,
//   test_expecting_array_response_got_object, test_expecting_scalar_string_output_type_got_object);
//   a scalar where a list is due is "got scalar String for the action webhook response, expecting [Point]";
// - a call that gets no answer is "http exception when calling webhook" with the HttpException as
//   internal.error ({type: "http_exception", message: "Response timeout" | "Connection failure"})
//   beside the request, as ActionInternalError holds it (TestActionTimeout test_action_timeout_fail
//   reads errors.internal.error.message).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/nothing', () => ({ body: null, headers: { 'X-Handler-Trace': 'abc' } }));
  handler.route('/tree', () => ({ body: { id: 1, kids: [{ id: 2, kids: [{ id: 3 }] }, { id: 4 }] } }));
  handler.route('/owner', () => ({ body: { id: 1 } }));
  handler.route('/array', () => ({ body: [{ id: 1 }] }));
  handler.route('/object', () => ({ body: { id: 1 } }));
  handler.route('/word', () => ({ body: 'some-string' }));
  handler.route('/slow', () => ({ body: { id: 1 }, delayMs: 2500 }));
  process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'] = '100';
  server = await serveDatabase('fidactanswer', 'CREATE TABLE person (id int PRIMARY KEY, name text); INSERT INTO person VALUES (1, \'ann\');', {
    track: ['person'],
    metadata: [
      { type: 'set_custom_types', args: { objects: [
        { name: 'Point', fields: [{ name: 'id', type: 'Int!' }] },
        { name: 'Tree', fields: [{ name: 'id', type: 'Int!' }, { name: 'label', type: 'String' }, { name: 'kids', type: '[Tree]' }] },
        { name: 'Owned', fields: [{ name: 'id', type: 'Int!' }, { name: 'note', type: 'String' }],
          relationships: [{ name: 'person', type: 'object', remote_table: 'person', field_mapping: { id: 'id' } }] },
      ] } },
      { type: 'create_action', args: { name: 'place', definition: { kind: 'synchronous', handler: `${handler.base}/nothing`, output_type: 'Point!' } } },
      { type: 'create_action', args: { name: 'one_got_many', definition: { handler: `${handler.base}/array`, output_type: 'Point' } } },
      { type: 'create_action', args: { name: 'word_got_many', definition: { handler: `${handler.base}/array`, output_type: 'String' } } },
      { type: 'create_action', args: { name: 'many_got_one', definition: { handler: `${handler.base}/object`, output_type: '[Point]' } } },
      { type: 'create_action', args: { name: 'word_got_one', definition: { handler: `${handler.base}/object`, output_type: 'String!' } } },
      { type: 'create_action', args: { name: 'slow', definition: { handler: `${handler.base}/slow`, output_type: 'Point', timeout: 1 } } },
      { type: 'create_action', args: { name: 'nobody', definition: { handler: 'http://127.0.0.1:9/none', output_type: 'Point' } } },
      { type: 'create_action', args: { name: 'many_got_word', definition: { handler: `${handler.base}/word`, output_type: '[Point]!' } } },
      { type: 'create_action', args: { name: 'tree', definition: { type: 'query', handler: `${handler.base}/tree`, output_type: 'Tree' } } },
      { type: 'create_action', args: { name: 'tree_later', definition: { kind: 'asynchronous', handler: `${handler.base}/tree`, output_type: 'Tree' } } },
      { type: 'create_action', args: { name: 'owned', definition: { type: 'query', handler: `${handler.base}/owner`, output_type: 'Owned' } } },
      { type: 'create_action', args: { name: 'owned_later', definition: { kind: 'asynchronous', handler: `${handler.base}/owner`, output_type: 'Owned' } } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
  delete process.env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'];
});

// Calls asynchronous `action` and reads `selection` of its output once delivered.
async function delivered(action: string, selection: string): Promise<any> {
  const id = (await server.gql(`mutation { ${action} }`)).data[action] as string;
  for (let i = 0; i < 100; i++) {
    const r = await server.gql(`{ ${action}(id: "${id}") { output ${selection} } }`);
    if (r.errors || r.data[action].output) return r;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`${action} was not delivered`);
}

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

describe('fields an answer leaves out', () => {
  const tree = '{ id label kids { id label kids { id kids { id } } } }';
  const expected = { id: 1, kids: [{ id: 2, kids: [{ id: 3 }] }, { id: 4 }] };

  it('are left out of a synchronous output, at every depth', async () => {
    expect(await server.gql(`{ tree ${tree} }`)).toEqual({ data: { tree: expected } });
    expect(await server.gql('{ owned { id note person { name } } }')).toEqual({ data: { owned: { id: 1, person: { name: 'ann' } } } });
  });

  it('are left out of an asynchronous output without relationships, and null in one with them', async () => {
    expect(await delivered('tree_later', tree)).toEqual({ data: { tree_later: { output: expected } } });
    expect(await delivered('owned_later', '{ id note person { name } }'))
      .toEqual({ data: { owned_later: { output: { id: 1, note: null, person: { name: 'ann' } } } } });
  });
});

describe('an answer of the wrong kind as a whole', () => {
  const check = (kind: string) => `got ${kind} for the action webhook response, might want to check the action return type defined!`;
  const message = async (q: string) => (await server.gql(q)).errors[0].message;

  it('is an array where no list is due, or an object where a list or a built-in scalar is', async () => {
    expect(await message('mutation { one_got_many { id } }')).toBe(check('array'));
    expect(await message('mutation { word_got_many }')).toBe(check('array'));
    expect(await message('mutation { many_got_one { id } }')).toBe(check('object'));
    expect(await message('mutation { word_got_one }')).toBe(check('object'));
  });

  it('names the list type when a scalar comes where a list is due', async () => {
    expect(await message('mutation { many_got_word { id } }')).toBe('got scalar String for the action webhook response, expecting [Point]');
  });
});

describe('a call that gets no answer', () => {
  it('holds the HttpException as internal.error, beside the request', async () => {
    const slow = (await server.gql('mutation { slow { id } }')).errors[0];
    expect(slow.message).toBe('http exception when calling webhook');
    expect(slow.extensions.internal.error).toEqual({ type: 'http_exception', message: 'Response timeout' });
    expect(slow.extensions.internal.request.url).toBe(`${handler.base}/slow`);
    const nobody = (await server.gql('mutation { nobody { id } }')).errors[0];
    expect(nobody.extensions.internal.error).toEqual({ type: 'http_exception', message: 'Connection failure' });
  });
});
