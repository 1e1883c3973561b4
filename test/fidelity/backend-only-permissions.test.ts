// backend_only permissions (Hasura v2, Note [Backend only permissions]): an insert, update or
// delete permission with `backend_only: true` gives its role's mutation fields only to a trusted
// request (the admin secret sent, or none configured) that sends
// `x-svc-use-backend-only-permissions: true`; any other request of the role does not see them
// (`field "..." not found in type: 'mutation_root'`, introspection without them). Permissions
// that are not backend only are the same in both schemas. The header is read as Hasura reads a
// boolean (Session.hs `parseStringAsBool`): a text that is not one refuses the request. Hasura
// builds a frontend and a backend schema per role (GraphQL/Schema.hs `buildRoleContext`) and
// picks one per request (`BOFAAllowed -> fromMaybe frontend backend`).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCommand } from '../../compiler/cli/compile.js';
import { serveCommand } from '../../compiler/cli/serve.js';
import { serveCatalog, type CatalogServer } from '../helpers/catalog-server.js';
import type { TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let db: TestDatabase;
let open: ServedDatabase;
let locked: CatalogServer;
const SECRET = 'backend-secret';

const SETUP = `
CREATE TABLE ledger (id serial PRIMARY KEY, account text NOT NULL, amount integer NOT NULL, audited boolean NOT NULL DEFAULT false);
CREATE TABLE memo (id serial PRIMARY KEY, ledger_id integer REFERENCES ledger(id), body text NOT NULL);
INSERT INTO ledger (account, amount) VALUES ('alpha', 10), ('beta', 20);
`;

const METADATA = [
  { type: 'pg_track_table', args: { table: 'ledger' } },
  { type: 'pg_track_table', args: { table: 'memo' } },
  { type: 'pg_create_array_relationship', args: { table: 'ledger', name: 'memos', using: { foreign_key_constraint_on: { table: 'memo', column: 'ledger_id' } } } },
  // `clerk`: every write of ledger is backend only; memo inserts are not.
  { type: 'pg_create_select_permission', args: { table: 'ledger', role: 'clerk', permission: { columns: '*', filter: {} } } },
  { type: 'pg_create_insert_permission', args: { table: 'ledger', role: 'clerk', permission: { check: {}, columns: ['account', 'amount'], set: { audited: 'true' }, backend_only: true } } },
  { type: 'pg_create_update_permission', args: { table: 'ledger', role: 'clerk', permission: { columns: ['amount'], filter: {}, backend_only: true } } },
  { type: 'pg_create_delete_permission', args: { table: 'ledger', role: 'clerk', permission: { filter: {}, backend_only: true } } },
  { type: 'pg_create_select_permission', args: { table: 'memo', role: 'clerk', permission: { columns: '*', filter: {} } } },
  { type: 'pg_create_insert_permission', args: { table: 'memo', role: 'clerk', permission: { check: {}, columns: '*', backend_only: false } } },
  // `guest`: no backend-only permission at all.
  { type: 'pg_create_select_permission', args: { table: 'ledger', role: 'guest', permission: { columns: ['id', 'account'], filter: {} } } },
  { type: 'pg_create_insert_permission', args: { table: 'ledger', role: 'guest', permission: { check: {}, columns: ['account', 'amount'] } } },
];

type Headers = Record<string, string>;
const gql = (s: CatalogServer, query: string, headers: Headers = {}) => postJson(s.url, '/v1/graphql', { query }, headers);
const clerk: Headers = { 'X-Svc-Role': 'clerk' };
const backend: Headers = { ...clerk, 'X-Svc-Use-Backend-Only-Permissions': 'true' };
const notFound = (field: string) => ({ errors: [{ message: `field "${field}" not found in type: 'mutation_root'`,
  extensions: { path: `$.selectionSet.${field}`, code: 'validation-failed' } }] });
const mutationFields = async (s: CatalogServer, headers: Headers): Promise<string[]> =>
  ((await gql(s, '{ __schema { mutationType { fields { name } } } }', headers)).body.data.__schema.mutationType?.fields ?? []).map((f: { name: string }) => f.name);
const inputFields = async (s: CatalogServer, type: string, headers: Headers): Promise<string[] | null> =>
  ((await gql(s, `{ __type(name: "${type}") { inputFields { name } } }`, headers)).body.data.__type?.inputFields ?? null)?.map((f: { name: string }) => f.name) ?? null;
const ledger = () => db.query('SELECT id, account, amount, audited FROM ledger ORDER BY id');

beforeAll(async () => {
  open = await serveDatabase('fidbackend', SETUP, { metadata: [{ type: 'bulk', args: METADATA }] });
  db = open.db;
  // The same catalog, served with an admin secret and an unauthorized role.
  locked = await serveCatalog(db.url, { adminSecret: SECRET, unauthorizedRole: 'clerk' });
});
afterAll(async () => {
  await locked?.close();
  await open?.close();
});

describe('backend_only permissions', () => {
  it('leaves the backend-only fields out of the client schema, and adds them for a trusted request with the header', async () => {
    const client = await mutationFields(open, clerk);
    expect(client).toEqual(['insert_memo', 'insert_memo_one']);
    const trusted = await mutationFields(open, backend);
    expect(trusted).toEqual(expect.arrayContaining(['insert_ledger', 'insert_ledger_one', 'update_ledger', 'update_ledger_by_pk',
      'update_ledger_many', 'delete_ledger', 'delete_ledger_by_pk', 'insert_memo', 'insert_memo_one']));
    // `false` in any case is the client schema again; the input types follow the root.
    expect(await mutationFields(open, { ...clerk, 'X-Svc-Use-Backend-Only-Permissions': 'FALSE' })).toEqual(client);
    expect(await inputFields(open, 'ledger_insert_input', clerk)).toBeNull();
    expect(await inputFields(open, 'ledger_insert_input', backend)).toEqual(expect.arrayContaining(['account', 'amount', 'memos']));
    expect(await inputFields(open, 'ledger_set_input', { ...clerk, 'X-Svc-Use-Backend-Only-Permissions': 'Y' })).toEqual(['amount']);
  });

  it('refuses each backend-only operation without the header, and changes nothing', async () => {
    const before = await ledger();
    expect((await gql(open, 'mutation { insert_ledger(objects: [{account: "gamma", amount: 1}]) { affected_rows } }', clerk)).body).toEqual(notFound('insert_ledger'));
    expect((await gql(open, 'mutation { update_ledger(where: {}, _set: {amount: 0}) { affected_rows } }', clerk)).body).toEqual(notFound('update_ledger'));
    expect((await gql(open, 'mutation { delete_ledger_by_pk(id: 1) { id } }', clerk)).body).toEqual(notFound('delete_ledger_by_pk'));
    expect(await ledger()).toEqual(before);
  });

  it('runs insert (with its preset), update and delete for a trusted request with the header, the same text planned apart', async () => {
    const insert = 'mutation { insert_ledger_one(object: {account: "gamma", amount: 5, memos: {data: [{body: "opening"}]}}) { account audited memos { body } } }';
    // The same text without the header first: a plan made for one schema never serves the other.
    expect((await gql(open, insert, clerk)).body).toEqual(notFound('insert_ledger_one'));
    expect((await gql(open, insert, backend)).body).toEqual({ data: { insert_ledger_one: { account: 'gamma', audited: true, memos: [{ body: 'opening' }] } } });
    expect((await gql(open, insert, clerk)).body).toEqual(notFound('insert_ledger_one'));
    const update = 'mutation { update_ledger(where: {account: {_eq: "alpha"}}, _set: {amount: 11}) { affected_rows } }';
    expect((await gql(open, update, { ...clerk, 'X-Svc-Use-Backend-Only-Permissions': 'yes' })).body).toEqual({ data: { update_ledger: { affected_rows: 1 } } });
    const remove = 'mutation { delete_ledger(where: {account: {_eq: "beta"}}) { affected_rows } }';
    expect((await gql(open, remove, { ...clerk, 'X-Svc-Use-Backend-Only-Permissions': 't' })).body).toEqual({ data: { delete_ledger: { affected_rows: 1 } } });
    expect((await ledger()).map((r) => [r['account'], r['amount'], r['audited']]))
      .toEqual([['alpha', 11, false], ['gamma', 5, true]]);
  });

  it('keeps a permission that is not backend only in both schemas', async () => {
    const memo = 'mutation { insert_memo(objects: [{body: "note"}]) { affected_rows } }';
    expect((await gql(open, memo, clerk)).body).toEqual({ data: { insert_memo: { affected_rows: 1 } } });
    expect((await gql(open, memo, backend)).body).toEqual({ data: { insert_memo: { affected_rows: 1 } } });
    // A role with no backend-only permission has one schema: the header changes nothing.
    const guest = { 'X-Svc-Role': 'guest' };
    expect(await mutationFields(open, { ...guest, 'X-Svc-Use-Backend-Only-Permissions': 'true' })).toEqual(await mutationFields(open, guest));
    expect((await gql(open, 'mutation { insert_ledger(objects: [{account: "delta", amount: 2}]) { affected_rows } }',
      { ...guest, 'X-Svc-Use-Backend-Only-Permissions': 'true' })).body).toEqual({ data: { insert_ledger: { affected_rows: 1 } } });
  });

  it('refuses a header that is not a boolean text, before anything runs', async () => {
    const before = await ledger();
    const res = await gql(open, 'mutation { insert_memo(objects: [{body: "x"}]) { affected_rows } }', { ...clerk, 'X-Svc-Use-Backend-Only-Permissions': 'random' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ errors: [{ extensions: { path: '$', code: 'bad-request' },
      message: 'x-svc-use-backend-only-permissions:  Not a valid boolean text. True values are ["true","t","yes","y"] and  False values are ["false","f","no","n"]. All values are case insensitive' }] });
    expect(await ledger()).toEqual(before);
    expect(await db.query('SELECT count(*)::int AS n FROM memo WHERE body = \'x\'')).toEqual([{ n: 0 }]);
  });

  it('with an admin secret configured, gives the fields only to requests that send it', async () => {
    const query = 'mutation { update_ledger_by_pk(pk_columns: {id: 1}, _set: {amount: 12}) { amount } }';
    expect((await gql(locked, query, { ...backend, 'X-Svc-Admin-Secret': SECRET })).body).toEqual({ data: { update_ledger_by_pk: { amount: 12 } } });
    // The unauthorized role (no secret sent) is not trusted: the header is not even read.
    expect((await gql(locked, query, { 'X-Svc-Use-Backend-Only-Permissions': 'true' })).body).toEqual(notFound('update_ledger_by_pk'));
    expect((await gql(locked, query, { 'X-Svc-Use-Backend-Only-Permissions': 'random' })).body).toEqual(notFound('update_ledger_by_pk'));
    expect(await mutationFields(locked, { 'X-Svc-Use-Backend-Only-Permissions': 'true' })).toEqual(['insert_memo', 'insert_memo_one']);
    expect((await ledger())[0]).toMatchObject({ account: 'alpha', amount: 12 });
  });
});

describe('backend_only permissions on the Relay API', () => {
  // The Relay API serves a role's client schema: its backend-only mutations are refused there
  // without the header (and not offered with it either), and nothing is written.
  it('refuses a backend-only mutation on /v1beta1/relay and changes nothing', async () => {
    const before = await ledger();
    for (const headers of [clerk, backend]) {
      const r = await postJson(open.url, '/v1beta1/relay', { query: 'mutation { insert_ledger(objects: [{account: "relay", amount: 1}]) { affected_rows } }' }, headers);
      expect(r.body.errors[0].extensions.code).toBe('validation-failed');
      expect(r.body.errors[0].message).toBe(`field "insert_ledger" not found in type: 'mutation_root'`);
    }
    expect(await ledger()).toEqual(before);
    // The role's other mutation is served there.
    const memo = await postJson(open.url, '/v1beta1/relay', { query: 'mutation { insert_memo(objects: [{body: "m"}]) { affected_rows } }' }, clerk);
    expect(memo.body).toEqual({ data: { insert_memo: { affected_rows: 1 } } });
  });
});

describe('backend_only permissions in a compiled bundle', () => {
  it('serves the trusted schema from the bundle, with its own plans', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'kiln-backend-only-'));
    const exported = (await open.ok('/v1/metadata', { type: 'export_metadata', args: {} })) as { sources: { configuration: unknown }[] };
    exported.sources[0]!.configuration = { connection_info: { database_url: db.url } };
    await writeFile(join(tmp, 'md.json'), JSON.stringify(exported));
    await compileCommand({ metadata: join(tmp, 'md.json'), databaseUrl: db.url, out: join(tmp, 'dist'), quiet: true });
    const served = await serveCommand({ bundle: join(tmp, 'dist'), databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1',
      pgConnections: 2, stringifyNumericTypes: false, console: false });
    try {
      const bundled = { url: `http://127.0.0.1:${served.port}` } as CatalogServer;
      const query = 'mutation { insert_ledger(objects: [{account: "epsilon", amount: 3}]) { returning { audited } } }';
      expect((await gql(bundled, query, clerk)).body).toEqual(notFound('insert_ledger'));
      expect((await gql(bundled, query, backend)).body).toEqual({ data: { insert_ledger: { returning: [{ audited: true }] } } });
      expect(await mutationFields(bundled, clerk)).toEqual(['insert_memo', 'insert_memo_one']);
    } finally {
      await served.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
