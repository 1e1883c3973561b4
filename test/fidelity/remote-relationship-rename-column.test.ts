// Renaming a join column of a remote relationship renames it in `hasura_fields` and in the
// `$column` values of `remote_field`'s arguments, as Hasura's RQL/DDL/Schema/Rename.hs does, so
// the relationship keeps working. tests-py test_remote_relationships.py
// TestExecution::test_renaming_column_with_remote_relationship_dependency
// (rename_col_with_remote_rel_dependency.yaml).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('a renamed join column of a remote relationship', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;

  beforeAll(async () => {
    remote = await startRemote('type Query { messages(where: Where): [Message] }  input Where { id: Cmp }  input Cmp { eq: Int }  type Message { id: Int! msg: String }',
      { messages: ({ where }: { where?: { id?: { eq?: number } } }) => [1, 2].filter((i) => i === where?.id?.eq).map((id) => ({ id, msg: `m${id}` })) });
    server = await serveDatabase('fidrrren', `CREATE TABLE profiles (id serial PRIMARY KEY, name text);
      INSERT INTO profiles (name) VALUES ('alice'), ('bob');`, { track: ['profiles'] });
    expect((await server.metadata('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
    expect((await server.post('/v1/query', { type: 'create_remote_relationship', args: { name: 'messages', table: 'profiles',
      hasura_fields: ['id'], remote_schema: 'msgs', remote_field: { messages: { arguments: { where: { id: { eq: '$id' } } } } } } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('follows the rename in hasura_fields and remote_field', async () => {
    expect((await server.post('/v1/query', { type: 'run_sql', args: { sql: 'ALTER TABLE profiles RENAME COLUMN id TO profile_id' } })).status).toBe(200);
    expect(await server.gql('{ profiles(order_by: {profile_id: asc}) { profile_id messages { msg } } }'))
      .toEqual({ data: { profiles: [{ profile_id: 1, messages: [{ msg: 'm1' }] }, { profile_id: 2, messages: [{ msg: 'm2' }] }] } });
    const md = (await server.metadata('export_metadata', {})).body;
    const rel = md.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'profiles').remote_relationships[0];
    expect(JSON.stringify(rel.definition)).toContain('"$profile_id"');
    expect(JSON.stringify(rel.definition)).not.toContain('"$id"');
  });
});
