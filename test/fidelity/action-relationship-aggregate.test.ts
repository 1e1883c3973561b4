// An array relationship from an action's output type to a table also gives `<name>_aggregate`,
// as Hasura builds a relationship to a source (GraphQL/Schema/RemoteSource.hs remoteSourceField:
// selectTable and, when the role may aggregate the table, selectTableAggregate under the
// relationship's name + "_aggregate"), read under the role's select permission.
// tests-py test_actions.py TestActionsSyncWebsocket test_create_user_relationship
// (queries/actions/sync/create_user_relationship.yaml: articles_aggregate { aggregate { max { name } } }).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startHandler, type HandlerServer } from '../actions/handler-server.js';

let handler: HandlerServer;
let server: ServedDatabase;
const asRole = (role: string) => ({ 'x-svc-role': role });

beforeAll(async () => {
  handler = await startHandler();
  handler.route('/author', () => ({ body: { id: 1 } }));
  const sql = `CREATE TABLE article (id int PRIMARY KEY, name text, author int, public boolean);
    INSERT INTO article VALUES (1, 'foo', 1, true), (2, 'bar', 1, false), (3, 'baz', 1, true), (4, 'qux', 2, true);`;
  const perm = (role: string, aggregations: boolean) => ({ type: 'pg_create_select_permission', args: { table: 'article', role,
    permission: { columns: ['id', 'name'], filter: { public: { _eq: true } }, allow_aggregations: aggregations } } });
  server = await serveDatabase('fidactagg', sql, {
    track: ['article'],
    metadata: [
      perm('reader', false), perm('counter', true),
      { type: 'set_custom_types', args: { objects: [{ name: 'Author', fields: [{ name: 'id', type: 'Int!' }],
        relationships: [{ name: 'articles', type: 'array', remote_table: 'article', field_mapping: { id: 'author' } }] }] } },
      { type: 'create_action', args: { name: 'author', definition: { type: 'query', handler: `${handler.base}/author`, output_type: 'Author' } } },
      { type: 'create_action_permission', args: { action: 'author', role: 'reader' } },
      { type: 'create_action_permission', args: { action: 'author', role: 'counter' } },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  await handler?.close();
});

describe('the aggregate of an action output\'s array relationship', () => {
  const q = '{ author { id articles_aggregate(where: {id: {_gt: 0}}) { aggregate { count max { name } } nodes { id } } } }';

  it('reads the related rows\' aggregate for admin', async () => {
    expect(await server.gql(q)).toEqual({ data: { author: { id: 1,
      articles_aggregate: { aggregate: { count: 3, max: { name: 'foo' } }, nodes: [{ id: 1 }, { id: 2 }, { id: 3 }] } } } });
  });

  it('reads it under the role\'s filter when the role may aggregate, and is absent when it may not', async () => {
    expect(await server.gql(q, undefined, asRole('counter'))).toEqual({ data: { author: { id: 1,
      articles_aggregate: { aggregate: { count: 2, max: { name: 'foo' } }, nodes: [{ id: 1 }, { id: 3 }] } } } });
    const refused = await server.gql(q, undefined, asRole('reader'));
    expect(refused.errors[0].extensions.code).toBe('validation-failed');
    expect(refused.errors[0].message).toBe('field "articles_aggregate" not found in type: \'Author\'');
  });
});
