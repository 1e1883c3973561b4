// The arguments of @include and @skip are parsed as a field's are (Hasura's Parser/Directives.hs,
// mkDirective, called from Parser/Collect.hs for fields, fragment spreads and inline fragments):
// an argument the directive does not take is refused at the directive, `if` is required, its
// literal must be a Boolean (a string is not a false condition) and a variable in it must be
// declared Boolean! (or carry a default) and hold a boolean.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, metadataOf, table } from '../integration/setup.js';

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('fiddirective', `CREATE TABLE lantern (id serial PRIMARY KEY, glow text, lit boolean);
    INSERT INTO lantern (glow, lit) VALUES ('amber', true), ('blue', false);`);
  kiln = await startKiln({ metadata: metadataOf([table('lantern')]), databaseUrl: db.url });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const err = (message: string, path: string): unknown => ({ message, path, code: 'validation-failed' });

describe('arguments of @include and @skip', () => {
  it('refuses a literal of another kind than Boolean, on a field, an inline fragment and a fragment spread', async () => {
    expect(errorOf(await kiln.gql('{ lantern { id glow @include(if: "yes") } }')))
      .toEqual(err('expected a boolean for type "Boolean", but found a string', '$.selectionSet.lantern.selectionSet.include.args.if'));
    expect(errorOf(await kiln.gql('{ lantern { id ... on lantern @skip(if: 0) { glow } } }')))
      .toEqual(err('expected a boolean for type "Boolean", but found an integer', '$.selectionSet.lantern.selectionSet.skip.args.if'));
    expect(errorOf(await kiln.gql('{ lantern { id ...G @skip(if: null) } } fragment G on lantern { glow }')))
      .toEqual(err('expected a boolean for type "Boolean", but found null', '$.selectionSet.lantern.selectionSet.skip.args.if'));
    // On a root field the directive sits in the operation's selection set.
    expect(errorOf(await kiln.gql('{ lantern @include(if: [true]) { id } }')))
      .toEqual(err('expected a boolean for type "Boolean", but found a list', '$.selectionSet.include.args.if'));
  });

  it('wants `if` and no other argument', async () => {
    expect(errorOf(await kiln.gql('{ lantern { id glow @skip } }')))
      .toEqual(err('missing required field "if"', '$.selectionSet.lantern.selectionSet.skip.args.if'));
    expect(errorOf(await kiln.gql('{ lantern { id glow @include(if: true, unless: false) } }')))
      .toEqual(err('"include" has no argument named "unless"', '$.selectionSet.lantern.selectionSet.include'));
  });

  it('checks a variable in `if`: its declared type, then its value', async () => {
    expect(errorOf(await kiln.gql('query ($on: Boolean) { lantern { id glow @include(if: $on) } }', { on: true })))
      .toEqual(err('variable "on" is declared as Boolean, but used where Boolean! is expected', '$.selectionSet.lantern.selectionSet.include.args.if'));
    expect(errorOf(await kiln.gql('query ($off: Boolean!) { lantern { id glow @skip(if: $off) } }', { off: 'true' })))
      .toEqual(err('expected a boolean for type "Boolean", but found a string', '$.selectionSet.lantern.selectionSet.skip.args.if'));
    expect(errorOf(await kiln.gql('query ($off: Boolean!) { lantern { id glow @skip(if: $off) } }', { off: null })))
      .toEqual(err('unexpected null value for type "Boolean"', '$.selectionSet.lantern.selectionSet.skip.args.if'));
  });

  it('still applies well-formed conditions, from literals, variables and defaults', async () => {
    expect(dataOf(await kiln.gql('query ($off: Boolean!) { lantern(order_by: {id: asc}) { id glow @skip(if: $off) lit @include(if: false) } }', { off: false })))
      .toEqual({ lantern: [{ id: 1, glow: 'amber' }, { id: 2, glow: 'blue' }] });
    expect(dataOf(await kiln.gql('query ($show: Boolean = false) { lantern(order_by: {id: asc}) { id ... on lantern @include(if: $show) { glow } } }')))
      .toEqual({ lantern: [{ id: 1 }, { id: 2 }] });
  });
});
