// A Relay request is read against the role's Relay schema, as Hasura's parsers of that schema read
// it (GraphQL/Schema.hs buildRelayRoleContext; Schema/Select.hs tableConnectionArgs has no limit or
// offset, PageInfo only its four fields; Parser's selectionSetInterface reads node's selection for
// each table type): what the Relay schema lacks is refused in Hasura's words at its place in the
// Relay document, and a subscription over HTTP is refused as on /v1/graphql.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;
const relay = async (query: string): Promise<any> => (await server.post('/v1beta1/relay', { query })).body;
const refused = (message: string, path: string, code = 'validation-failed') => ({ errors: [{ message, extensions: { path, code } }] });

beforeAll(async () => {
  server = await serveDatabase('fidrelayvalid', `CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
    INSERT INTO author (name) VALUES ('A1');
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author);`);
  const setup = (await server.post('/v1/metadata', { type: 'bulk', args: [
    { type: 'pg_track_table', args: { table: 'author' } },
    { type: 'pg_track_table', args: { table: 'article' } },
    { type: 'pg_create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
  ] })).body;
  expect(setup).toHaveLength(3);
}, 60_000);
afterAll(() => server?.close());

describe('Relay requests read against the Relay schema', () => {
  it('refuse a field the Relay type lacks at its path in the Relay document', async () => {
    expect(await relay('{ author_connection { edges { node { nope } } } }'))
      .toEqual(refused('field "nope" not found in type: \'author\'', '$.selectionSet.author_connection.selectionSet.edges.selectionSet.node.selectionSet.nope'));
    expect(await relay('{ author_connection { pageInfo { nope } } }'))
      .toEqual(refused('field "nope" not found in type: \'PageInfo\'', '$.selectionSet.author_connection.selectionSet.pageInfo.selectionSet.nope'));
    expect(await relay('{ author_connection(where: {nope: {_eq: 1}}) { edges { cursor } } }'))
      .toEqual(refused('field "nope" not found in type: \'author_bool_exp\'', '$.selectionSet.author_connection.args.where.nope'));
  });

  it('parse the selection of node for each table type, its fragments on that type', async () => {
    const id = Buffer.from('[1, "public", "author", 1]').toString('base64');
    expect(await relay(`{ node(id: "${id}") { id ... on author { nope } } }`))
      .toEqual(refused('field "nope" not found in type: \'author\'', '$.selectionSet.node.selectionSet.nope'));
    expect(await relay(`{ node(id: "${id}") { ... on article { title(x: 1) } } }`))
      .toEqual(refused('"title" has no argument named "x"', '$.selectionSet.node.selectionSet.title'));
    expect(await relay(`{ node(id: "${id}") { id ... on author { name } ... on article { title } } }`)).toEqual({ data: { node: { id, name: 'A1' } } });
  });

  it('refuse limit and offset, which connections do not take', async () => {
    expect(await relay('{ author_connection(limit: 1) { edges { cursor } } }'))
      .toEqual(refused('"author_connection" has no argument named "limit"', '$.selectionSet.author_connection'));
    expect(await relay('{ author_connection { edges { node { articles_connection(offset: 1) { edges { cursor } } } } } }'))
      .toEqual(refused('"articles_connection" has no argument named "offset"', '$.selectionSet.author_connection.selectionSet.edges.selectionSet.node.selectionSet.articles_connection'));
  });

  it('read first and last as Hasura reads limit, a non-negative 32-bit integer', async () => {
    expect(await relay('{ author_connection(first: -1) { edges { cursor } } }'))
      .toEqual(refused('expected a non-negative 32-bit integer for type "Int", but found an integer', '$.selectionSet.author_connection.args.first'));
    const r = (await server.post('/v1beta1/relay', { query: 'query ($n: Int) { author_connection(last: $n) { edges { cursor } } }', variables: { n: -2 } })).body;
    expect(r).toEqual(refused('expected a non-negative 32-bit integer for type "Int", but found a number', '$.selectionSet.author_connection.args.last'));
    expect((await relay('{ author_connection(first: 0) { edges { cursor } pageInfo { hasNextPage } } }')).data)
      .toEqual({ author_connection: { edges: [], pageInfo: { hasNextPage: true } } });
  });

  it('refuse a missing selection set and a missing node id', async () => {
    expect(await relay('{ author_connection { edges } }'))
      .toEqual(refused('missing selection set for "authorEdge"', '$.selectionSet.author_connection.selectionSet.edges.selectionSet'));
    expect(await relay('{ node { id } }')).toEqual(refused('missing required field "id"', '$.selectionSet.node.args.id'));
  });

  it('refuse a subscription over HTTP once it is valid', async () => {
    expect(await relay('subscription { author_connection { edges { cursor } } }'))
      .toEqual(refused('subscriptions are not supported over HTTP, use websockets instead', '$', 'unexpected-payload'));
  });

  it('still answer a valid request', async () => {
    expect(await relay('{ author_connection { edges { node { name } } } }')).toEqual({ data: { author_connection: { edges: [{ node: { name: 'A1' } }] } } });
  });
});
