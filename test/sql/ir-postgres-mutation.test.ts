// The write nodes of the IR, built by hand, rendered by the PostgreSQL renderer and run on a
// database of its own, each statement in a transaction rolled back: rows written, guards and
// the response JSON must be what the nodes mean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { bindParams } from '../../runtime/graphql/index.js';
import {
  Alias, compileSql, postgres, type Expr, type Guard, type JsonObject, type JsonValue, type MutationJson, type Write, type WriteBody, type WrittenRows,
} from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SETUP = `
  CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, meta jsonb, n int NOT NULL DEFAULT 0, list jsonb);
  CREATE TABLE article (id serial PRIMARY KEY, author_id int REFERENCES author(id), title text NOT NULL DEFAULT 'untitled');
  INSERT INTO author VALUES (1, 'ada', '{"a": 1, "b": [1, 2, 3], "c": {"d": 4}}', 5, '[1, 2, 3]'), (2, 'bob', NULL, 0, NULL);
  INSERT INTO article (author_id, title) VALUES (1, 'one'), (2, 'two');
`;

let db: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  db = await createTestDatabase('ir_pg_mut', SETUP);
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => { await client?.end(); await db?.drop(); });

const SESSION = { role: 'user', variables: { 'x-svc-user-id': '1' }, isAdmin: false };
const AUTHOR = { schema: 'public', name: 'author' };
const ARTICLE = { schema: 'public', name: 'article' };
const AUTHOR_COLS = ['id', 'name', 'meta', 'n', 'list'];
const ARTICLE_COLS = ['id', 'author_id', 'title'];

const col = (row: Alias, column: string): Expr => ({ kind: 'column', row, column });
const lit = (value: unknown, type: string | null): Expr => ({ kind: 'param', value: { kind: 'literal', value }, type });
const json = (expr: Expr): JsonValue => ({ kind: 'scalar', expr, output: 'json' });
const shape = (fields: { [key: string]: JsonValue }): JsonObject => ({ kind: 'object', fields: Object.entries(fields).map(([key, value]) => ({ key, value })) });
const rowsOf = (write: Alias, columns: readonly string[], only: WrittenRows['only'] = null): WrittenRows => ({ kind: 'written', write, columns, only });

/** Runs the statement in a transaction, reads `after` inside it, rolls back; answers the status, JSON and rows read. */
async function run(writes: Write[], guards: Guard[], result: MutationJson, after = 'SELECT 1'): Promise<{ status: number; data: any; rows: any[] }> {
  const rc = { dialect: postgres, hints: { valueSensitive: false } };
  const compiled = compileSql(postgres.render.mutation({ writes, guards, result }, rc), postgres);
  await client.query('BEGIN');
  try {
    const text = Object.values((await client.query(compiled.text, bindParams(compiled.params, {}, SESSION))).rows[0]!)[0] as string;
    const rows = (await client.query(after)).rows;
    const colon = text.indexOf(':');
    return { status: Number(text.slice(0, colon)), data: JSON.parse(text.slice(colon + 1)), rows };
  } finally {
    await client.query('ROLLBACK');
  }
}

const write = (hint: string, body: WriteBody): Write => ({ name: new Alias(hint), body });

describe('mutation IR rendered for PostgreSQL', () => {
  it('insert with defaults, a nested child linked to its parent, guards that hold, affected rows and returning', async () => {
    const parent = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: ['id', 'name'], firstColumn: 'id',
      rows: [[lit(3, 'int4'), lit('cy', 'text')]], conflict: null });
    const child = write('article', { kind: 'insert', table: ARTICLE, target: new Alias('article'), columns: ['author_id', 'title'], firstColumn: 'id',
      rows: [[{ kind: 'written_value', write: parent.name, column: 'id' }, lit('new', 'text')], [{ kind: 'written_value', write: parent.name, column: 'id' }, { kind: 'param', value: { kind: 'session', name: 'x-svc-user-id' }, type: 'text' }]], conflict: null });
    const r = new Alias('author');
    const guards: Guard[] = [{ kind: 'one_row', write: parent.name },
      { kind: 'all_rows', rows: rowsOf(parent.name, AUTHOR_COLS), row: r, check: { kind: 'compare', left: col(r, 'n'), op: 'eq', right: lit(0, 'int4') } }];
    const x = new Alias('author');
    const result: MutationJson = { kind: 'response', fields: [
      { key: 'affected_rows', value: { kind: 'affected', writes: [parent.name, child.name] } },
      { key: '__typename', value: { kind: 'name', name: 'author_mutation_response' } },
      { key: 'returning', value: { kind: 'returning', rows: rowsOf(parent.name, AUTHOR_COLS), row: x, shape: shape({ id: json(col(x, 'id')), n: json(col(x, 'n')) }), single: false } },
    ] };
    const out = await run([parent, child], guards, result, 'SELECT author_id, title FROM article WHERE author_id = 3 ORDER BY title');
    expect(out.status).toBe(0);
    expect(out.data).toEqual({ affected_rows: 3, __typename: 'author_mutation_response', returning: [{ id: 3, n: 0 }] });
    expect(out.rows).toEqual([{ author_id: 3, title: '1' }, { author_id: 3, title: 'new' }]);
  });

  it('a guard that fails answers its number; DEFAULT VALUES and several default rows', async () => {
    const w = write('article', { kind: 'insert', table: ARTICLE, target: new Alias('article'), columns: [], firstColumn: 'id', rows: [[], []], conflict: null });
    const none = write('author', { kind: 'none', table: AUTHOR });
    const r = new Alias('article');
    const out = await run([w, none], [{ kind: 'one_row', write: none.name }, { kind: 'all_rows', rows: rowsOf(w.name, ARTICLE_COLS), row: r, check: { kind: 'is_null', expr: col(r, 'title'), isNull: true } }],
      { kind: 'affected', writes: [w.name, none.name] });
    expect(out.status).toBe(1);
    const one = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: [], firstColumn: 'id', rows: [[]], conflict: null });
    await expect(run([one], [], { kind: 'affected', writes: [one.name] })).rejects.toThrow(/null value in column "id"/);
  });

  it('upserts: DO NOTHING, DO UPDATE with EXCLUDED under the update filter, inserted and updated rows told apart, read through', async () => {
    const target = new Alias('author');
    const w = write('author', { kind: 'insert', table: AUTHOR, target, columns: ['id', 'name'], firstColumn: 'id',
      rows: [[lit(1, 'int4'), lit('ada2', 'text')], [lit(2, 'int4'), lit('bob2', 'text')], [lit(4, 'int4'), lit('dee', 'text')]],
      conflict: { target: { kind: 'constraint', name: 'author_pkey' }, update: { set: [{ column: 'name', value: { kind: 'excluded', column: 'name' } }, { column: 'n', value: lit(9, 'int4') }],
        permission: { kind: 'compare', left: col(target, 'n'), op: 'gt', right: lit(0, 'int4') }, where: null } } });
    const ins = new Alias('author');
    const upd = new Alias('author');
    const through = new Alias('author');
    const rt = { kind: 'read_through' as const, table: AUTHOR, row: through, columns: AUTHOR_COLS, primaryKey: ['id'], written: [{ write: w.name, upsert: true }] };
    const all = new Alias('author');
    const out = await run([w], [], { kind: 'response', fields: [
      { key: 'inserted', value: { kind: 'returning', rows: rowsOf(w.name, AUTHOR_COLS, 'inserted'), row: ins, shape: shape({ id: json(col(ins, 'id')) }), single: false } },
      { key: 'updated', value: { kind: 'returning', rows: rowsOf(w.name, AUTHOR_COLS, 'updated'), row: upd, shape: shape({ id: json(col(upd, 'id')), name: json(col(upd, 'name')), n: json(col(upd, 'n')) }), single: true } },
      // The statement's end state: the table as it was, less replaced rows, plus the written ones.
      { key: 'all', value: { kind: 'list', shape: shape({ id: json(col(all, 'id')), name: json(col(all, 'name')) }),
        rows: { from: rt, row: all, join: [], permission: { filter: { kind: 'true' }, limit: null }, where: null, order: [{ expr: col(all, 'id'), dir: 'asc_nulls_last' }], distinctOn: null, limit: null, offset: null, countsAllRows: false, rowTyped: false } } },
    ] });
    expect(out.data).toEqual({ inserted: [{ id: 4 }], updated: { id: 1, name: 'ada2', n: 9 },
      all: [{ id: 1, name: 'ada2' }, { id: 2, name: 'bob' }, { id: 4, name: 'dee' }] });
    const nothing = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: ['id', 'name'], firstColumn: 'id',
      rows: [[lit(1, 'int4'), lit('x', 'text')]], conflict: { target: { kind: 'constraint', name: 'author_pkey' }, update: null } });
    expect((await run([nothing], [], { kind: 'affected', writes: [nothing.name] })).data).toBe(0);
    // A conflict on columns, updated with no filter (the v1 API's admin upsert), and on anything, ignored.
    const onColumns = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: ['id', 'name'], firstColumn: 'id',
      rows: [[lit(2, 'int4'), lit('bee', 'text')]], conflict: { target: { kind: 'columns', columns: ['id'] }, update: { set: [{ column: 'name', value: { kind: 'excluded', column: 'name' } }], permission: null, where: null } } });
    const x = new Alias('author');
    expect((await run([onColumns], [], { kind: 'returning', rows: rowsOf(onColumns.name, AUTHOR_COLS), row: x, shape: shape({ 'the name': json(col(x, 'name')) }), single: true })).data).toEqual({ 'the name': 'bee' });
    const any = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: ['id', 'name'], firstColumn: 'id',
      rows: [[lit(2, 'int4'), lit('x', 'text')], [lit(9, 'int4'), lit('nine', 'text')]], conflict: { target: null, update: null } });
    expect((await run([any], [], { kind: 'affected', writes: [any.name] })).data).toBe(1);
  });

  it('update: every operator, presets as plain values, the permission filter and the selector', async () => {
    const a = new Alias('author');
    const cur = (c: string): Expr => col(a, c);
    const op = (o: 'append' | 'prepend' | 'delete_key' | 'delete_elem' | 'delete_at_path', current: any, v: Expr): any => ({ kind: 'update_op', op: o, current, value: v });
    const meta = op('prepend', op('append', cur('meta'), lit({ z: 1 }, 'jsonb')), lit({ y: 0 }, 'jsonb'));
    const w = write('author', { kind: 'update', table: AUTHOR, row: a, set: [
      { column: 'n', value: { kind: 'update_op', op: 'mul', current: { kind: 'update_op', op: 'inc', current: cur('n'), value: lit(2, 'int4') }, value: lit(1, 'int4') } },
      { column: 'meta', value: meta }, { column: 'list', value: op('delete_elem', cur('list'), lit(0, 'int4')) }, { column: 'name', value: { kind: 'param', value: { kind: 'session', name: 'x-svc-user-id' }, type: 'text' } }],
      permission: { kind: 'compare', left: cur('n'), op: 'gte', right: lit(0, 'int4') }, selector: { kind: 'compare', left: cur('id'), op: 'eq', right: lit(1, 'int4') } });
    const r = new Alias('author');
    const out = await run([w], [], { kind: 'returning', rows: rowsOf(w.name, AUTHOR_COLS), row: r, shape: shape({ n: json(col(r, 'n')), meta: json(col(r, 'meta')), list: json(col(r, 'list')), name: json(col(r, 'name')) }), single: true });
    expect(out.data).toEqual({ n: 7, meta: { a: 1, y: 0, b: [1, 2, 3], c: { d: 4 }, z: 1 }, list: [2, 3], name: '1' });
    const c = new Alias('author');
    const removed = write('author', { kind: 'update', table: AUTHOR, row: c, permission: { kind: 'true' }, selector: { kind: 'compare', left: col(c, 'id'), op: 'eq', right: lit(1, 'int4') },
      set: [{ column: 'meta', value: { kind: 'update_op', op: 'delete_at_path', current: { kind: 'update_op', op: 'delete_key', current: col(c, 'meta'), value: lit('a', 'text') }, value: lit(['c', 'd'], 'text[]') } }] });
    const r2 = new Alias('author');
    expect((await run([removed], [], { kind: 'returning', rows: rowsOf(removed.name, AUTHOR_COLS), row: r2, shape: shape({ meta: json(col(r2, 'meta')) }), single: true })).data)
      .toEqual({ meta: { b: [1, 2, 3], c: {} } });
    const b = new Alias('author');
    const denied = write('author', { kind: 'update', table: AUTHOR, row: b, set: [{ column: 'n', value: lit(1, 'int4') }],
      permission: { kind: 'compare', left: col(b, 'n'), op: 'gt', right: lit(100, 'int4') }, selector: { kind: 'true' } });
    expect((await run([denied], [], { kind: 'affected', writes: [denied.name] })).data).toBe(0);
  });

  it('delete: the permission filter and the selector both hold; the deleted row answers', async () => {
    const a = new Alias('article');
    const w = write('article', { kind: 'delete', table: ARTICLE, row: a, permission: { kind: 'compare', left: col(a, 'author_id'), op: 'eq', right: { kind: 'param', value: { kind: 'session', name: 'x-svc-user-id' }, type: 'int4' } },
      selector: { kind: 'true' } });
    const r = new Alias('article');
    const out = await run([w], [], { kind: 'returning', rows: rowsOf(w.name, ARTICLE_COLS), row: r, shape: shape({ title: json(col(r, 'title')) }), single: false }, 'SELECT count(*)::int AS n FROM article');
    expect(out.data).toEqual([{ title: 'one' }]);
    expect(out.rows).toEqual([{ n: 1 }]);
  });

  it('union of write parts, and the session recorded for event capture', async () => {
    const one = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: ['id', 'name'], firstColumn: 'id', rows: [[lit(7, 'int4'), lit('g', 'text')]], conflict: null });
    const two = write('author', { kind: 'insert', table: AUTHOR, target: new Alias('author'), columns: ['id', 'name'], firstColumn: 'id', rows: [[lit(8, 'int4'), lit('h', 'text')]], conflict: null });
    const both = write('author_all', { kind: 'union', parts: [one.name, two.name], columns: AUTHOR_COLS });
    const r = new Alias('author');
    const out = await run([one, two, both], [], { kind: 'returning', rows: rowsOf(both.name, AUTHOR_COLS), row: r, shape: shape({ id: json(col(r, 'id')) }), single: false });
    expect(out.data.map((x: { id: number }) => x.id).sort()).toEqual([7, 8]);
    const set = compileSql(postgres.render.recordSession(), postgres);
    await client.query('BEGIN');
    await client.query(set.text, bindParams(set.params, {}, SESSION));
    const seen = (await client.query(`SELECT current_setting('svc.user') AS s`)).rows[0].s;
    await client.query('ROLLBACK');
    expect(JSON.parse(seen)).toEqual({ 'x-svc-user-id': '1', 'x-svc-role': 'user' });
  });
});
