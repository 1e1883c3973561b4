// A remote schema permission's document is checked against the remote as Hasura checks it
// (RQL/DDL/RemoteSchema/Permission.hs): add_remote_schema_permissions answers 400
// `invalid-role-based-remote-schema` at `$.args` with Hasura's reasons (one: "because ...",
// several: a bulleted list, all of them at once) and adds nothing; replace_metadata with
// inconsistencies allowed lists the permission with the same reason.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

const SDL = `
  type Query { ship(code: String!, fleet: Int): Ship  fleets(kind: Hull = FRIGATE, near: Spot): [String!]  ping: String }
  enum Hull { FRIGATE CARRIER }
  input Spot { lat: Float!  lon: Float! }
  union Cargo = Crate | Barrel
  type Crate { weight: Int }
  type Barrel { litres: Int }
  type Ship { code: String!  crew: Int  load: [Cargo!] }`;

describe('remote schema permission documents judged in Hasura\'s words', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const before = process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);
  const permit = (role: string, schema: string) => md('add_remote_schema_permissions', { remote_schema: 'harbour', role, definition: { schema } });
  const refused = (error: string) => ({ status: 400, body: { path: '$.args', code: 'invalid-role-based-remote-schema', error } });

  beforeAll(async () => {
    process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = 'true';
    server = await serveDatabase('fidrperm', 'SELECT 1;');
    remote = await startRemote(SDL, { ping: () => 'pong', ship: ({ code }: { code: string }) => ({ code, crew: 12 }) });
    expect((await md('add_remote_schema', { name: 'harbour', definition: { url: remote.url } })).status).toBe(200);
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS;
    else process.env.SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS = before;
    await server?.close();
    await remote?.close();
  });

  it('names one reason after "because"', async () => {
    expect(await permit('deckhand', 'type Query { ship(fleet: Int): Ship }\ntype Ship { code: String! }'))
      .toEqual(refused('validation for the given role-based schema failed because field: "ship" expects the following non nullable arguments to be present: "code"'));
  });

  it('lists every reason at once, types before objects, in the document\'s order', async () => {
    const doc = `
      enum Hull { FRIGATE SUBMARINE }
      union Cargo = Crate | Tank
      interface Named { code: String! }
      input Spot { lat: Float  lon: Float! = 0 }
      type Ship implements Named { code: String  crew: Int  speed: Int }
      type Query { ship(code: String!, fleet: Float): Ship  dock: String }
      type Crate { weight: Int }`;
    const r = await permit('deckhand', doc);
    expect(r).toEqual(refused('validation for the given role-based schema failed for the following reasons:\n'
      + ' • enum "Hull" contains the following enum values that do not exist in the corresponding upstream remote enum: "SUBMARINE"\n'
      + ' • "Interface": "Named" does not exist in the upstream remote schema\n'
      + ' • union "Cargo" contains members which do not exist in the members of the remote schema union :"Tank"\n'
      + ' • field: "Spot" expects the following non nullable arguments to be present: "lat"\n'
      + ' • expected type of "lat"("Input object argument") to be Float but recieved Float!\n'
      + ' • expected default value of input value: "lon"of input object "Spot" to be null but recieved 0\n'
      + ' • custom interfaces are not supported. Object"Ship" implements the following custom interfaces: "Named"\n'
      + ' • expected type of "code"("Object field") to be String! but recieved String\n'
      + ' • field "speed" does not exist in the "Object": "Ship"\n'
      + ' • expected type of "fleet"("Input object argument") to be Float but recieved Int\n'
      + ' • field "dock" does not exist in the "Object": "Query"\n'));
  });

  it('refuses types the remote does not have, and a directive it does not know', async () => {
    const r = await permit('deckhand', 'scalar Knots\ntype Query { ping: String @deprecated }\ntype Port { name: String }');
    expect(r).toEqual(refused('validation for the given role-based schema failed for the following reasons:\n'
      + ' • scalar "Knots" does not exist in the upstream remote schema\n'
      + ' • "Directive": "deprecated" does not exist in the upstream remote schema\n'
      + ' • "Object": "Port" does not exist in the upstream remote schema\n'));
  });

  it('adds nothing when it refuses, and takes a document that fits', async () => {
    const exported = async () => (await md('export_metadata', {})).body.remote_schemas;
    const before = await exported();
    expect((await permit('deckhand', 'type Query { pier: String }')).status).toBe(400);
    expect(await exported()).toEqual(before);
    expect(await permit('deckhand', 'type Query { ship(code: String!): Ship }\ntype Ship { code: String! crew: Int }')).toEqual({ status: 200, body: { message: 'success' } });
    expect((await md('drop_remote_schema_permissions', { remote_schema: 'harbour', role: 'deckhand' })).status).toBe(200);
  });

  it('lists the same reason for a permission replace_metadata brings in', async () => {
    const current = (await md('export_metadata', {})).body;
    const next = { ...current, remote_schemas: current.remote_schemas.map((rs: Record<string, unknown>) => ({ ...rs,
      permissions: [{ role: 'purser', definition: { schema: 'type Query { ping: Int }' } }] })) };
    const r = await md('replace_metadata', { allow_inconsistent_metadata: true, metadata: next }, { version: 2 });
    expect(r.status).toBe(200);
    expect(r.body.is_consistent).toBe(false);
    expect(r.body.inconsistent_objects.map((o: { type: string; reason: string }) => [o.type, o.reason])).toEqual([['remote_schema_permission',
      'validation for the given role-based schema failed because expected type of "ping"("Object field") to be String but recieved Int']]);
    expect((await md('replace_metadata', current)).status).toBe(200);
  });
});
