// Synchronous query and mutation actions against a real handler on 127.0.0.1 (reference/actions.md
// §2, §3, §5): the payload and headers the handler receives, the output cut to the selection,
// relationships read under the role's permission, every error path of the answer, the timeout,
// and what dropping an action or a permission does to the schema.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { startHandler, type HandlerServer } from './handler-server.js';

describe('synchronous actions', () => {
  let db: TestDatabase;
  let handler: HandlerServer;
  let server: { port: number; close(): Promise<void> };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> =>
    postJson(`http://127.0.0.1:${server.port}`, path, body, headers);
  const md = (type: string, args: unknown): Promise<{ status: number; body: any }> => post('/v1/metadata', { type, args });
  const gql = (query: string, headers: Record<string, string> = {}, variables?: unknown) => post('/v1/graphql', { query, variables }, headers);
  const asUser = { 'x-svc-role': 'user', 'x-svc-user-id': '7' };

  beforeAll(async () => {
    handler = await startHandler();
    process.env['KILN_TEST_ACTIONS_BASE'] = handler.base;
    process.env['KILN_TEST_ACTION_SECRET'] = 's3cret';
    db = await createTestDatabase('actions_sync', `CREATE TABLE account (id int PRIMARY KEY, name text NOT NULL, level int NOT NULL);
      INSERT INTO account VALUES (1, 'alice', 1), (2, 'bob', 9), (3, 'carol', 2);
      CREATE TABLE note (id int PRIMARY KEY, account_id int NOT NULL, body text NOT NULL);
      INSERT INTO note VALUES (10, 1, 'a1'), (11, 1, 'a2'), (12, 2, 'b1');`);
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false });
    for (const table of ['account', 'note']) expect((await md('pg_track_table', { table })).status).toBe(200);
    expect((await md('pg_create_select_permission', { table: 'account', role: 'user', permission: { columns: ['id', 'name'], filter: { level: { _lt: 5 } } } })).status).toBe(200);
    expect((await md('pg_create_select_permission', { table: 'note', role: 'user', permission: { columns: ['id', 'body'], filter: {} } })).status).toBe(200);
    expect((await md('set_custom_types', {
      scalars: [{ name: 'Blob' }],
      enums: [{ name: 'Kind', values: [{ value: 'BASIC' }, { value: 'GOLD' }] }],
      input_objects: [{ name: 'NewUser', fields: [{ name: 'name', type: 'String!' }, { name: 'kind', type: 'Kind' }] }],
      objects: [
        { name: 'UserOut', fields: [{ name: 'id', type: 'Int!' }, { name: 'name', type: 'String' }, { name: 'account_id', type: 'Int' }, { name: 'meta', type: 'Meta' },
          { name: 'kind', type: 'Kind' }, { name: 'flag', type: 'Boolean' }, { name: 'blob', type: 'Blob' }, { name: 'score', type: 'Float' }],
          relationships: [{ name: 'account', type: 'object', remote_table: 'account', field_mapping: { account_id: 'id' } },
            { name: 'notes', type: 'array', remote_table: 'note', field_mapping: { account_id: 'account_id' } }] },
        { name: 'Meta', fields: [{ name: 'tag', type: 'String!' }] },
      ],
    })).status).toBe(200);
    const action = (name: string, path: string, extra: object = {}) => md('create_action', { name, definition: {
      handler: `{{KILN_TEST_ACTIONS_BASE}}${path}`, output_type: 'UserOut', arguments: [{ name: 'user', type: 'NewUser!' }], ...extra } });
    expect((await action('create_user', '/create-user', { headers: [{ name: 'x-static', value: 'v' }, { name: 'x-env', value_from_env: 'KILN_TEST_ACTION_SECRET' }], forward_client_headers: true })).status).toBe(200);
    expect((await md('create_action', { name: 'find_users', definition: { type: 'query', handler: '{{KILN_TEST_ACTIONS_BASE}}/find-users', output_type: '[UserOut!]!',
      arguments: [{ name: 'ids', type: '[Int!]!' }] } })).status).toBe(200);
    expect((await md('create_action', { name: 'probe', definition: { type: 'query', handler: '{{KILN_TEST_ACTIONS_BASE}}/probe', output_type: 'UserOut', timeout: 1,
      arguments: [{ name: 'kind', type: 'String!' }] } })).status).toBe(200);
    for (const a of ['create_user', 'find_users', 'probe']) expect((await md('create_action_permission', { action: a, role: 'user' })).status).toBe(200);
    handler.route('/create-user', (b) => ({ body: { id: 41, name: b.input.user.name, account_id: 1, meta: { tag: b.input.user.kind ?? 'none', unused: 1 }, extra: 'ignored' } }));
    handler.route('/find-users', (b) => ({ body: b.input.ids.map((id: number) => ({ id, name: `u${id}`, account_id: id })) }));
    const probes: Record<string, { status?: number; body: unknown; raw?: boolean; delayMs?: number }> = {
      ok: { body: { id: 1 } },
      client: { status: 400, body: { message: 'invalid credentials', extensions: { code: 'bad-login', hint: 'retry' } } },
      plain: { status: 422, body: { message: 'not allowed' } },
      coded: { status: 409, body: { message: 'taken', code: 'conflict-x' } },
      server: { status: 500, body: { message: 'boom' } },
      notjson: { body: 'hello there', raw: true },
      scalar: { body: 'some-string' },
      array: { body: [{ id: 1 }] },
      missing: { body: { name: 'x' } },
      nullid: { body: { id: null } },
      nested: { body: { id: 1, meta: { other: 1 } } },
      wrongint: { body: { id: 'one' } },
      floatint: { body: { id: 1.5 } },
      bigint: { body: { id: 2 ** 31 } },
      numstring: { body: { id: 1, name: 5 } },
      strbool: { body: { id: 1, flag: 'yes' } },
      badenum: { body: { id: 1, kind: 'SILVER' } },
      numenum: { body: { id: 1, kind: 1 } },
      strobject: { body: { id: 1, meta: 'x' } },
      listobject: { body: { id: 1, meta: [{ tag: 'a' }] } },
      intfloat: { body: { id: 1, score: 'high' } },
      fits: { body: { id: 3, name: 'n', kind: 'GOLD', flag: false, score: 2, blob: { any: [1, 'x', null] }, meta: { tag: 't' } } },
      blobscalar: { body: { id: 4, blob: 'just text' } },
      slow: { body: { id: 1 }, delayMs: 2500 },
    };
    handler.route('/probe', (b) => probes[b.input.kind] ?? { status: 404, body: { message: 'unknown probe' } });
  });
  afterAll(async () => {
    await server?.close();
    await handler?.close();
    await db?.drop();
  });

  it('calls the handler with the payload, configured and forwarded headers, and answers only the fields asked', async () => {
    handler.received.length = 0;
    const query = 'mutation { u: create_user(user: {name: "Ann", kind: GOLD}) { __typename id meta { tag } } }';
    const r = await gql(query, { ...asUser, 'x-custom': 'fwd' });
    expect(r.body).toEqual({ data: { u: { __typename: 'UserOut', id: 41, meta: { tag: 'GOLD' } } } });
    const call = handler.received[0]!;
    expect(call.body).toEqual({ action: { name: 'create_user' }, input: { user: { name: 'Ann', kind: 'GOLD' } },
      session_variables: { 'x-svc-role': 'user', 'x-svc-user-id': '7' }, request_query: query });
    expect(call.headers['x-static']).toBe('v');
    expect(call.headers['x-env']).toBe('s3cret');
    expect(call.headers['x-custom']).toBe('fwd');
    expect(call.headers['content-type']).toBe('application/json');
  });

  it('takes the input from variables', async () => {
    handler.received.length = 0;
    const r = await gql('mutation ($u: NewUser!) { create_user(user: $u) { name } }', {}, { u: { name: 'Vic' } });
    expect(r.body).toEqual({ data: { create_user: { name: 'Vic' } } });
    expect(handler.received[0]!.body.input).toEqual({ user: { name: 'Vic' } });
    expect(handler.received[0]!.body.session_variables).toEqual({ 'x-svc-role': 'admin' });
  });

  it('reads relationships to tables with the role\'s permission, a hidden row as null', async () => {
    const q = '{ find_users(ids: [1, 2]) { id account { name } notes(order_by: {id: asc}) { body } } }';
    const user = await gql(q, asUser);
    expect(user.body).toEqual({ data: { find_users: [
      { id: 1, account: { name: 'alice' }, notes: [{ body: 'a1' }, { body: 'a2' }] },
      { id: 2, account: null, notes: [{ body: 'b1' }] },
    ] } });
    const admin = await gql(q);
    expect(admin.body.data.find_users[1].account).toEqual({ name: 'bob' });
  });

  it('runs table fields and action fields of one operation together, in order', async () => {
    const r = await gql('{ a: account(where: {id: {_eq: 3}}) { name } p: probe(kind: "ok") { id } __typename }', asUser);
    expect(r.body).toEqual({ data: { a: [{ name: 'carol' }], p: { id: 1 }, __typename: 'query_root' } });
  });

  const probe = (kind: string, headers: Record<string, string> = {}) => gql(`{ probe(kind: "${kind}") { id name meta { tag } } }`, headers);

  it('passes a 4xx error through: the handler\'s extensions as sent, else its code or unexpected', async () => {
    expect((await probe('client')).body).toEqual({ errors: [{ message: 'invalid credentials', extensions: { code: 'bad-login', hint: 'retry' } }] });
    expect((await probe('plain')).body).toEqual({ errors: [{ message: 'not allowed', extensions: { path: '$', code: 'unexpected' } }] });
    expect((await probe('coded')).body).toEqual({ errors: [{ message: 'taken', extensions: { path: '$', code: 'conflict-x' } }] });
  });

  it('answers other statuses and bad bodies with unexpected, the internal details for admin only', async () => {
    const admin = await probe('server');
    expect(admin.body.errors[0]).toMatchObject({ message: 'internal error', extensions: { path: '$', code: 'unexpected',
      internal: { error: 'expecting 2xx or 4xx status code, but found 500', response: { status: 500, body: { message: 'boom' } },
        request: { url: '{{KILN_TEST_ACTIONS_BASE}}/probe', body: { action: { name: 'probe' } } } } } });
    const user = await probe('server', asUser);
    expect(user.body).toEqual({ errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }] });
    expect((await probe('notjson')).body.errors[0]).toMatchObject({ message: 'not a valid json response from webhook',
      extensions: { code: 'unexpected', internal: { response: { body: 'hello there' } } } });
  });

  it('checks a 2xx answer against the output type', async () => {
    const message = async (kind: string) => (await probe(kind)).body.errors[0].message;
    expect(await message('scalar')).toBe('got scalar String for the action webhook response, expecting UserOut');
    expect(await message('array')).toBe('got array for the action webhook response, might want to check the action return type defined!');
    expect(await message('missing')).toBe('field "id" expected in webhook response, but not found');
    expect(await message('nullid')).toBe('expecting not null value for field "id"');
    expect(await message('nested')).toBe('field "tag" expected in webhook response, but not found');
    expect(await message('wrongint')).toBe('got scalar String for field "id" of the action webhook response, expecting Int');
    const list = await gql('{ find_users(ids: []) { id } }');
    expect(list.body).toEqual({ data: { find_users: [] } });
  });

  it('checks every field\'s value against its type, naming the field; custom scalars take any JSON', async () => {
    const all = (kind: string, headers: Record<string, string> = {}) => gql(`{ probe(kind: "${kind}") { id name kind flag score blob meta { tag } } }`, headers);
    const message = async (kind: string) => (await all(kind)).body.errors?.[0].message;
    expect(await message('floatint')).toBe('got scalar Number for field "id" of the action webhook response, expecting Int');
    expect(await message('bigint')).toBe('got scalar Number for field "id" of the action webhook response, expecting Int');
    expect(await message('numstring')).toBe('got scalar Number for field "name" of the action webhook response, expecting String');
    expect(await message('strbool')).toBe('got scalar String for field "flag" of the action webhook response, expecting Boolean');
    expect(await message('intfloat')).toBe('got scalar String for field "score" of the action webhook response, expecting Float');
    expect(await message('badenum')).toBe('got "SILVER" for field "kind" of the action webhook response, expecting a value of enum Kind');
    expect(await message('numenum')).toBe('got scalar Number for field "kind" of the action webhook response, expecting a value of enum Kind');
    expect(await message('strobject')).toBe('got scalar String for field "meta" of the action webhook response, expecting Meta');
    expect(await message('listobject')).toBe('got array for field "meta" of the action webhook response, expecting Meta');
    // The code is unexpected; the answer is in internal, for admin only.
    const user = await all('badenum', asUser);
    expect(user.body).toEqual({ errors: [{ message: 'got "SILVER" for field "kind" of the action webhook response, expecting a value of enum Kind', extensions: { path: '$', code: 'unexpected' } }] });
    expect((await all('badenum')).body.errors[0].extensions.internal.response.body).toEqual({ id: 1, kind: 'SILVER' });
    expect((await all('fits')).body).toEqual({ data: { probe: { id: 3, name: 'n', kind: 'GOLD', flag: false, score: 2, blob: { any: [1, 'x', null] }, meta: { tag: 't' } } } });
    expect((await all('blobscalar')).body.data.probe.blob).toBe('just text');
    // A non-null field is required even when the selection does not ask for it.
    expect((await gql('{ probe(kind: "missing") { name } }')).body.errors[0].message).toBe('field "id" expected in webhook response, but not found');
    expect((await gql('{ probe(kind: "nullid") { name } }')).body.errors[0].message).toBe('expecting not null value for field "id"');
  });

  it('checks a scalar output type with Hasura\'s top-level wording', async () => {
    const answers: Record<string, unknown> = { ok: 7, text: 'x', float: 7.5, object: { n: 1 }, none: null };
    handler.route('/count', (b) => ({ body: answers[b.input.kind] }));
    expect((await md('create_action', { name: 'count_it', definition: { type: 'query', handler: '{{KILN_TEST_ACTIONS_BASE}}/count', output_type: 'Int!',
      arguments: [{ name: 'kind', type: 'String!' }] } })).status).toBe(200);
    const run = async (kind: string) => (await gql(`{ count_it(kind: "${kind}") }`)).body;
    expect(await run('ok')).toEqual({ data: { count_it: 7 } });
    expect((await run('text')).errors[0].message).toBe('got scalar String for the action webhook response, expecting Int');
    expect((await run('float')).errors[0].message).toBe('got scalar Number for the action webhook response, expecting Int');
    expect((await run('object')).errors[0].message).toBe('got object for the action webhook response, might want to check the action return type defined!');
    expect((await run('none')).errors[0].message).toBe('got null for the action webhook response');
    expect((await md('drop_action', { name: 'count_it' })).status).toBe(200);
  });

  it('runs a mutation mixing actions and table fields in order, the action outside the fields\' transactions', async () => {
    handler.route('/count-notes', async (b) => {
      if (b.input.note < 0) return { status: 400, body: { message: 'refused' } };
      const rows = await db.query<{ n: string }>('SELECT count(*) AS n FROM note WHERE id = $1', [b.input.note]);
      return { body: { id: Number(rows[0]!.n) } };
    });
    expect((await md('create_action', { name: 'count_notes', definition: { type: 'mutation', handler: '{{KILN_TEST_ACTIONS_BASE}}/count-notes', output_type: 'UserOut',
      arguments: [{ name: 'note', type: 'Int!' }] } })).status).toBe(200);
    // The action sees the row the field before it wrote (committed), and the field after it runs after it.
    const r = await gql(`mutation { ins: insert_note_one(object: {id: 20, account_id: 1, body: "x"}) { id }
      seen: count_notes(note: 20) { id } del: delete_note(where: {id: {_eq: 20}}) { affected_rows } after: count_notes(note: 20) { id } }`);
    expect(r.body).toEqual({ data: { ins: { id: 20 }, seen: { id: 1 }, del: { affected_rows: 1 }, after: { id: 0 } } });
    // A failing action ends the mutation: what ran before it stays, what follows does not run.
    const failed = await gql(`mutation { a: insert_note_one(object: {id: 21, account_id: 1, body: "y"}) { id }
      no: count_notes(note: -1) { id } b: insert_note_one(object: {id: 22, account_id: 1, body: "z"}) { id } }`);
    expect(failed.body).toEqual({ errors: [{ message: 'refused', extensions: { path: '$', code: 'unexpected' } }] });
    expect((await db.query<{ id: number }>('SELECT id FROM note WHERE id IN (21, 22) ORDER BY id')).map((x) => x.id)).toEqual([21]);
    // A failing table field ends it too: the action after it is not called.
    handler.received.length = 0;
    const dup = await gql('mutation { a: insert_note_one(object: {id: 21, account_id: 1, body: "y"}) { id } c: count_notes(note: 21) { id } }');
    expect(dup.body.errors[0].extensions.code).toBe('constraint-violation');
    expect(dup.body.data).toBeUndefined();
    expect(handler.received.filter((x) => x.path === '/count-notes')).toEqual([]);
    await db.exec('DELETE FROM note WHERE id = 21');
    expect((await md('drop_action', { name: 'count_notes' })).status).toBe(200);
  });

  it('gives up on a handler slower than the action timeout', async () => {
    const started = Date.now();
    const r = await probe('slow');
    expect(Date.now() - started).toBeLessThan(2400);
    expect(r.body.errors[0]).toMatchObject({ message: 'http exception when calling webhook', extensions: { code: 'unexpected', internal: { error: { type: 'http_exception', message: 'Response timeout' } } } });
  });

  it('applies the action\'s request and response transforms', async () => {
    handler.route('/t?via=kriti', (b) => ({ body: { val: b.n * 2, label: b.who } }));
    expect((await md('create_action', { name: 'twice', definition: { type: 'query', handler: '{{KILN_TEST_ACTIONS_BASE}}', output_type: 'UserOut',
      arguments: [{ name: 'n', type: 'Int!' }],
      request_transform: { version: 2, template_engine: 'Kriti', method: 'PUT', url: '{{$base_url}}/t', query_params: { via: 'kriti' },
        body: { action: 'transform', template: '{"n": {{$body.input.n}}, "who": {{$session_variables?[\'x-svc-role\']}}}' },
        request_headers: { add_headers: { 'x-transformed': 'yes' }, remove_headers: [] } },
      response_transform: { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{"id": {{$body.val}}, "name": {{$body.label}}}' } } } })).status).toBe(200);
    handler.received.length = 0;
    const r = await gql('{ twice(n: 21) { id name } }');
    expect(r.body).toEqual({ data: { twice: { id: 42, name: 'admin' } } });
    expect(handler.received[0]).toMatchObject({ method: 'PUT', path: '/t?via=kriti', body: { n: 21, who: 'admin' } });
    expect(handler.received[0]!.headers['x-transformed']).toBe('yes');
  });

  it('gives an inherited role the actions of its parents', async () => {
    // Every parent must be a role the metadata grants something (Hasura's resolveInheritedRole).
    expect((await md('pg_create_select_permission', { table: 'note', role: 'guest', permission: { columns: ['id'], filter: {} } })).status).toBe(200);
    expect((await md('add_inherited_role', { role_name: 'combo', role_set: ['user', 'guest'] })).status).toBe(200);
    const r = await gql('{ find_users(ids: [3]) { id account { name } } }', { 'x-svc-role': 'combo', 'x-svc-user-id': '7' });
    expect(r.body).toEqual({ data: { find_users: [{ id: 3, account: { name: 'carol' } }] } });
  });

  it('shows an action only to roles granted it; a dropped permission or action leaves the schema', async () => {
    const other = await gql('{ probe(kind: "ok") { id } }', { 'x-svc-role': 'other' });
    expect(other.body.errors[0].message).toBe('field "probe" not found in type: \'query_root\'');
    expect((await md('drop_action_permission', { action: 'probe', role: 'user' })).status).toBe(200);
    expect((await probe('ok', asUser)).body.errors[0].message).toBe('field "probe" not found in type: \'query_root\'');
    expect((await md('drop_action', { name: 'probe' })).status).toBe(200);
    expect((await probe('ok')).body.errors[0].message).toBe('field "probe" not found in type: \'query_root\'');
    const types = await gql('{ __schema { queryType { fields { name } } } }');
    expect(types.body.data.__schema.queryType.fields.map((f: any) => f.name)).toContain('find_users');
    expect(types.body.data.__schema.queryType.fields.map((f: any) => f.name)).not.toContain('probe');
  });
});
