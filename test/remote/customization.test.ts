// Remote schema customization (issue 17): root_fields_namespace, type_names and field_names (prefix,
// suffix, mapping) in the client's schema, translated back in the call, and __typename answered
// in the client's names.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startRemote, type RemoteServer } from './remote-server.js';

const COUNTRIES = [{ code: 'NO', name: 'Norway', continent: { name: 'Europe' } }, { code: 'JP', name: 'Japan', continent: { name: 'Asia' } }];
const SDL = `
  type Query { countries(filter: Filter): [Country!]!  country(code: ID!): Country }
  input Filter { prefix: String }
  type Country { code: ID!  name: String!  continent: Continent }
  type Continent { name: String }`;
const ROOT = {
  countries: ({ filter }: { filter?: { prefix?: string } }) => COUNTRIES.filter((c) => !filter?.prefix || c.name.startsWith(filter.prefix)),
  country: ({ code }: { code: string }) => COUNTRIES.find((c) => c.code === code) ?? null,
};

describe('remote schema customization', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  let remote: RemoteServer;
  const base = () => `http://127.0.0.1:${server.port}`;
  const gql = (query: string, variables?: unknown) => postJson(base(), '/v1/graphql', { query, variables });

  beforeAll(async () => {
    db = await createTestDatabase('rcust', "CREATE TABLE author (id int PRIMARY KEY, country text); INSERT INTO author VALUES (1, 'JP'), (2, 'NO'), (3, NULL);");
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
      stringifyNumericTypes: false, console: false });
    remote = await startRemote(SDL, ROOT);
    expect((await postJson(base(), '/v1/metadata', { type: 'pg_track_table', args: { table: 'author' } })).status).toBe(200);
    const add = await postJson(base(), '/v1/metadata', { type: 'add_remote_schema', args: { name: 'geo', definition: { url: remote.url,
      customization: { root_fields_namespace: 'geo', type_names: { prefix: 'geo_', mapping: { Continent: 'Landmass' } },
        field_names: [{ parent_type: 'Country', suffix: '_field', mapping: { code: 'iso' } }, { parent_type: 'Query', prefix: 'q_' }] } } } });
    expect(add).toEqual({ status: 200, body: { message: 'success' } });
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
    await db?.drop();
  });

  it('serves the namespace with renamed types and fields, and calls the remote in its own names', async () => {
    remote.received.length = 0;
    const r = await gql(`query Q($f: geo_Filter) { author(order_by: {id: asc}) { id } geo { __typename all: q_countries(filter: $f) { __typename ...C continent_field { __typename name } }
      one: q_country(code: "JP") { iso kind: __typename } } }
      fragment C on geo_Country { iso name_field }`, { f: { prefix: 'N' } });
    expect(r.body).toEqual({ data: { author: [{ id: 1 }, { id: 2 }, { id: 3 }], geo: { __typename: 'geo_Query',
      all: [{ __typename: 'geo_Country', iso: 'NO', name_field: 'Norway', continent_field: { __typename: 'Landmass', name: 'Europe' } }],
      one: { iso: 'JP', kind: 'geo_Country' } } } });
    expect(remote.calls()).toHaveLength(1);
    const sent = remote.calls()[0]!.body.query;
    expect(sent).toContain('fragment C on Country');
    expect(sent).toContain('$f: Filter');
    expect(sent).toMatch(/geo__all: countries\(filter: \$f\)/);
    expect(sent).toMatch(/iso: code/);
    expect(sent).not.toMatch(/geo_[A-Z]/);
  });

  it('shows the customized names in introspection', async () => {
    const r = await gql('{ __type(name: "geo_Country") { fields { name } } q: __type(name: "query_root") { fields { name } } }');
    expect(r.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(['iso', 'name_field', 'continent_field']);
    expect(r.body.data.q.fields.map((f: { name: string }) => f.name)).toContain('geo');
    expect(r.body.data.q.fields.map((f: { name: string }) => f.name)).not.toContain('q_countries');
  });

  it('renames inside a remote relationship: the selection sent in the remote\'s names, __typename answered in the client\'s', async () => {
    const rel = await postJson(base(), '/v1/metadata', { type: 'pg_create_remote_relationship', args: { name: 'land', source: 'default', table: 'author',
      definition: { to_remote_schema: { remote_schema: 'geo', lhs_fields: ['country'], remote_field: { country: { arguments: { code: '$country' } } } } } } });
    expect(rel).toEqual({ status: 200, body: { message: 'success' } });
    remote.received.length = 0;
    const r = await gql(`{ author(order_by: {id: asc}) { id land { __typename ...C t: __typename continent_field { __typename name } } } }
      fragment C on geo_Country { iso name_field }`);
    expect(r.body).toEqual({ data: { author: [
      { id: 1, land: { __typename: 'geo_Country', iso: 'JP', name_field: 'Japan', t: 'geo_Country', continent_field: { __typename: 'Landmass', name: 'Asia' } } },
      { id: 2, land: { __typename: 'geo_Country', iso: 'NO', name_field: 'Norway', t: 'geo_Country', continent_field: { __typename: 'Landmass', name: 'Europe' } } },
      { id: 3, land: null },
    ] } });
    expect(remote.calls()).toHaveLength(1);
    const sent = remote.calls()[0]!.body.query;
    expect(sent).toContain('fragment C on Country');
    expect(sent).toMatch(/iso: code/);
    expect(sent).toMatch(/continent_field: continent/);
    expect(sent).not.toMatch(/geo_[A-Z]|Landmass/);
  });
});
