// A role listed in set_graphql_schema_introspection_options' disabled_for_roles that asks for
// __schema or __type is refused as a feature switched off for it: code not-supported, path `$`,
// and the message names the role in double quotes (`introspection is disabled for role: "r"`,
// Hasura's tests-py graphql_introspection/disable_introspection). __typename is not introspection
// of the schema and stays allowed; other roles and admin are unaffected. Before, Kiln answered
// validation-failed with `introspection is disabled for this role`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('introspection disabled for a role', () => {
  let server: ServedDatabase;
  const refused = (role: string) => ({ errors: [{ message: `introspection is disabled for role: "${role}"`, extensions: { path: '$', code: 'not-supported' } }] });

  beforeAll(async () => {
    server = await serveDatabase('fidintrooff', `CREATE TABLE shelf (id serial PRIMARY KEY, label text);
      INSERT INTO shelf (label) VALUES ('oak'), ('pine');`, { track: ['shelf'], metadata: [
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'clerk', permission: { columns: ['label'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'guest', permission: { columns: ['label'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'shelf', role: 'my-role', permission: { columns: ['label'], filter: {} } } },
      { type: 'set_graphql_schema_introspection_options', args: { disabled_for_roles: ['clerk', 'my-role'] } }] });
  });

  afterAll(() => server?.close());

  it('refuses __schema and __type, at the root or through a fragment, naming the role', async () => {
    const as = (role: string) => ({ 'x-svc-role': role });
    expect(await server.gql('{ __schema { queryType { name } } }', undefined, as('clerk'))).toEqual(refused('clerk'));
    expect(await server.gql('{ __type(name: "shelf") { fields { name } } }', undefined, as('clerk'))).toEqual(refused('clerk'));
    expect(await server.gql('query { ...Q } fragment Q on query_root { __type(name: "shelf") { name } }', undefined, as('clerk'))).toEqual(refused('clerk'));
    expect(await server.gql('{ __schema { queryType { name } } }', undefined, as('my-role'))).toEqual(refused('my-role'));
  });

  it('still answers __typename to that role, and introspection to the others', async () => {
    expect(await server.gql('{ __typename shelf(order_by: {label: asc}) { __typename label } }', undefined, { 'x-svc-role': 'clerk' }))
      .toEqual({ data: { __typename: 'query_root', shelf: [{ __typename: 'shelf', label: 'oak' }, { __typename: 'shelf', label: 'pine' }] } });
    expect(await server.gql('{ __type(name: "shelf") { name } }', undefined, { 'x-svc-role': 'guest' }))
      .toEqual({ data: { __type: { name: 'shelf' } } });
    expect(await server.gql('{ __type(name: "shelf") { name } }', undefined, {}))
      .toEqual({ data: { __type: { name: 'shelf' } } });
  });
});
