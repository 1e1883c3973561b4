// A tracked function is a field of mutation_root when it is VOLATILE (unless `exposed_as: query`)
// or asked to be one with `exposed_as: mutation`; a function that is not VOLATILE may not be
// (Hasura: Backends/Postgres/DDL/Function.hs, NonVolatileFunctionAsMutation). Hasura exposes it
// (Schema/Build.hs, buildMutationFields / buildFunctionMutationFields) with the query field's
// arguments and type, no `_aggregate`, its own description, and only to admin and the roles given
// a function permission (no inference for mutations, Note [Function Permissions]); it runs in the
// mutation's order and transaction, its rows read through the role's select permission. A function
// permission needs the role to hold permissions on the returned table (runCreateFunctionPermission),
// and a function's root fields may not share a name (FunctionCustomRootFields' parser).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

let db: TestDatabase;
let server: ServedDatabase;

const SETUP = `
CREATE TABLE ticket (id serial PRIMARY KEY, queue text NOT NULL, note text);
CREATE FUNCTION open_tickets(queue text, n integer) RETURNS SETOF ticket AS $$
  INSERT INTO ticket (queue, note) SELECT queue, 'opened #' || i FROM generate_series(1, n) AS i RETURNING *
$$ LANGUAGE sql;
CREATE FUNCTION close_ticket(ticket_id integer) RETURNS ticket AS $$
  UPDATE ticket SET note = 'closed' WHERE id = ticket_id RETURNING *
$$ LANGUAGE sql VOLATILE;
CREATE FUNCTION count_queue(q text) RETURNS SETOF ticket AS $$ SELECT * FROM ticket WHERE queue = q $$ LANGUAGE sql STABLE;
CREATE FUNCTION peek_queue(q text) RETURNS SETOF ticket AS $$ SELECT * FROM ticket WHERE queue = q $$ LANGUAGE sql;
`;

const gql = (query: string, headers: Record<string, string> = {}) => postJson(server.url, '/v1/graphql', { query }, headers).then((r) => r.body);
const asAgent = { 'X-Svc-Role': 'agent' };
const fieldsOf = async (root: 'queryType' | 'mutationType', headers: Record<string, string> = {}): Promise<{ name: string; description: string }[]> =>
  ((await gql(`{ __schema { ${root} { fields { name description } } } }`, headers)).data.__schema[root]?.fields ?? []);

beforeAll(async () => {
  server = await serveDatabase('fidfnmut', SETUP, { metadata: [{ type: 'bulk', args: [
    { type: 'pg_track_table', args: { table: 'ticket' } },
    { type: 'pg_track_function', args: { function: 'open_tickets' } },
    { type: 'pg_track_function', args: { function: 'close_ticket' } },
    { type: 'pg_track_function', args: { function: 'peek_queue', configuration: { exposed_as: 'query' } } },
    { type: 'pg_create_select_permission', args: { table: 'ticket', role: 'agent', permission: { columns: ['id', 'queue'], filter: { queue: { _eq: 'help' } } } } },
  ] }] });
  db = server.db;
});
afterAll(() => server?.close());

describe('functions exposed as mutations', () => {
  it('puts a VOLATILE function under mutation_root, without _aggregate, with Hasura\'s description', async () => {
    const mutations = await fieldsOf('mutationType');
    expect(mutations.find((f) => f.name === 'open_tickets')).toEqual({ name: 'open_tickets', description: 'execute VOLATILE function "open_tickets" which returns "ticket"' });
    expect(mutations.map((f) => f.name)).toContain('close_ticket');
    expect(mutations.map((f) => f.name)).not.toContain('open_tickets_aggregate');
    const queries = (await fieldsOf('queryType')).map((f) => f.name);
    expect(queries).not.toContain('open_tickets');
    // `exposed_as: query` keeps a VOLATILE function a query, with its aggregate.
    expect(queries).toEqual(expect.arrayContaining(['peek_queue', 'peek_queue_aggregate']));
    expect(await gql('{ open_tickets(args: {queue: "help", n: 1}) { id } }')).toEqual({ errors: [{
      message: 'field "open_tickets" not found in type: \'query_root\'', extensions: { path: '$.selectionSet.open_tickets', code: 'validation-failed' } }] });
  });

  it('runs the call as a mutation: its rows with the select arguments, a single row as an object', async () => {
    const opened = await gql('mutation { open_tickets(args: {queue: "help", n: 3}, order_by: {id: desc}, limit: 2) { id queue note } }');
    expect(opened).toEqual({ data: { open_tickets: [{ id: 3, queue: 'help', note: 'opened #3' }, { id: 2, queue: 'help', note: 'opened #2' }] } });
    expect(await db.query('SELECT count(*)::int AS n FROM ticket')).toEqual([{ n: 3 }]);
    expect(await gql('mutation { close_ticket(args: {ticket_id: 2}) { id note } }')).toEqual({ data: { close_ticket: { id: 2, note: 'closed' } } });
  });

  it('rolls the call back with the rest of the mutation when a later field fails', async () => {
    const failed = await gql('mutation { open_tickets(args: {queue: "billing", n: 2}) { id } insert_ticket(objects: [{note: "no queue"}]) { affected_rows } }');
    expect(failed.errors?.[0]?.extensions.code).toBe('constraint-violation');
    expect(await db.query('SELECT count(*)::int AS n FROM ticket WHERE queue = \'billing\'')).toEqual([{ n: 0 }]);
  });

  it('shows the function to a role only with a function permission, and reads its rows through the select permission', async () => {
    expect(await gql('mutation { open_tickets(args: {queue: "help", n: 1}) { id } }', asAgent)).toEqual({ errors: [{
      message: 'no mutations exist', extensions: { path: '$', code: 'validation-failed' } }] });
    await server.ok('/v1/metadata', { type: 'pg_create_function_permission', args: { function: 'open_tickets', role: 'agent' } });
    expect((await fieldsOf('mutationType', asAgent)).map((f) => f.name)).toEqual(['open_tickets']);
    expect(await gql('mutation { help: open_tickets(args: {queue: "help", n: 1}) { queue } sales: open_tickets(args: {queue: "sales", n: 1}) { id } }', asAgent))
      .toEqual({ data: { help: [{ queue: 'help' }], sales: [] } });
    // The row the role may not read was written all the same: the function ran.
    expect(await db.query('SELECT note FROM ticket WHERE queue = \'sales\'')).toEqual([{ note: 'opened #1' }]);
  });

  it('grants a function permission only to a role with permissions on the returned table, in Hasura\'s words', async () => {
    expect(await server.post('/v1/metadata', { type: 'pg_create_function_permission', args: { function: 'close_ticket', role: 'visitor' } })).toEqual({ status: 400, body: {
      path: '$.args', code: 'not-supported', error: 'function permission can only be added when the function\'s return table "ticket" has select permission configured for role: "visitor"' } });
    expect(await server.post('/v1/metadata', { type: 'pg_create_function_permission', args: { function: 'open_tickets', role: 'agent' } })).toEqual({ status: 400, body: {
      path: '$.args', code: 'already-exists', error: 'permission of role "agent" already exists for function "open_tickets" in source: "default"' } });
    expect(await server.post('/v1/metadata', { type: 'pg_drop_function_permission', args: { function: 'close_ticket', role: 'agent' } })).toEqual({ status: 400, body: {
      path: '$.args', code: 'not-exists', error: 'permission of role "agent" does not exist for function "close_ticket" in source: "default"' } });
    // Nothing changed: the agent still sees open_tickets alone.
    expect((await fieldsOf('mutationType', asAgent)).map((f) => f.name)).toEqual(['open_tickets']);
  });

  it('refuses a function that is not VOLATILE as a mutation, in Hasura\'s words', async () => {
    const res = await server.post('/v1/metadata', { type: 'pg_track_function', args: { function: 'count_queue', configuration: { exposed_as: 'mutation' } } });
    const reason = 'Inconsistent object: in function "count_queue": the function "count_queue" cannot be tracked because the function was requested '
      + 'to be exposed as a mutation, but is not marked VOLATILE. Maybe the function was given the wrong volatility when it was defined?';
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ path: '$.args', code: 'invalid-configuration', error: reason, internal: [{ type: 'function', reason }] });
    const tracked = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    expect(tracked.sources[0].functions.map((f: { function: { name: string } }) => f.function.name).sort()).toEqual(['close_ticket', 'open_tickets', 'peek_queue']);
  });
});

describe('the root fields of a function', () => {
  it('refuses one name for the function and its aggregate when tracking and when customizing, and takes two', async () => {
    const duplicated = 'the following custom root field names are duplicated: "queue" and "queue"';
    const same = { custom_root_fields: { function: 'queue', function_aggregate: 'queue' } };
    expect(await server.post('/v1/metadata', { type: 'pg_track_function', args: { function: 'count_queue', configuration: same } }))
      .toEqual({ status: 400, body: { path: '$.args.configuration.custom_root_fields', code: 'parse-failed', error: duplicated } });
    // /v1/query reports argument parse errors relative to args.
    expect(await server.post('/v1/query', { type: 'track_function', version: 2, args: { function: 'count_queue', configuration: same } }))
      .toEqual({ status: 400, body: { path: '$.configuration.custom_root_fields', code: 'parse-failed', error: duplicated } });
    await server.ok('/v1/metadata', { type: 'pg_track_function', args: { function: 'count_queue', configuration: { custom_root_fields: { function: 'queue', function_aggregate: 'queue_stats' } } } });
    expect(await server.post('/v1/metadata', { type: 'pg_set_function_customization', args: { function: 'count_queue', configuration: same } }))
      .toEqual({ status: 400, body: { path: '$.args.configuration.custom_root_fields', code: 'parse-failed', error: duplicated } });
    expect((await gql('{ queue(args: {q: "sales"}) { queue } queue_stats(args: {q: "sales"}) { aggregate { count } } }')).data)
      .toEqual({ queue: [{ queue: 'sales' }], queue_stats: { aggregate: { count: 1 } } });
  });
});
