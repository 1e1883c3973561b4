// A table select's `offset` is read by Hasura's `bigInt` parser (Parser/Internal/Scalars.hs), not
// by the 32-bit Int one its schema type names: an integer literal of up to 64 bits, or a string of
// decimal digits (Data.Text.Read.decimal, so no sign), literal or a variable's value; anything else
// is refused with "expected a 32-bit integer, or a 64-bit integer represented as a string". Before,
// Kiln refused an offset past 32 bits (a number or a string, literal or variable) and took "-1".

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('offset as a 64-bit integer', () => {
  let server: ServedDatabase;
  const gql = (query: string, variables?: Record<string, unknown>) => server.gql(query, variables);
  const PATH = '$.selectionSet.note.args.offset';
  const mismatch = (found: string) => ({ errors: [{
    message: `expected a 32-bit integer, or a 64-bit integer represented as a string for type "Int", but found ${found}`,
    extensions: { path: PATH, code: 'validation-failed' } }] });

  beforeAll(async () => {
    server = await serveDatabase('fidoffset', 'CREATE TABLE note (id int PRIMARY KEY); INSERT INTO note VALUES (1), (2), (3);', { track: ['note'] });
  }, 60_000);
  afterAll(() => server?.close());

  it('takes an offset past 32 bits, as a number or as a string of digits', async () => {
    expect(await gql('{ note(order_by: {id: asc}, offset: 3000000000) { id } }')).toEqual({ data: { note: [] } });
    expect(await gql('{ note(order_by: {id: asc}, offset: "3000000000") { id } }')).toEqual({ data: { note: [] } });
    expect(await gql('{ note(order_by: {id: asc}, offset: "9223372036854775807") { id } }')).toEqual({ data: { note: [] } });
    expect(await gql('{ note(order_by: {id: asc}, offset: "1") { id } }')).toEqual({ data: { note: [{ id: 2 }, { id: 3 }] } });
  });

  it('refuses anything else in the words of Hasura\'s bigInt parser', async () => {
    expect(await gql('{ note(offset: "-1") { id } }')).toEqual(mismatch('a string'));
    expect(await gql('{ note(offset: "1e3") { id } }')).toEqual(mismatch('a string'));
    expect(await gql('{ note(offset: 1.5) { id } }')).toEqual(mismatch('a float'));
    expect(await gql('{ note(offset: true) { id } }')).toEqual(mismatch('a boolean'));
    const past = await gql('{ note(offset: 9223372036854775808) { id } }');
    expect(past.errors[0].extensions).toEqual({ path: PATH, code: 'parse-failed' });
    expect(past.errors[0].message).toMatch(/lies outside the bounds or is not an integer/);
  });

  it('reads a variable at the offset with the same parser', async () => {
    const q = 'query Q($o: Int) { note(order_by: {id: asc}, offset: $o) { id } }';
    expect(await gql(q, { o: 3000000000 })).toEqual({ data: { note: [] } });
    expect(await gql(q, { o: '2' })).toEqual({ data: { note: [{ id: 3 }] } });
    expect(await gql(q, { o: 1 })).toEqual({ data: { note: [{ id: 2 }, { id: 3 }] } });
    expect(await gql(q, { o: null })).toEqual({ data: { note: [{ id: 1 }, { id: 2 }, { id: 3 }] } });
    expect(await gql(q, { o: '-1' })).toEqual(mismatch('a string'));
    expect(await gql(q, { o: true })).toEqual(mismatch('a boolean'));
    const frac = await gql(q, { o: 1.5 });
    expect(frac.errors[0].extensions).toEqual({ path: PATH, code: 'parse-failed' });
  });
});
