// SVC_GRAPHQL_V1_BOOLEAN_NULL_COLLAPSE / --v1-boolean-null-collapse true: Hasura v1's reading of a
// null comparison operand, kept by Hasura v2 behind this setting: `_eq: null` (a literal, or a
// variable sent null or not sent) is no condition instead of an error. A boolean expression's own
// fields (`_not: null`, a column: null) still refuse a null, as Hasura's flag leaves them. The
// setting is process-wide, so this file starts one server only.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServeInput } from '../../runtime/start/input-check.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('v1 boolean null collapse', () => {
  let server: ServedDatabase;
  const gql = (query: string, variables: Record<string, unknown> = {}) => server.gql(query, variables);

  beforeAll(async () => {
    server = await serveDatabase('v1nullcollapse', 'CREATE TABLE note (id int PRIMARY KEY, n int); INSERT INTO note VALUES (1, 10), (2, NULL), (3, 30);', {
      pgConnections: 2, v1BooleanNullCollapse: true, track: ['note'] });
  }, 60_000);

  afterAll(() => server?.close());

  it('reads a null comparison operand as no condition, literal or variable', async () => {
    const all = { data: { note: [{ id: 1 }, { id: 2 }, { id: 3 }] } };
    expect(await gql('{ note(where: {n: {_eq: null}}, order_by: {id: asc}) { id } }')).toEqual(all);
    expect(await gql('{ note(where: {n: {_eq: null, _gt: 15}}, order_by: {id: asc}) { id } }')).toEqual({ data: { note: [{ id: 3 }] } });
    const q = 'query Q($n: Int) { note(where: {n: {_eq: $n}}, order_by: {id: asc}) { id } }';
    expect(await gql(q, { n: null })).toEqual(all);
    expect(await gql(q)).toEqual(all);
    expect(await gql(q, { n: 30 })).toEqual({ data: { note: [{ id: 3 }] } });
  });

  it('still refuses a null for a boolean expression\'s own fields', async () => {
    expect(await gql('{ note(where: {_not: null}) { id } }')).toEqual({ errors: [{ message: 'expected an object for type "note_bool_exp", but found null',
      extensions: { path: '$.selectionSet.note.args.where._not', code: 'validation-failed' } }] });
  });

  it('is a true/false setting', () => {
    const base = { dataDir: '.kiln/x', port: '0', host: '127.0.0.1', pgConnections: '2' };
    expect(checkServeInput({ ...base, v1BooleanNullCollapse: 'TRUE' }).v1BooleanNullCollapse).toBe(true);
    expect(checkServeInput(base).v1BooleanNullCollapse).toBe(false);
    expect(() => checkServeInput({ ...base, v1BooleanNullCollapse: 'yes' })).toThrow(/--v1-boolean-null-collapse \(or SVC_GRAPHQL_V1_BOOLEAN_NULL_COLLAPSE\) must be true or false/);
  });
});
