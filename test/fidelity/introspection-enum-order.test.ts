// Introspection lists every enum's values by name, as Hasura's does (Schema/Introspect.hs sorts
// `enumValues` on the name): the schema's own enums (order_by, select columns, constraints, enum
// tables) and graphql-js's introspection enums `__TypeKind` and `__DirectiveLocation` alike, through
// `__type` and through `__schema`, whichever role asks.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, metadataOf, table } from '../integration/setup.js';

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('fidenumorder', `CREATE TABLE shelf (zone text PRIMARY KEY, comment text);
    INSERT INTO shelf VALUES ('upper', 'top'), ('lower', 'bottom'), ('middle', NULL);
    CREATE TABLE crate (id serial PRIMARY KEY, weight int, zone text REFERENCES shelf (zone), label text UNIQUE);`);
  kiln = await startKiln({ databaseUrl: db.url, metadata: metadataOf([
    table('shelf', { is_enum: true }),
    table('crate', { select_permissions: [{ role: 'clerk', permission: { columns: ['id', 'weight', 'zone'], filter: {} } }] }),
  ]) });
}, 60_000);
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

const sorted = (names: readonly string[]): string[] => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const valuesOf = async (type: string, headers?: Record<string, string>): Promise<string[]> => {
  const t = dataOf(await kiln.gql(`{ __type(name: "${type}") { enumValues { name } } }`, null, headers)).__type as { enumValues: { name: string }[] };
  return t.enumValues.map((v) => v.name);
};

describe('enum values in introspection', () => {
  it('lists __TypeKind and __DirectiveLocation by name', async () => {
    expect(await valuesOf('__TypeKind')).toEqual(['ENUM', 'INPUT_OBJECT', 'INTERFACE', 'LIST', 'NON_NULL', 'OBJECT', 'SCALAR', 'UNION']);
    const locations = await valuesOf('__DirectiveLocation', { 'x-svc-role': 'clerk' });
    expect(locations).toContain('FIELD');
    expect(locations).toEqual(sorted(locations));
  });

  it('lists every enum of every role\'s schema by name, through __schema', async () => {
    for (const headers of [undefined, { 'x-svc-role': 'clerk' }]) {
      const types = (dataOf(await kiln.gql('{ __schema { types { name kind enumValues { name } } } }', null, headers)).__schema as { types: { name: string; kind: string; enumValues: { name: string }[] | null }[] }).types;
      const enums = types.filter((t) => t.kind === 'ENUM');
      expect(enums.map((t) => t.name)).toEqual(expect.arrayContaining(['__TypeKind', 'order_by', 'crate_select_column', 'shelf_enum']));
      for (const t of enums) expect(t.enumValues!.map((v) => v.name), t.name).toEqual(sorted(t.enumValues!.map((v) => v.name)));
    }
  });

  it('still reads a kind in a query the same way', async () => {
    expect(dataOf(await kiln.gql('{ a: __type(name: "crate") { kind } b: __type(name: "order_by") { kind } c: __type(name: "crate_bool_exp") { kind } }')))
      .toEqual({ a: { kind: 'OBJECT' }, b: { kind: 'ENUM' }, c: { kind: 'INPUT_OBJECT' } });
  });
});
