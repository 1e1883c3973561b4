// update_<t>, update_<t>_by_pk and delete_<t>/_by_pk against PostgreSQL: the operators, the
// update filter, the check after the update, presets, and delete filters.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { metadataOf, table } from './setup.js';
import { startCountingEngine, type CountingEngine } from './mutations-setup.js';

const SETUP = `
CREATE TABLE doc (id serial PRIMARY KEY, owner text NOT NULL, title text, views int NOT NULL DEFAULT 0,
  published boolean NOT NULL DEFAULT false, info jsonb, edited_by text);
CREATE TABLE note (id serial PRIMARY KEY, doc_id int NOT NULL REFERENCES doc(id), body text);
`;

const metadata = metadataOf([
  table('doc', {
    array_relationships: [{ name: 'notes', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'note' }, column: 'doc_id' } } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'owner', 'title', 'views', 'published', 'info', 'edited_by'], filter: {} } }],
    update_permissions: [{ role: 'user', permission: { columns: ['title', 'views', 'published', 'info', 'owner'],
      filter: { owner: { _eq: 'X-Svc-User-Id' } }, check: { _and: [{ owner: { _eq: 'X-Svc-User-Id' } }, { views: { _lt: 1000 } }] },
      set: { edited_by: 'X-Svc-User-Id' } } }],
    delete_permissions: [{ role: 'user', permission: { filter: { _and: [{ owner: { _eq: 'X-Svc-User-Id' } }, { published: { _eq: false } }] } } }],
  }),
  table('note', { object_relationships: [{ name: 'doc', using: { foreign_key_constraint_on: 'doc_id' } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: {} } }] }),
]);

let db: TestDatabase;
let k: CountingEngine;
const asUser = (q: string, v?: Record<string, unknown>, id = 'u1') => k.run(q, v, 'user', { 'x-svc-user-id': id });
const rows = (sql: string) => db.query(sql);

beforeAll(async () => {
  db = await createTestDatabase('mutupd', SETUP);
  k = await startCountingEngine(metadata, db.url);
});
afterAll(async () => {
  await k?.close();
  await db?.drop();
});
beforeEach(async () => {
  await db.query('TRUNCATE note, doc RESTART IDENTITY CASCADE');
  await db.query(`INSERT INTO doc (owner, title, views, info) VALUES ('u1', 'one', 1, '{"a": 1, "b": [1, 2, 3]}'), ('u2', 'two', 2, null), ('u1', 'three', 3, '[1, 2]')`);
  await db.query(`INSERT INTO note (doc_id, body) VALUES (1, 'n1'), (2, 'n2')`);
});

describe('update', () => {
  it('update_<t>_many applies each update in order, each inside the update filter, with one answer per update', async () => {
    const r = await asUser(`mutation { update_doc_many(updates: [
      {where: {id: {_in: [1, 2]}}, _set: {title: "first"}},
      {where: {title: {_eq: "first"}}, _inc: {views: 100}}
    ]) { affected_rows returning { id title views } } }`);
    expect(r.errors).toBeUndefined();
    // Row 2 belongs to u2: outside the filter, so neither update touches it; the second sees the first's change.
    expect(r.data.update_doc_many).toEqual([
      { affected_rows: 1, returning: [{ id: 1, title: 'first', views: 1 }] },
      { affected_rows: 1, returning: [{ id: 1, title: 'first', views: 101 }] },
    ]);
    expect(await rows('SELECT id, title, views FROM doc ORDER BY id')).toEqual([
      { id: 1, title: 'first', views: 101 }, { id: 2, title: 'two', views: 2 }, { id: 3, title: 'three', views: 3 }]);
  });

  it('update_<t>_many is all or nothing: a failing check in a later update undoes the earlier ones', async () => {
    const r = await asUser(`mutation { update_doc_many(updates: [
      {where: {id: {_eq: 1}}, _set: {title: "changed"}},
      {where: {id: {_eq: 3}}, _set: {views: 5000}}
    ]) { affected_rows } }`);
    expect(r.errors?.[0]?.extensions?.code).toBe('permission-error');
    expect(await rows('SELECT title, views FROM doc WHERE id IN (1, 3) ORDER BY id')).toEqual([{ title: 'one', views: 1 }, { title: 'three', views: 3 }]);
  });

  it('_set and _inc change only the rows inside the update filter, with the preset applied', async () => {
    const r = await asUser('mutation { update_doc(where: {}, _set: {title: "x"}, _inc: {views: 10}) { affected_rows returning { id title views edited_by } } }');
    expect(r).toEqual({ data: { update_doc: { affected_rows: 2, returning: [
      { id: 1, title: 'x', views: 11, edited_by: 'u1' }, { id: 3, title: 'x', views: 13, edited_by: 'u1' }] } } });
    expect(await rows('SELECT title FROM doc WHERE id = 2')).toEqual([{ title: 'two' }]);
  });

  it('the jsonb operators', async () => {
    const q = (ops: string) => asUser(`mutation { update_doc_by_pk(pk_columns: {id: 1}, ${ops}) { info } }`);
    const first = await q('_append: {info: {c: 2}}');
    expect(first.errors).toBeUndefined();
    expect(first.data.update_doc_by_pk.info).toEqual({ a: 1, b: [1, 2, 3], c: 2 });
    expect((await q('_delete_key: {info: "a"}')).data.update_doc_by_pk.info).toEqual({ b: [1, 2, 3], c: 2 });
    expect((await q('_delete_at_path: {info: ["b", "0"]}')).data.update_doc_by_pk.info).toEqual({ b: [2, 3], c: 2 });
    const arr = (ops: string) => asUser(`mutation { update_doc_by_pk(pk_columns: {id: 3}, ${ops}) { info } }`);
    expect((await arr('_prepend: {info: [0]}')).data.update_doc_by_pk.info).toEqual([0, 1, 2]);
    expect((await arr('_delete_elem: {info: -1}')).data.update_doc_by_pk.info).toEqual([0, 1]);
  });

  it('a column named by several operators is refused (Hasura: one assignment per column), and nothing changes', async () => {
    const refused = (columns: string, field = 'update_doc_by_pk') => ({ errors: [{ message: `column found in multiple operators; ${columns}`,
      extensions: { path: `$.selectionSet.${field}.args`, code: 'validation-failed' } }] });
    expect(await asUser('mutation { update_doc_by_pk(pk_columns: {id: 1}, _append: {info: {c: 2}}, _delete_key: {info: "a"}) { info } }')).toEqual(refused('"info" in _append, _delete_key'));
    expect(await asUser('mutation { update_doc(where: {}, _set: {info: {}, title: "t", views: 1}, _inc: {views: 2}, _append: {info: {c: 1}}) { affected_rows } }'))
      .toEqual(refused('"views" in _set, _inc. "info" in _set, _append', 'update_doc'));
    expect(await rows('SELECT title, views, info FROM doc WHERE id = 1')).toEqual([{ title: 'one', views: 1, info: { a: 1, b: [1, 2, 3] } }]);
    // Different columns in different operators are one update.
    const ok = await asUser('mutation { update_doc_by_pk(pk_columns: {id: 1}, _set: {title: "t"}, _inc: {views: 2}, _append: {info: {c: 1}}) { title views info } }');
    expect(ok).toEqual({ data: { update_doc_by_pk: { title: 't', views: 3, info: { a: 1, b: [1, 2, 3], c: 1 } } } });
  });

  it('update_by_pk outside the filter answers null and changes nothing', async () => {
    expect(await asUser('mutation { update_doc_by_pk(pk_columns: {id: 2}, _set: {title: "stolen"}) { id } }')).toEqual({ data: { update_doc_by_pk: null } });
    expect(await rows('SELECT title FROM doc WHERE id = 2')).toEqual([{ title: 'two' }]);
  });

  it('cannot move a row out of its update filter: the check fails and nothing changes', async () => {
    const r = await asUser('mutation { update_doc(where: {id: {_eq: 1}}, _set: {owner: "u2"}) { affected_rows } }');
    expect(r).toEqual({ errors: [{ message: 'check constraint of an insert/update permission has failed', extensions: { path: '$', code: 'permission-error' } }] });
    const big = await asUser('mutation { update_doc(where: {}, _inc: {views: 5000}) { affected_rows } }');
    expect(big.errors?.[0]?.extensions.code).toBe('permission-error');
    expect(await rows('SELECT owner, views FROM doc ORDER BY id')).toEqual([{ owner: 'u1', views: 1 }, { owner: 'u2', views: 2 }, { owner: 'u1', views: 3 }]);
  });

  it('cannot set a column it was not granted, and needs an operator', async () => {
    const r = await asUser('mutation { update_doc(where: {}, _set: {id: 9}) { affected_rows } }');
    expect(r.errors?.[0]).toEqual({ message: 'field "id" not found in type: \'doc_set_input\'', extensions: { path: '$.selectionSet.update_doc.args._set.id', code: 'validation-failed' } });
    expect((await k.run('mutation { update_doc(where: {}) { affected_rows } }')).errors?.[0]?.extensions.code).toBe('validation-failed');
  });

  it('_set: {} changes nothing', async () => {
    expect(await k.run('mutation { update_doc(where: {}, _set: {}) { affected_rows } }')).toEqual({ data: { update_doc: { affected_rows: 0 } } });
  });
});

describe('delete', () => {
  it('deletes only rows inside the delete filter and returns them with relationships', async () => {
    await db.query('DELETE FROM note WHERE doc_id = 1');
    const r = await asUser('mutation { delete_doc(where: {}) { affected_rows returning { id notes { body } } } }');
    expect(r).toEqual({ data: { delete_doc: { affected_rows: 2, returning: [{ id: 1, notes: [] }, { id: 3, notes: [] }] } } });
    expect(await rows('SELECT id FROM doc')).toEqual([{ id: 2 }]);
  });

  it('delete_by_pk outside the filter answers null', async () => {
    expect(await asUser('mutation { delete_doc_by_pk(id: 2) { id } }')).toEqual({ data: { delete_doc_by_pk: null } });
    expect(await asUser('mutation { delete_doc_by_pk(id: 3) { id title } }')).toEqual({ data: { delete_doc_by_pk: { id: 3, title: 'three' } } });
  });

  it('a foreign-key violation answers constraint-violation at $ and deletes nothing', async () => {
    const r = await k.run('mutation { delete_doc(where: {id: {_eq: 1}}) { affected_rows } }');
    expect(r).toEqual({ errors: [{ message: 'Foreign key violation. update or delete on table "doc" violates foreign key constraint "note_doc_id_fkey" on table "note"',
      extensions: { path: '$', code: 'constraint-violation' } }] });
    expect(await rows('SELECT count(*)::int AS n FROM doc')).toEqual([{ n: 3 }]);
  });

  it('a single mutation with no check runs as one statement, with no transaction around it', async () => {
    k.statements.length = 0;
    await k.run('mutation { delete_doc_by_pk(id: 3) { id } }');
    expect(k.statements).toHaveLength(1);
  });
});
