// A relationship to a table of another source whose root fields are in a namespace (source
// customization `root_fields.namespace`) reaches the table's select field inside the namespace,
// as Hasura's remote source join and field parser do (tests-py test_metadata.py TestMetadata
// test_pg_remote_source_customized_query: pg1 and pg2 both namespaced and prefixed). Kiln asked the
// field `s2.f2_author` at the query root ("not a valid graphql query") and gave an array
// relationship no arguments.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('relationships to a namespaced source', () => {
  let server: ServedDatabase;
  let other: TestDatabase;
  const source = (name: string, url: string, ns: string, prefix: string) => ({ type: 'pg_add_source', args: { name,
    configuration: { connection_info: { database_url: url } },
    customization: { root_fields: { namespace: ns, prefix: `f${prefix}_` }, type_names: { prefix: `t${prefix}_` } } } });

  beforeAll(async () => {
    other = await createTestDatabase('fidnsto', `CREATE TABLE place (id serial PRIMARY KEY, location text);
      INSERT INTO place (location) VALUES ('Location 1'), ('Location 2');`);
    server = await serveDatabase('fidnsfrom', '');
    await server.ok('/v1/metadata', source('pg2', other.url, 's2', '2'));
    await server.ok('/v1/metadata', { type: 'pg_track_table', args: { source: 'pg2', table: 'place' } });
    await server.ok('/v1/query', { type: 'run_sql', args: { sql: `CREATE TABLE author (id serial PRIMARY KEY, name text);
      INSERT INTO author (name) VALUES ('Author 1'), ('Author 2');` } });
    await server.ok('/v1/metadata', { type: 'pg_track_table', args: { table: 'author' } });
    for (const [name, kind] of [['place', 'object'], ['places', 'array']] as const) {
      await server.ok('/v1/metadata', { type: 'pg_create_remote_relationship', args: { name, table: 'author',
        definition: { to_source: { relationship_type: kind, field_mapping: { id: 'id' }, source: 'pg2', table: 'place' } } } });
    }
  });
  afterAll(async () => {
    try { await server?.close(); } finally { await other?.drop(); }
  });

  it('joins an object relationship through the namespace', async () => {
    expect(await server.gql('{ author(order_by: {id: asc}) { id place { __typename id location } } }')).toEqual({ data: { author: [
      { id: 1, place: { __typename: 't2_place', id: 1, location: 'Location 1' } },
      { id: 2, place: { __typename: 't2_place', id: 2, location: 'Location 2' } },
    ] } });
  });

  it('gives an array relationship the select field arguments and honours them', async () => {
    const r = await server.gql('{ __type(name: "author") { fields { name args { name } } } }');
    const places = r.data.__type.fields.find((f: any) => f.name === 'places');
    expect(places.args.map((a: any) => a.name)).toEqual(['distinct_on', 'limit', 'offset', 'order_by', 'where']);
    expect(await server.gql('{ author(order_by: {id: asc}) { id places(where: {location: {_eq: "Location 1"}}) { id } } }'))
      .toEqual({ data: { author: [{ id: 1, places: [{ id: 1 }] }, { id: 2, places: [] }] } });
  });
});
