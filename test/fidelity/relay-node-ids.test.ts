// Relay node ids are read as Hasura v2 reads them (GraphQL/Schema/Relay.hs: `nodeField`, the
// `NodeId` FromJSON instance): an id that is not base64 JSON, not an array, without a version
// number, of an unknown version, too short, or naming a table the role does not read is refused at
// the `id` argument ("the node id is invalid: ..."); a key with too few or too many values is
// refused at the field; a key value of the wrong JSON kind is `parse-failed` there. Literal ids
// and variables alike; nothing else in the request runs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

let server: ServedDatabase;
const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> => (await server.post(path, body, headers)).body;
const deck = { 'x-svc-role': 'deck' };

beforeAll(async () => {
  server = await serveDatabase('fidrelayids', `CREATE TABLE ship (code text PRIMARY KEY, name text);
    INSERT INTO ship VALUES ('ARG', 'Argo'), ('NAU', 'Nautilus');
    CREATE TABLE crew (ship text REFERENCES ship, seat int, sailor text, PRIMARY KEY (ship, seat));
    INSERT INTO crew VALUES ('ARG', 1, 'Jason'), ('ARG', 2, 'Orpheus');`);
  const setup = await post('/v1/metadata', { type: 'bulk', args: [
    { type: 'pg_track_table', args: { table: 'ship' } },
    { type: 'pg_track_table', args: { table: 'crew' } },
    { type: 'pg_create_select_permission', args: { table: 'ship', role: 'deck', permission: { columns: ['code', 'name'], filter: {} } } },
  ] });
  expect(setup).toHaveLength(3);
}, 60_000);
afterAll(() => server?.close());

const node = (id: string, headers: Record<string, string> = {}, alias = '') =>
  post('/v1beta1/relay', { query: `query ($id: ID!) { ${alias}node(id: $id) { __typename ... on ship { name } ... on crew { sailor } } }`, variables: { id } }, headers);
const refused = (message: string, path: string, code = 'validation-failed') => ({ errors: [{ message, extensions: { path, code } }] });
const atId = '$.selectionSet.node.args.id';

describe('node ids that cannot be read', () => {
  it('refuses what is not a JSON array, in aeson\'s words, at the id', async () => {
    const notJson = await node('!!not json!!');
    expect(notJson.errors[0].extensions).toEqual({ path: atId, code: 'validation-failed' });
    expect(notJson.errors[0].message).toMatch(/^the node id is invalid: Error in \$: Failed reading: not a valid json value at '/);
    expect(await node(b64('{"ship": "ARG"}'))).toEqual(refused('the node id is invalid: Error in $: parsing [] failed, expected Array, but encountered Object', atId));
    expect(await node(b64('"ARG"'))).toEqual(refused('the node id is invalid: Error in $: parsing [] failed, expected Array, but encountered String', atId));
  });

  it('refuses an array without a known version and enough names', async () => {
    expect(await node(b64('[]'))).toEqual(refused('the node id is invalid: Error in $: unexpected GUID format, found empty list', atId));
    expect(await node(b64('["1", "public", "ship", "ARG"]'))).toEqual(refused('the node id is invalid: Error in $: unexpected GUID format, needs to start with a version number', atId));
    expect(await node(b64('[3, "public", "ship", "ARG"]'))).toEqual(refused('the node id is invalid: Error in $: unsupported GUID version: 3.0', atId));
    // Version 1 is the only one: the later `[2, source, ...]` form is refused too.
    expect(await node(b64('[2, "default", "public", "ship", "ARG"]'))).toEqual(refused('the node id is invalid: Error in $: unsupported GUID version: 2.0', atId));
    expect(await node(b64('[1, "public", "ship"]'))).toEqual(refused('the node id is invalid: Error in $: GUID version 1: expecting schema name, table name and at least one column value', atId));
    expect(await node(b64('[1, "public", 7, "ARG"]'))).toEqual(refused('the node id is invalid: Error in $: parsing Text failed, expected String, but encountered Number', atId));
  });

  it('refuses a table the role does not read, naming the id', async () => {
    const id = b64('[1, "public", "crew", "ARG", 1]');
    expect(await node(id, deck)).toEqual(refused(`the node id is invalid: the table "${id}"`, atId));
    expect(await node(b64('[1, "public", "galley", 1]'))).toEqual(refused(`the node id is invalid: the table "${b64('[1, "public", "galley", 1]')}"`, atId));
  });
});

describe('node ids whose key does not fit the table', () => {
  it('refuses missing and extra key values at the field, under its alias', async () => {
    expect(await node(b64('[1, "public", "crew", "ARG"]'))).toEqual(refused('the node id is invalid: primary key columns "seat" are missing', '$.selectionSet.node'));
    expect(await node(b64('[1, "public", "ship", "ARG", 7, "x"]'), deck, 'n: ')).toEqual(refused('the node id is invalid: unexpected column values [7,"x"]', '$.selectionSet.n'));
  });

  it('refuses a text key given as another kind of value, as parse-failed', async () => {
    expect(await node(b64('[1, "public", "ship", 12]'), deck)).toEqual(refused("value of column 'code' in node id: parsing Text failed, expected String, but encountered Number", '$.selectionSet.node', 'parse-failed'));
  });

  it('still answers ids that fit, and null for a row that is not there', async () => {
    expect(await node(b64('[1, "public", "crew", "ARG", 2]'))).toEqual({ data: { node: { __typename: 'crew', sailor: 'Orpheus' } } });
    expect(await node(b64('[1, "public", "ship", "NAU"]'), deck)).toEqual({ data: { node: { __typename: 'ship', name: 'Nautilus' } } });
    expect(await node(b64('[1, "public", "ship", "XXX"]'), deck)).toEqual({ data: { node: null } });
  });
});
