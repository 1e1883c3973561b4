// The introspection fields of the query root are parsed as Hasura parses any field
// (Schema/Introspect.hs builds them with its own parsers): `__type`'s name is read by the String
// parser, with Hasura's words and the argument's path, and an argument a field does not take is
// refused; `__typename` is answered before its arguments are looked at.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, metadataOf, table } from '../integration/setup.js';

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('fidintro', 'CREATE TABLE kite (id serial PRIMARY KEY, colour text); INSERT INTO kite (colour) VALUES (\'red\');');
  kiln = await startKiln({ metadata: metadataOf([table('kite')]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const err = (message: string, path: string): unknown => ({ message, path, code: 'validation-failed' });

describe('arguments of the introspection fields', () => {
  it('reads __type(name:) with the String parser: kind of value, null, absence', async () => {
    expect(errorOf(await kiln.gql('{ __type(name: 7) { name } }'))).toEqual(err('expected a string for type "String", but found an integer', '$.selectionSet.__type.args.name'));
    expect(errorOf(await kiln.gql('{ t: __type(name: true) { name } }'))).toEqual(err('expected a string for type "String", but found a boolean', '$.selectionSet.__type.args.name'));
    expect(errorOf(await kiln.gql('{ __type(name: null) { name } }'))).toEqual(err('unexpected null value for type "String"', '$.selectionSet.__type.args.name'));
    expect(errorOf(await kiln.gql('{ __type { name } }'))).toEqual(err('missing required field "name"', '$.selectionSet.__type.args.name'));
    expect(dataOf(await kiln.gql('{ __type(name: "kite") { name } }'))).toEqual({ __type: { name: 'kite' } });
  });

  it('refuses an argument __type or __schema does not take, and lets __typename be', async () => {
    expect(errorOf(await kiln.gql('{ __type(name: "kite", depth: 2) { name } }'))).toEqual(err('"__type" has no argument named "depth"', '$.selectionSet.__type'));
    expect(errorOf(await kiln.gql('{ kite { id } __schema(all: true) { queryType { name } } }'))).toEqual(err('"__schema" has no argument named "all"', '$.selectionSet.__schema'));
    expect(dataOf(await kiln.gql('{ __typename(any: 1) kite { __typename } }'))).toEqual({ __typename: 'query_root', kite: [{ __typename: 'kite' }] });
  });
});
