// An explicit null for a NOT NULL column is refused while the request is parsed, though the insert
// and update inputs show every column as nullable: Hasura builds each column field of
// `<t>_insert_input` (Schema/Mutation.hs tableFieldsInput), `_set`, `_inc` (Schema/Update.hs
// setOp, incOp), `_append` and `_prepend` (Backends/Postgres/Instances/Schema.hs appendOp,
// prependOp) with `fieldOptional` over the column parser built with the column's own nullability
// (`G.Nullability $ ciIsNullable columnInfo`), so the field may be left out but a null reaches a
// parser that takes none: "unexpected null value for type ..." (validation-failed), a default or
// not, a literal or a variable's value, at the field's path. A nested insert's `data` and
// update_many's `updates` read the same types. A nullable column still takes a null. Before,
// Kiln sent the null to PostgreSQL, which answered with a not-null violation. An update operator
// of an `updates` entry (`_set: null`) is refused as the update's own is (Schema/Update/Batch.hs
// updateTableMany reads each entry with the same update operators); Kiln read it as left out.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { postJson } from '../helpers/http.js';

describe('explicit nulls for NOT NULL columns in insert and update inputs', () => {
  let db: TestDatabase;
  let server: { port: number; close(): Promise<void> };
  const gql = async (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    (await postJson(`http://127.0.0.1:${server.port}`, '/v1/graphql', variables ? { query, variables } : { query }, headers)).body;
  const refused = (type: string, path: string) => ({ errors: [{ message: `unexpected null value for type "${type}"`, extensions: { path, code: 'validation-failed' } }] });
  const rows = async () => db.query('SELECT id, name, nick, score, bonus, prefs, extra FROM member ORDER BY id');
  const INS = '$.selectionSet.insert_member.args.objects';
  const ONE = '$.selectionSet.insert_member_one.args.object';
  const UPD = '$.selectionSet.update_member.args';

  beforeAll(async () => {
    db = await createTestDatabase('fidnotnull', `CREATE TABLE tier (value text PRIMARY KEY); INSERT INTO tier VALUES ('basic'), ('gold');
      CREATE TABLE member (id serial PRIMARY KEY, name text NOT NULL, nick text, score int NOT NULL DEFAULT 0, bonus int,
        prefs jsonb NOT NULL DEFAULT '[]', extra jsonb, tier text NOT NULL DEFAULT 'basic' REFERENCES tier(value));
      INSERT INTO member (name) VALUES ('ann');
      CREATE TABLE badge (id int PRIMARY KEY, member_id int NOT NULL REFERENCES member(id), label text NOT NULL);`);
    server = await serveCommand({ databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false });
    for (const [type, args] of [['pg_track_table', { table: 'tier', is_enum: true }], ['pg_track_table', { table: 'member' }], ['pg_track_table', { table: 'badge' }],
      ['pg_create_array_relationship', { table: 'member', name: 'badges', using: { foreign_key_constraint_on: { table: 'badge', column: 'member_id' } } }],
      ['pg_create_insert_permission', { table: 'member', role: 'clerk', permission: { columns: ['name', 'nick'], check: {} } }]] as const) {
      expect((await postJson(`http://127.0.0.1:${server.port}`, '/v1/metadata', { type, args })).status).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('refuses a literal null for a NOT NULL column of an insert, with or without a default, and writes no row', async () => {
    const before = await rows();
    expect(await gql('mutation { insert_member(objects: [{name: null}]) { affected_rows } }')).toEqual(refused('String', `${INS}[0].name`));
    expect(await gql('mutation { insert_member(objects: [{name: "bo"}, {name: "cy", score: null}]) { affected_rows } }')).toEqual(refused('Int', `${INS}[1].score`));
    expect(await gql('mutation { insert_member(objects: {id: null, name: "bo"}) { affected_rows } }')).toEqual(refused('Int', `${INS}[0].id`));
    expect(await gql('mutation { insert_member_one(object: {name: "bo", prefs: null}) { id } }')).toEqual(refused('jsonb', `${ONE}.prefs`));
    expect(await gql('mutation { insert_member_one(object: {name: "bo", tier: null}) { id } }'))
      .toEqual({ errors: [{ message: 'expected an enum value for type "tier_enum", but found null', extensions: { path: `${ONE}.tier`, code: 'validation-failed' } }] });
    expect(await gql('mutation { insert_member_one(object: {name: "bo", badges: {data: [{id: 1, label: null}]}}) { id } }'))
      .toEqual(refused('String', `${ONE}.badges.data[0].label`));
    expect(await gql('mutation { insert_member(objects: [{name: null}]) { affected_rows } }', undefined, { 'x-svc-role': 'clerk' }))
      .toEqual(refused('String', `${INS}[0].name`));
    expect(await rows()).toEqual(before);
    expect(await db.query('SELECT * FROM badge')).toEqual([]);
  });

  it('refuses the null of a variable, as the whole input or at the field, sent null or left out', async () => {
    const before = await rows();
    expect(await gql('mutation M($o: [member_insert_input!]!) { insert_member(objects: $o) { affected_rows } }', { o: [{ name: 'bo' }, { name: null }] }))
      .toEqual(refused('String', `${INS}[1].name`));
    expect(await gql('mutation M($o: member_insert_input!) { insert_member_one(object: $o) { id } }', { o: { name: 'bo', score: null } }))
      .toEqual(refused('Int', `${ONE}.score`));
    const atField = 'mutation M($n: String) { insert_member(objects: [{name: $n}]) { affected_rows } }';
    expect(await gql(atField, { n: null })).toEqual(refused('String', `${INS}[0].name`));
    expect(await gql(atField, {})).toEqual(refused('String', `${INS}[0].name`));
    expect(await gql('mutation M($n: String!) { insert_member(objects: [{name: $n}]) { affected_rows } }', { n: null })).toEqual(refused('String', `${INS}[0].name`));
    expect(await gql('mutation M($s: Int = 3) { insert_member_one(object: {name: "bo", score: $s}) { id } }', { s: null })).toEqual(refused('Int', `${ONE}.score`));
    expect(await gql('mutation M($d: [badge_insert_input!]!) { insert_member_one(object: {name: "bo", badges: {data: $d}}) { id } }', { d: [{ id: 1, label: null }] }))
      .toEqual(refused('String', `${ONE}.badges.data[0].label`));
    expect(await rows()).toEqual(before);
    expect(await gql(atField, { n: 'bo' })).toEqual({ data: { insert_member: { affected_rows: 1 } } });
  });

  it('still takes a null for a nullable column, literal or variable', async () => {
    expect(await gql('mutation { insert_member_one(object: {name: "cy", nick: null, bonus: null, extra: null}) { name nick bonus extra } }'))
      .toEqual({ data: { insert_member_one: { name: 'cy', nick: null, bonus: null, extra: null } } });
    expect(await gql('mutation M($o: member_insert_input!) { insert_member_one(object: $o) { name nick } }', { o: { name: 'di', nick: null } }))
      .toEqual({ data: { insert_member_one: { name: 'di', nick: null } } });
    expect(await gql('mutation M($n: String) { update_member(where: {id: {_eq: 1}}, _set: {nick: $n}, _inc: {bonus: null}, _append: {extra: null}) { returning { nick bonus extra } } }', { n: null }))
      .toEqual({ data: { update_member: { returning: [{ nick: null, bonus: null, extra: null }] } } });
  });

  it('refuses a null for a NOT NULL column in _set, _inc, _append and _prepend, in update, update_by_pk and update_many, and changes nothing', async () => {
    const before = await rows();
    expect(await gql('mutation { update_member(where: {id: {_eq: 1}}, _set: {name: null}) { affected_rows } }')).toEqual(refused('String', `${UPD}._set.name`));
    expect(await gql('mutation { update_member(where: {id: {_eq: 1}}, _set: {nick: "x", score: null}) { affected_rows } }')).toEqual(refused('Int', `${UPD}._set.score`));
    expect(await gql('mutation { update_member(where: {id: {_eq: 1}}, _inc: {score: null}) { affected_rows } }')).toEqual(refused('Int', `${UPD}._inc.score`));
    expect(await gql('mutation { update_member(where: {id: {_eq: 1}}, _append: {prefs: null}) { affected_rows } }')).toEqual(refused('jsonb', `${UPD}._append.prefs`));
    expect(await gql('mutation { update_member(where: {id: {_eq: 1}}, _prepend: {prefs: null}) { affected_rows } }')).toEqual(refused('jsonb', `${UPD}._prepend.prefs`));
    expect(await gql('mutation M($s: member_set_input) { update_member(where: {id: {_eq: 1}}, _set: $s) { affected_rows } }', { s: { name: null } }))
      .toEqual(refused('String', `${UPD}._set.name`));
    expect(await gql('mutation M($n: String) { update_member(where: {id: {_eq: 1}}, _set: {name: $n}) { affected_rows } }', { n: null }))
      .toEqual(refused('String', `${UPD}._set.name`));
    expect(await gql('mutation { update_member_by_pk(pk_columns: {id: 1}, _set: {name: null}) { id } }'))
      .toEqual(refused('String', '$.selectionSet.update_member_by_pk.args._set.name'));
    expect(await gql('mutation { update_member_many(updates: [{where: {id: {_eq: 1}}, _set: {nick: "y"}}, {where: {id: {_eq: 1}}, _inc: {score: null}}]) { affected_rows } }'))
      .toEqual(refused('Int', '$.selectionSet.update_member_many.args.updates[1]._inc.score'));
    expect(await gql('mutation M($u: [member_updates!]!) { update_member_many(updates: $u) { affected_rows } }', { u: [{ where: {}, _set: { name: null } }] }))
      .toEqual(refused('String', '$.selectionSet.update_member_many.args.updates[0]._set.name'));
    expect(await rows()).toEqual(before);
  });

  it('refuses a null update operator in an entry of update_many, literal or variable, as update does', async () => {
    const before = await rows();
    const nulled = (type: string, path: string) => ({ errors: [{ message: `expected an object for type "${type}", but found null`, extensions: { path, code: 'validation-failed' } }] });
    expect(await gql('mutation { update_member_many(updates: [{where: {id: {_eq: 1}}, _set: {nick: "z"}}, {where: {}, _set: null}]) { affected_rows } }'))
      .toEqual(nulled('member_set_input', '$.selectionSet.update_member_many.args.updates[1]._set'));
    expect(await gql('mutation M($i: member_inc_input) { update_member_many(updates: [{where: {}, _inc: $i}]) { affected_rows } }', { i: null }))
      .toEqual(nulled('member_inc_input', '$.selectionSet.update_member_many.args.updates[0]._inc'));
    expect(await gql('mutation M($u: [member_updates!]!) { update_member_many(updates: $u) { affected_rows } }', { u: [{ where: {}, _append: null }] }))
      .toEqual(nulled('member_append_input', '$.selectionSet.update_member_many.args.updates[0]._append'));
    expect(await gql('mutation { update_member(where: {}, _set: null) { affected_rows } }')).toEqual(nulled('member_set_input', `${UPD}._set`));
    expect(await rows()).toEqual(before);
  });

  it('shows the columns as nullable in introspection', async () => {
    const t = await gql('{ i: __type(name: "member_insert_input") { inputFields { name type { kind name } } } s: __type(name: "member_set_input") { inputFields { name type { kind name } } } }');
    expect(t.data.i.inputFields.find((f: { name: string }) => f.name === 'name').type).toEqual({ kind: 'SCALAR', name: 'String' });
    expect(t.data.s.inputFields.find((f: { name: string }) => f.name === 'score').type).toEqual({ kind: 'SCALAR', name: 'Int' });
  });
});
