// Mutations on the Relay API (POST /v1beta1/relay): Hasura v2's Relay schema has the ordinary
// mutation root (GraphQL/Schema.hs buildRelayRoleContext: buildMutationFields for each source,
// actions' mutations), its rows the Relay types: a returned row's `id` is its global id and its
// array relationships have connections. A role's mutation permissions hold as on /v1/graphql.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('mutations on the Relay API', () => {
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> => (await server.post(path, body, headers)).body;
  const relay = (query: string, headers: Record<string, string> = {}) => post('/v1beta1/relay', { query }, headers);
  const reader = { 'x-svc-role': 'reader' };

  beforeAll(async () => {
    server = await serveDatabase('relaymutations', `CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
      INSERT INTO author (name) VALUES ('A1');
      CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author);
      INSERT INTO article (title, author_id) VALUES ('T1', 1), ('T2', 1);`);
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_track_table', args: { table: 'article' } },
      { type: 'pg_create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'pg_create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      { type: 'pg_create_select_permission', args: { table: 'author', role: 'reader', permission: { columns: ['name'], filter: {} } } },
    ] });
    expect(setup).toHaveLength(5);
  }, 60_000);
  afterAll(() => server?.close());

  it('answers the rows a write returns as nodes, with global ids and connections', async () => {
    const r = await relay(`mutation { __typename
      insert_author(objects: [{name: "A2"}]) { affected_rows __typename returning { __typename id name articles_connection { edges { node { id } } } } }
      update_article_by_pk(pk_columns: {id: 2}, _set: {title: "T2'"}) { id title author { id } }
      delete_article(where: {id: {_eq: 1}}) { returning { id } } }`);
    expect(r).toEqual({ data: {
      __typename: 'mutation_root',
      insert_author: { affected_rows: 1, __typename: 'author_mutation_response',
        returning: [{ __typename: 'author', id: b64('[1, "public", "author", 2]'), name: 'A2', articles_connection: { edges: [] } }] },
      update_article_by_pk: { id: b64('[1, "public", "article", 2]'), title: "T2'", author: { id: b64('[1, "public", "author", 1]') } },
      delete_article: { returning: [{ id: b64('[1, "public", "article", 1]') }] },
    } });
  });

  it('lists the mutation root in the Relay schema, and refuses a role without mutations as /v1/graphql does', async () => {
    const r = await relay('{ __schema { mutationType { name } } __type(name: "author_mutation_response") { fields { name type { ofType { ofType { ofType { name } } } } } } }');
    expect(r.data.__schema.mutationType).toEqual({ name: 'mutation_root' });
    expect(r.data.__type.fields).toEqual([{ name: 'affected_rows', type: { ofType: { ofType: null } } }, { name: 'returning', type: { ofType: { ofType: { ofType: { name: 'author' } } } } }]);
    expect(await relay('mutation { delete_author(where: {}) { affected_rows } }', reader))
      .toEqual({ errors: [{ message: 'no mutations exist', extensions: { path: '$', code: 'validation-failed' } }] });
    expect((await relay('{ __schema { mutationType { name } } }', reader)).data.__schema.mutationType).toBeNull();
  });
});
