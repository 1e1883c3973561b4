// A remote relationship may join on scalar computed fields as well as columns (Hasura's
// RQL/DDL/RemoteRelationship/Validate.hs: a join field is a column or a computed field returning
// a scalar whose function takes only the row and the session); the field's value on each row,
// session variables included, is what the remote is called with. A computed field with other
// arguments is refused in Hasura's words. tests-py test_remote_relationships.py
// TestComputedFieldsInRemoteRelationship (remote_join_with_computed_field[_session].yaml) and
// TestCreateRemoteRelationship (setup_remote_rel_computed_fields, setup_invalid_remote_rel_computed_field).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { startRemote, type RemoteServer } from '../remote/remote-server.js';

describe('computed fields as join fields of a remote relationship', () => {
  let server: ServedDatabase;
  let remote: RemoteServer;
  const create = (name: string, field: string) => server.post('/v1/query', { type: 'create_remote_relationship',
    args: { name, table: 'students', hasura_fields: [field], remote_schema: 'grades', remote_field: { getGrade: { arguments: { marks: `$${field}` } } } } });

  beforeAll(async () => {
    remote = await startRemote('type Query { getGrade(marks: Int!): String }', { getGrade: ({ marks }: { marks: number }) => (marks >= 90 ? 'S' : marks >= 80 ? 'A' : 'B') });
    server = await serveDatabase('fidrrcf', `
      CREATE TABLE students (id serial PRIMARY KEY, name text, physics int, chemistry int);
      INSERT INTO students (name, physics, chemistry) VALUES ('alice', 48, 47), ('bob', 35, 35);
      CREATE FUNCTION total_marks(s students) RETURNS int AS $$ SELECT s.physics + s.chemistry $$ LANGUAGE sql STABLE;
      CREATE FUNCTION total_marks_offset(s students, off int) RETURNS int AS $$ SELECT s.physics + s.chemistry - off $$ LANGUAGE sql STABLE;
      CREATE FUNCTION total_marks_session(s students, hasura_session json) RETURNS int
        AS $$ SELECT s.physics + s.chemistry - coalesce((hasura_session->>'x-svc-offset')::int, 0) $$ LANGUAGE sql STABLE;`, {
      track: ['students'],
      metadata: [
        { type: 'pg_add_computed_field', args: { table: 'students', name: 'total_marks', definition: { function: 'total_marks' } } },
        { type: 'pg_add_computed_field', args: { table: 'students', name: 'total_marks_offset', definition: { function: 'total_marks_offset' } } },
        { type: 'pg_add_computed_field', args: { table: 'students', name: 'total_marks_session', definition: { function: 'total_marks_session', session_argument: 'hasura_session' } } },
      ] });
    expect((await server.metadata('add_remote_schema', { name: 'grades', definition: { url: remote.url } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  it('joins on a computed field\'s value', async () => {
    expect((await create('grade', 'total_marks')).status).toBe(200);
    expect(await server.gql('{ students(order_by: {id: asc}) { name grade } }'))
      .toEqual({ data: { students: [{ name: 'alice', grade: 'S' }, { name: 'bob', grade: 'B' }] } });
  });

  it('joins on a computed field that reads the session', async () => {
    expect((await create('grade_session', 'total_marks_session')).status).toBe(200);
    expect(await server.gql('{ students(order_by: {id: asc}) { name grade_session } }', undefined, { 'x-svc-offset': '10' }))
      .toEqual({ data: { students: [{ name: 'alice', grade_session: 'A' }, { name: 'bob', grade_session: 'B' }] } });
  });

  it('refuses a computed field with arguments of its own, and a field the table lacks', async () => {
    const r = await create('grade_offset', 'total_marks_offset');
    expect([r.status, r.body.internal?.[0]?.reason]).toEqual([400, 'Inconsistent object: computed field "total_marks_offset" is associated with SQL function '
      + '"total_marks_offset" has input arguments other than table row type and hasura session']);
    const s = await create('grade_wrong', 'marks_wrong');
    expect([s.status, s.body.internal?.[0]?.reason]).toEqual([400, 'Inconsistent object: field with name "marks_wrong" not found in table "students"']);
  });
});
