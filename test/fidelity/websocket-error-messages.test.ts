// How an operation's errors travel on a socket, as Hasura's onStart writes them
// (Transport/WebSocket.hs): a start the connection refuses (sent before connection_init, or with
// an id in use) is an `error` carrying the error alone, then `complete`; a refusal before the run
// (validation, permissions, allow-list) is an `error` whose payload lists the errors, then
// `complete`; a failure while the run executes (the database refuses it) is a result with `data`
// null. On /v1alpha1/graphql each error is worded as {path, error, code} (ERTLegacy, encodeQErr).
// tests-py test_v1alpha1_endpoint TestV1Alpha1GraphQLErrors::test_v1alpha1_ws_start_error,
// test_v1alpha1_validation_error[websocket], test_v1alpha1_execution_error[websocket].

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;

beforeAll(async () => {
  server = await serveDatabase('fidwserrors', `CREATE TABLE shelf (id int PRIMARY KEY);
CREATE TABLE book (id int PRIMARY KEY, shelf_id int REFERENCES shelf(id)); INSERT INTO shelf VALUES (1);`, { track: ['shelf', 'book'] });
});
afterAll(() => server?.close());

const open = (path: string) => Client.open(`${server.url.replace('http', 'ws')}${path}`, 'graphql-ws');
const START_FAILED = 'start received before the connection is initialised';
const MISSING = "field \"nope\" not found in type: 'book'";
const FK = 'Foreign key violation. insert or update on table "book" violates foreign key constraint "book_shelf_id_fkey"';
const INSERT = 'mutation { insert_book(objects: [{id: 1, shelf_id: 9}]) { affected_rows } }';

async function run(c: Client, id: string, query: string): Promise<unknown[]> {
  c.send({ id, type: 'start', payload: { query } });
  const first = await c.next((m) => m.id === id);
  const second = await c.next((m) => m.id === id);
  return [first, second];
}

describe('errors over graphql-ws', () => {
  it('on /v1/graphql', async () => {
    const c = await open('/v1/graphql');
    expect(await run(c, 'a', '{ book { id } }')).toEqual([
      { type: 'error', id: 'a', payload: { message: START_FAILED, extensions: { path: '$', code: 'start-failed' } } }, { type: 'complete', id: 'a' }]);
    await c.init({});
    expect(await run(c, 'b', '{ book { nope } }')).toEqual([
      { type: 'error', id: 'b', payload: { errors: [{ message: MISSING, extensions: { path: '$.selectionSet.book.selectionSet.nope', code: 'validation-failed' } }] } },
      { type: 'complete', id: 'b' }]);
    expect(await run(c, 'c', INSERT)).toEqual([
      { type: 'data', id: 'c', payload: { data: null, errors: [{ message: FK, extensions: { path: '$.selectionSet.insert_book.args.objects', code: 'constraint-violation' } }] } },
      { type: 'complete', id: 'c' }]);
    c.close();
  });

  it('on /v1alpha1/graphql, in the {path, error, code} wording', async () => {
    const c = await open('/v1alpha1/graphql');
    expect(await run(c, 'a', '{ book { id } }')).toEqual([
      { type: 'error', id: 'a', payload: { path: '$', error: START_FAILED, code: 'start-failed' } }, { type: 'complete', id: 'a' }]);
    await c.init({});
    expect(await run(c, 'b', '{ book { nope } }')).toEqual([
      { type: 'error', id: 'b', payload: { path: '$.selectionSet.book.selectionSet.nope', error: MISSING, code: 'validation-failed' } }, { type: 'complete', id: 'b' }]);
    expect(await run(c, 'c', INSERT)).toEqual([
      { type: 'data', id: 'c', payload: { data: null, errors: [{ path: '$.selectionSet.insert_book.args.objects', error: FK, code: 'constraint-violation' }] } },
      { type: 'complete', id: 'c' }]);
    c.close();
  });
});
