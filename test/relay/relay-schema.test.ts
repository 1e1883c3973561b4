// The Relay schema (POST /v1beta1/relay) answers `__schema` and `__type` as Hasura v2's does
// (GraphQL/Schema.hs buildRelayRoleContext, Schema/Relay.hs, Schema/Select.hs): per role, a query
// root of `node(id: ID!): Node` and `<table>_connection` fields, tables with a key as Node objects
// with a global `id: ID!`, `<table>Connection`/`<table>Edge`/PageInfo, array relationships also as
// `<rel>_connection`, no column named id on any table (Select.hs fieldSelection); a role sees only
// the tables and columns it may read.

import { buildClientSchema, getIntrospectionQuery, isInterfaceType, isObjectType, printType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('the Relay schema', () => {
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> => (await server.post(path, body, headers)).body;
  const relay = (query: string, headers: Record<string, string> = {}) => post('/v1beta1/relay', { query }, headers);
  const reader = { 'x-svc-role': 'reader' };
  const schemaOf = async (headers: Record<string, string> = {}) => {
    const r = await relay(getIntrospectionQuery(), headers);
    expect(r.errors).toBeUndefined();
    return buildClientSchema(r.data);
  };
  const fieldsOf = (t: unknown): string[] => Object.keys((t as GraphQLObjectType).getFields()).sort();

  beforeAll(async () => {
    server = await serveDatabase('relayschema', `CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, secret text);
      INSERT INTO author (name) VALUES ('A1'), ('A2');
      CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author);
      INSERT INTO article (title, author_id) VALUES ('T1', 1), ('T2', 1);
      CREATE VIEW article_view AS SELECT * FROM article;
      CREATE TABLE audit (at timestamptz PRIMARY KEY DEFAULT now(), note text);`);
    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { table: 'author' } },
      { type: 'pg_track_table', args: { table: 'article' } },
      { type: 'pg_track_table', args: { table: 'article_view' } },
      { type: 'pg_track_table', args: { table: 'audit' } },
      { type: 'pg_create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'pg_create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      { type: 'pg_create_array_relationship', args: { table: 'author', name: 'articles_view', using: { manual_configuration: { remote_table: 'article_view', column_mapping: { id: 'author_id' } } } } },
      { type: 'pg_create_select_permission', args: { table: 'author', role: 'reader', permission: { columns: ['name'], filter: {} } } },
      { type: 'pg_create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['title'], filter: {} } } },
    ] });
    expect(setup).toHaveLength(9);
  }, 60_000);
  afterAll(() => server?.close());

  it('rebuilds from getIntrospectionQuery into a schema with the node field, connections and Node objects', async () => {
    const schema = await schemaOf();
    const query = schema.getQueryType()!;
    expect(query.name).toBe('query_root');
    // Connections for the tables with a key only (not the view), no plain select fields.
    expect(fieldsOf(query)).toEqual(['article_connection', 'audit_connection', 'author_connection', 'node']);
    expect(String(query.getFields()['node']!.type)).toBe('Node');
    expect(query.getFields()['node']!.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['id: ID!']);
    const connection = query.getFields()['author_connection']!;
    expect(String(connection.type)).toBe('authorConnection!');
    expect(connection.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['after: String', 'before: String', 'distinct_on: [author_select_column!]',
      'first: Int', 'last: Int', 'order_by: [author_order_by!]', 'where: author_bool_exp']);
    const node = schema.getType('Node');
    expect(isInterfaceType(node) && schema.getPossibleTypes(node).map((t) => t.name).sort()).toEqual(['article', 'audit', 'author']);
    expect(printType(schema.getType('PageInfo')!)).toBe('type PageInfo {\n  endCursor: String!\n  hasNextPage: Boolean!\n  hasPreviousPage: Boolean!\n  startCursor: String!\n}');
    expect(printType(schema.getType('authorEdge')!)).toBe('type authorEdge {\n  cursor: String!\n  node: author!\n}');
    expect(printType(schema.getType('authorConnection')!)).toMatch(/\ntype authorConnection {\n  edges: \[authorEdge!\]!\n  pageInfo: PageInfo!\n}$/);
    expect(schema.getType('authorConnection')!.description).toBe('A Relay connection object on "author"');
    const author = schema.getType('author');
    expect(isObjectType(author) && author.getInterfaces().map((i) => i.name)).toEqual(['Node']);
    // The global id in place of the key column; a connection beside the array relationship to a
    // table with a key, none beside the one to the view.
    expect(String((author as GraphQLObjectType).getFields()['id']!.type)).toBe('ID!');
    expect(fieldsOf(author)).toEqual(['articles', 'articles_aggregate', 'articles_connection', 'articles_view', 'articles_view_aggregate', 'id', 'name', 'secret']);
    expect(String((author as GraphQLObjectType).getFields()['articles_connection']!.type)).toBe('articleConnection!');
    // The view has no key: it is no node and has no connection.
    expect(isObjectType(schema.getType('article_view')) && (schema.getType('article_view') as GraphQLObjectType).getInterfaces()).toEqual([]);
    expect(schema.getType('article_viewConnection')).toBeUndefined();
    // Its column named id is left out all the same (the Relay schema's `id` is the global id).
    expect(fieldsOf(schema.getType('article_view'))).toEqual(['author_id', 'title']);
  });

  it('refuses a column named id on a table without a key, as the Relay schema has none', async () => {
    expect(await relay('{ author_connection { edges { node { articles_view { id title } } } } }')).toEqual({ errors: [{ message: 'field "id" not found in type: \'article_view\'',
      extensions: { code: 'validation-failed', path: '$.selectionSet.author_connection.selectionSet.edges.selectionSet.node.selectionSet.articles_view.selectionSet.id' } }] });
    const r = await relay('{ author_connection(first: 1) { edges { node { articles_view { title } } } } }');
    expect(r.data.author_connection.edges[0].node.articles_view).toEqual([{ title: 'T1' }, { title: 'T2' }]);
  });

  it('gives a role only the tables and columns it may read', async () => {
    const schema = await schemaOf(reader);
    expect(fieldsOf(schema.getQueryType())).toEqual(['article_connection', 'author_connection', 'node']);
    expect(fieldsOf(schema.getType('author'))).toEqual(['articles', 'articles_connection', 'id', 'name']);
    expect(fieldsOf(schema.getType('article'))).toEqual(['author', 'id', 'title']);
    expect(schema.getType('audit')).toBeUndefined();
    expect(schema.getType('auditConnection')).toBeUndefined();
    expect(schema.getType('article_view')).toBeUndefined();
  });

  it('answers __type beside data fields, and null for a type the role does not have', async () => {
    const r = await relay('{ t: __type(name: "Node") { kind possibleTypes { name } } a: __type(name: "audit") { name } author_connection(first: 1) { edges { node { name } } } }', reader);
    expect(r).toEqual({ data: { t: { kind: 'INTERFACE', possibleTypes: [{ name: 'article' }, { name: 'author' }] }, a: null,
      author_connection: { edges: [{ node: { name: 'A1' } }] } } });
    expect((await relay('{ __schema { queryType { name } } }')).data).toEqual({ __schema: { queryType: { name: 'query_root' } } });
  });
});
