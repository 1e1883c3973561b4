// A stream's arguments are read as Hasura's tableStreamArguments reads them
// (Schema/SubscriptionStream.hs): every cursor input of the list (null ones skipped) gives one item
// per column of its initial_value, and exactly one item is taken: none is "one streaming column
// field is expected", more "multiple column cursors are not supported yet", both at the field's
// args; a NOT NULL column's value parser refuses null ('unexpected null value for type "Int"' at
// the column, a single input indexed 0 as a list of one, as Hasura keys objects[0]); batch_size
// is a non-negative Int worded as limit is, at args.batch_size. Kiln had wordings of its own ('one cursor input is expected', 'exactly one
// cursor column is expected', 'must not be null') and, for a negative batch size, the path of the
// query it rewrites the stream into ($.selectionSet.<table>.args.limit).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { Client } from '../subscriptions/helpers.js';

let server: ServedDatabase;
let c: Client;

beforeAll(async () => {
  server = await serveDatabase('fidstreamargs', "CREATE TABLE t (id serial PRIMARY KEY, title text); INSERT INTO t (title) VALUES ('a'), ('b');", { track: ['t'] });
  c = await Client.open(`${server.url.replace('http', 'ws')}/v1/graphql`, 'graphql-transport-ws');
  await c.init({});
});
afterAll(async () => {
  c?.close();
  await server?.close();
});

let n = 0;
async function refusal(args: string, variables?: Record<string, unknown>): Promise<unknown> {
  const id = `s${++n}`;
  const defs = args.includes('$b') ? '($b: Int!) ' : '';
  c.send({ type: 'subscribe', id, payload: { query: `subscription ${defs}{ s: t_stream(${args}) { id } }`, variables: defs ? { b: 1, ...variables } : {} } });
  const m = await c.next((x) => x.id === id);
  expect(m.type).toBe('error');
  return m.payload;
}
const err = (message: string, path: string) => [{ message, extensions: { path, code: 'validation-failed' } }];

describe('a stream\'s cursor and batch size', () => {
  it('takes exactly one cursor column over all the cursor inputs', async () => {
    const none = err('one streaming column field is expected', '$.selectionSet.s.args');
    expect(await refusal('cursor: [], batch_size: $b')).toEqual(none);
    expect(await refusal('cursor: [null], batch_size: $b')).toEqual(none);
    expect(await refusal('cursor: {initial_value: {}}, batch_size: $b')).toEqual(none);
    const many = err('multiple column cursors are not supported yet', '$.selectionSet.s.args');
    expect(await refusal('cursor: {initial_value: {id: 1, title: "a"}}, batch_size: $b')).toEqual(many);
    expect(await refusal('cursor: [{initial_value: {id: 1}}, {initial_value: {title: "a"}}], batch_size: $b')).toEqual(many);
  });

  it('refuses a null initial value of a NOT NULL column where the column parser reads it', async () => {
    expect(await refusal('cursor: {initial_value: {id: null}}, batch_size: $b'))
      .toEqual(err('unexpected null value for type "Int"', '$.selectionSet.s.args.cursor[0].initial_value.id'));
    expect(await refusal('cursor: [null, {initial_value: {id: null}}], batch_size: $b'))
      .toEqual(err('unexpected null value for type "Int"', '$.selectionSet.s.args.cursor[1].initial_value.id'));
  });

  it('words a negative batch size at batch_size', async () => {
    const neg = err('expected a non-negative 32-bit integer for type "Int", but found an integer', '$.selectionSet.s.args.batch_size');
    expect(await refusal('cursor: {initial_value: {id: 0}}, batch_size: -1')).toEqual(neg);
    expect(await refusal('cursor: {initial_value: {id: 0}}, batch_size: $b', { b: -2 }))
      .toEqual(err('expected a non-negative 32-bit integer for type "Int", but found a number', '$.selectionSet.s.args.batch_size'));
  });

  it('reads the initial value with the column\'s parser, as a comparison value is read', async () => {
    // A string where an Int column's value goes: what `where: {id: {_eq: "1"}}` takes, and what it refuses.
    c.send({ type: 'subscribe', id: 'str', payload: { query: 'subscription { s: t_stream(cursor: {initial_value: {id: "1"}}, batch_size: 5) { id } }' } });
    expect((await c.next((x) => x.id === 'str')).payload).toEqual({ data: { s: [{ id: 2 }] } });
    c.send({ type: 'subscribe', id: 'bad', payload: { query: 'subscription { s: t_stream(cursor: {initial_value: {id: "x"}}, batch_size: 5) { id } }' } });
    expect((await c.next((x) => x.id === 'bad')).payload)
      .toEqual([{ message: 'invalid input syntax for type integer: "x"', extensions: { path: '$', code: 'data-exception' } }]);
  });

  it('still streams with one cursor column among null inputs', async () => {
    c.send({ type: 'subscribe', id: 'ok', payload: { query: 'subscription { s: t_stream(cursor: [null, {initial_value: {id: 0}}], batch_size: 5) { id } }' } });
    expect((await c.next((x) => x.id === 'ok')).payload).toEqual({ data: { s: [{ id: 1 }, { id: 2 }] } });
  });
});
