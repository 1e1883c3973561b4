// Operands that are not a column's value are read by GraphQL's own scalars, as Hasura's parsers
// read them (Schema/BoolExp.hs: `_is_null` Boolean, `_has_key` String, `_has_keys_any`/`_all`
// [String!]; Schema/Update.hs: `_delete_key` String, `_delete_elem` Int, `_delete_at_path`
// [String!]): a string there is refused before any SQL runs (a column's value, by contrast, may be
// written as a string that PostgreSQL parses), in literals and variables alike, and a single path
// element where `_delete_at_path` takes a list is a list of one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, metadataOf, table } from '../integration/setup.js';

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('fidownscalar', `CREATE TABLE parcel (id serial PRIMARY KEY, label jsonb, weight integer);
    INSERT INTO parcel (label, weight) VALUES ('{"to": {"city": "Oslo", "zip": "0150"}, "fragile": true}', 3), ('["a", "b", "c"]', null);`);
  kiln = await startKiln({ metadata: metadataOf([table('parcel')]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const err = (message: string, path: string): unknown => ({ message, path, code: 'validation-failed' });
const notBoolean = 'expected a boolean for type "Boolean", but found a string';

describe('comparison operators that take a flag or JSON keys', () => {
  it('refuses a string for _is_null, in a literal, a variable and a whole where variable', async () => {
    expect(errorOf(await kiln.gql('{ parcel(where: {weight: {_is_null: "true"}}) { id } }')))
      .toEqual(err(notBoolean, '$.selectionSet.parcel.args.where.weight._is_null'));
    expect(errorOf(await kiln.gql('query ($n: Boolean) { parcel(where: {weight: {_is_null: $n}}) { id } }', { n: 'false' })))
      .toEqual(err(notBoolean, '$.selectionSet.parcel.args.where.weight._is_null'));
    expect(errorOf(await kiln.gql('query ($w: parcel_bool_exp) { parcel(where: $w) { id } }', { w: { _not: { weight: { _is_null: 'no' } } } })))
      .toEqual(err(notBoolean, '$.selectionSet.parcel.args.where._not.weight._is_null'));
  });

  it('refuses a key that is not a string', async () => {
    expect(errorOf(await kiln.gql('{ parcel(where: {label: {_has_keys_all: ["to", 7]}}) { id } }')))
      .toEqual(err('expected a string for type "String", but found an integer', '$.selectionSet.parcel.args.where.label._has_keys_all[1]'));
    expect(errorOf(await kiln.gql('query ($k: [String!]) { parcel(where: {label: {_has_keys_any: $k}}) { id } }', { k: [true] })))
      .toEqual(err('expected a string for type "String", but found a boolean', '$.selectionSet.parcel.args.where.label._has_keys_any[0]'));
  });

  it('keeps reading a column\'s value as PostgreSQL does, and answers the well-formed operators', async () => {
    expect(dataOf(await kiln.gql('{ a: parcel(where: {weight: {_eq: "3"}}) { id } b: parcel(where: {weight: {_is_null: true}}) { id } c: parcel(where: {label: {_has_key: "fragile"}}) { id } }')))
      .toEqual({ a: [{ id: 1 }], b: [{ id: 2 }], c: [{ id: 1 }] });
  });
});

describe('jsonb update operators that take keys, indexes and paths', () => {
  it('refuses an index or key of the wrong kind, literal or variable, in update and update_many', async () => {
    expect(errorOf(await kiln.gql('mutation { update_parcel(where: {id: {_eq: 2}}, _delete_elem: {label: "1"}) { affected_rows } }')))
      .toEqual(err('expected a 32-bit integer for type "Int", but found a string', '$.selectionSet.update_parcel.args._delete_elem.label'));
    expect(errorOf(await kiln.gql('mutation ($d: parcel_delete_elem_input) { update_parcel(where: {id: {_eq: 2}}, _delete_elem: $d) { affected_rows } }', { d: { label: '1' } })))
      .toEqual(err('expected a 32-bit integer for type "Int", but found a string', '$.selectionSet.update_parcel.args._delete_elem.label'));
    expect(errorOf(await kiln.gql('mutation { update_parcel_many(updates: [{where: {id: {_eq: 1}}, _delete_key: {label: false}}]) { affected_rows } }')))
      .toEqual(err('expected a string for type "String", but found a boolean', '$.selectionSet.update_parcel_many.args.updates[0]._delete_key.label'));
    expect(errorOf(await kiln.gql('mutation ($p: [String!]) { update_parcel(where: {id: {_eq: 1}}, _delete_at_path: {label: $p}) { affected_rows } }', { p: ['to', 5] })))
      .toEqual(err('expected a string for type "String", but found a number', '$.selectionSet.update_parcel.args._delete_at_path.label[1]'));
    // Nothing was changed by the refused requests.
    expect(dataOf(await kiln.gql('{ parcel(order_by: {id: asc}) { label } }')))
      .toEqual({ parcel: [{ label: { to: { city: 'Oslo', zip: '0150' }, fragile: true } }, { label: ['a', 'b', 'c'] }] });
  });

  it('takes a single path element as a path of one, literal or variable', async () => {
    expect(dataOf(await kiln.gql('mutation { update_parcel(where: {id: {_eq: 1}}, _delete_at_path: {label: "fragile"}) { returning { label } } }')))
      .toEqual({ update_parcel: { returning: [{ label: { to: { city: 'Oslo', zip: '0150' } } }] } });
    expect(dataOf(await kiln.gql('mutation ($p: [String!]) { update_parcel_many(updates: [{where: {id: {_eq: 2}}, _delete_at_path: {label: $p}}]) { returning { label } } }', { p: '0' })))
      .toEqual({ update_parcel_many: [{ returning: [{ label: ['b', 'c'] }] }] });
    expect(dataOf(await kiln.gql('mutation { update_parcel(where: {id: {_eq: 2}}, _delete_elem: {label: -1}) { returning { label } } }')))
      .toEqual({ update_parcel: { returning: [{ label: ['b'] }] } });
  });
});
