// Source customization (Hasura v2 `customization` of a source): `type_names` prefix and suffix
// around every type of the source (object, aggregate, mutation response, inputs, comparison
// types; scalars keep their names), `root_fields` prefix and suffix, and `root_fields.namespace`
// gathering the source's root fields under one field, on queries and mutations alike.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('source customization', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown): Promise<any> => (await server.post(path, body)).body;
  const gql = (query: string) => post('/v1/graphql', { query });

  beforeAll(async () => {
    server = await serveDatabase('srccust', `CREATE TABLE plant (id int PRIMARY KEY, name text NOT NULL, height int);
      INSERT INTO plant VALUES (1, 'fern', 30), (2, 'moss', 2);`);
    db = server.db;
    // The same database twice: plainly as `default`, and customized as `garden`.
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'plant' } },
      { type: 'pg_add_source', args: { name: 'garden', configuration: { connection_info: { database_url: db.url } },
        customization: { root_fields: { namespace: 'greenhouse', prefix: 'gh_', suffix: '_x' }, type_names: { prefix: 'G', suffix: 'T' } } } },
      { type: 'pg_track_table', args: { source: 'garden', table: 'plant' } },
    ] });
    expect(setup).toEqual([{ message: 'success' }, { message: 'success' }, { message: 'success' }]);
  }, 60_000);
  afterAll(() => server?.close());

  it('answers queries under the namespace, with the customized root field and type names', async () => {
    expect(await gql(`{ greenhouse { __typename gh_plant_x(order_by: {id: asc}) { __typename name }
        gh_plant_by_pk_x(id: 2) { name } gh_plant_aggregate_x { __typename aggregate { __typename count } } }
      plant(where: {id: {_eq: 1}}) { __typename name } }`)).toEqual({ data: {
      greenhouse: {
        __typename: 'Ggreenhouse_queryT',
        gh_plant_x: [{ __typename: 'GplantT', name: 'fern' }, { __typename: 'GplantT', name: 'moss' }],
        gh_plant_by_pk_x: { name: 'moss' },
        gh_plant_aggregate_x: { __typename: 'Gplant_aggregateT', aggregate: { __typename: 'Gplant_aggregate_fieldsT', count: 2 } },
      },
      plant: [{ __typename: 'plant', name: 'fern' }],
    } });
  });

  it('names every input and comparison type of the source with the prefix and suffix, and keeps scalar names', async () => {
    const types = (await gql('{ __schema { types { name } } }')).data.__schema.types.map((t: any) => t.name);
    for (const name of ['Gplant_bool_expT', 'Gplant_order_byT', 'Gplant_insert_inputT', 'Gplant_set_inputT', 'Gplant_pk_columns_inputT',
      'Gplant_mutation_responseT', 'GInt_comparison_expT', 'GString_comparison_expT', 'Ggreenhouse_mutation_frontendT',
      'plant_bool_exp', 'Int_comparison_exp']) expect(types).toContain(name);
    expect(types.filter((n: string) => /^G?Int$/.test(n))).toEqual(['Int']);
    // Fragments name the customized types.
    expect(await gql('{ greenhouse { gh_plant_by_pk_x(id: 1) { ...P } } } fragment P on GplantT { height }'))
      .toEqual({ data: { greenhouse: { gh_plant_by_pk_x: { height: 30 } } } });
  });

  it('runs mutations under the namespace in order, answering with the customized type names', async () => {
    expect(await gql(`mutation { greenhouse { __typename
        gh_insert_plant_x(objects: [{id: 3, name: "ivy"}]) { __typename affected_rows returning { __typename id } }
        gh_update_plant_by_pk_x(pk_columns: {id: 3}, _set: {height: 4}) { name height }
        gh_delete_plant_x(where: {id: {_eq: 2}}) { affected_rows } } }`)).toEqual({ data: { greenhouse: {
      __typename: 'Ggreenhouse_mutation_frontendT',
      gh_insert_plant_x: { __typename: 'Gplant_mutation_responseT', affected_rows: 1, returning: [{ __typename: 'GplantT', id: 3 }] },
      gh_update_plant_by_pk_x: { name: 'ivy', height: 4 },
      gh_delete_plant_x: { affected_rows: 1 },
    } } });
    expect(await db.query('SELECT id, height FROM plant ORDER BY id')).toEqual([{ id: 1, height: 30 }, { id: 3, height: 4 }]);
  });
});
