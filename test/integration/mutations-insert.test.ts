// insert_<t> / insert_<t>_one against PostgreSQL: returning, column grants, presets, checks,
// upserts and nested inserts (one statement for a parent and 100 children).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { metadataOf, table } from './setup.js';
import { startCountingEngine, type CountingEngine } from './mutations-setup.js';

const SETUP = `
CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL UNIQUE, owner text, is_registered boolean NOT NULL DEFAULT false);
CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int REFERENCES author(id), published boolean DEFAULT false);
`;

const metadata = metadataOf([
  table('author', {
    array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'name', 'owner', 'is_registered'], filter: {} } }],
    insert_permissions: [{ role: 'user', permission: { columns: ['id', 'name', 'is_registered'], check: { is_registered: { _eq: false } }, set: { owner: 'X-Svc-User-Id' } } }],
    update_permissions: [{ role: 'user', permission: { columns: ['name'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } }],
  }),
  table('article', {
    object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'title', 'author_id'], filter: {} } }],
    insert_permissions: [{ role: 'user', permission: { columns: ['title', 'author_id'], check: { author: { owner: { _eq: 'X-Svc-User-Id' } } }, set: { published: false } } }],
  }),
]);

let db: TestDatabase;
let k: CountingEngine;
const asUser = (q: string, v?: Record<string, unknown>, id = 'u1') => k.run(q, v, 'user', { 'x-svc-user-id': id });
const count = async (sql: string): Promise<number> => Number((await db.query<{ n: string }>(sql))[0]!.n);

beforeAll(async () => {
  db = await createTestDatabase('mutins', SETUP);
  k = await startCountingEngine(metadata, db.url);
});
afterAll(async () => {
  await k?.close();
  await db?.drop();
});
beforeEach(async () => {
  await db.query('TRUNCATE article, author RESTART IDENTITY CASCADE');
  k.statements.length = 0;
});

describe('insert', () => {
  it('inserts rows and returns affected_rows and the rows the role may read', async () => {
    const r = await asUser('mutation { insert_author(objects: [{name: "A"}, {name: "B"}]) { affected_rows returning { id name owner } } }');
    expect(r).toEqual({ data: { insert_author: { affected_rows: 2, returning: [{ id: 1, name: 'A', owner: 'u1' }, { id: 2, name: 'B', owner: 'u1' }] } } });
  });

  it('insert_one answers the row, with variables bound as parameters', async () => {
    const q = 'mutation ($n: String!) { insert_author_one(object: {name: $n}) { id name } }';
    expect(await asUser(q, { n: 'x' })).toEqual({ data: { insert_author_one: { id: 1, name: 'x' } } });
    expect(await asUser(q, { n: "y'); DROP TABLE author; --" })).toEqual({ data: { insert_author_one: { id: 2, name: "y'); DROP TABLE author; --" } } });
  });

  it('presets override what the client could give and leave the input type', async () => {
    const r = await asUser('mutation { insert_author_one(object: {name: "A", owner: "evil"}) { id } }');
    expect(r.errors?.[0]).toEqual({ message: 'field "owner" not found in type: \'author_insert_input\'', extensions: { path: '$.selectionSet.insert_author_one.args.object.owner', code: 'validation-failed' } });
    await asUser('mutation { insert_author_one(object: {name: "A"}) { id } }', undefined, 'u7');
    expect(await db.query('SELECT owner FROM author')).toEqual([{ owner: 'u7' }]);
    expect(k.sdl['user']).not.toMatch(/input author_insert_input \{[^}]*owner/);
  });

  it('a role cannot write a column it was not granted', async () => {
    const r = await asUser('mutation { insert_article(objects: [{title: "t", published: true}]) { affected_rows } }');
    expect(r.errors?.[0]?.extensions.code).toBe('validation-failed');
    expect(r.errors?.[0]?.message).toBe('field "published" not found in type: \'article_insert_input\'');
    expect(await count('SELECT count(*) AS n FROM article')).toBe(0);
  });

  it('a row the check rejects fails the whole request and writes nothing', async () => {
    const r = await asUser('mutation { insert_author(objects: [{name: "ok"}, {name: "bad", is_registered: true}]) { affected_rows } }');
    expect(r).toEqual({ errors: [{ message: 'check constraint of an insert/update permission has failed',
      extensions: { path: '$.selectionSet.insert_author.args.objects', code: 'permission-error' } }] });
    expect(await count('SELECT count(*) AS n FROM author')).toBe(0);
  });

  it('several mutation fields run in one transaction, in order: a later failure undoes the earlier ones', async () => {
    const r = await asUser('mutation { a: insert_author_one(object: {name: "first"}) { id } b: insert_author_one(object: {name: "first"}) { id } }');
    expect(r.errors?.[0]?.extensions.code).toBe('constraint-violation');
    expect(r.errors?.[0]?.message).toBe('Uniqueness violation. duplicate key value violates unique constraint "author_name_key"');
    expect(await count('SELECT count(*) AS n FROM author')).toBe(0);
    const ok = await asUser('mutation { a: insert_author_one(object: {name: "x"}) { id } b: insert_author_one(object: {name: "y"}) { id } }');
    // Sequences are not transactional: the rolled-back request used ids 1 and 2.
    expect(ok).toEqual({ data: { a: { id: 3 }, b: { id: 4 } } });
  });

  it('a not-null violation answers constraint-violation and changes nothing', async () => {
    // `name` left out: an explicit null is refused before any SQL (test/fidelity/not-null-column-nulls.test.ts).
    const r = await k.run('mutation { insert_author(objects: [{name: "a"}, {owner: "o"}]) { affected_rows } }');
    expect(r.errors?.[0]?.extensions.code).toBe('constraint-violation');
    expect(r.errors?.[0]?.message).toMatch(/^Not-NULL violation\. null value in column "name"/);
    expect(await count('SELECT count(*) AS n FROM author')).toBe(0);
  });

  it('upserts with on_conflict: update_columns, DO NOTHING, and the update filter', async () => {
    await db.query("INSERT INTO author (name, owner) VALUES ('mine', 'u1'), ('theirs', 'u2')");
    const up = await asUser('mutation { insert_author(objects: [{id: 1, name: "mine2"}], on_conflict: {constraint: author_pkey, update_columns: [name]}) { affected_rows returning { id name } } }');
    expect(up).toEqual({ data: { insert_author: { affected_rows: 1, returning: [{ id: 1, name: 'mine2' }] } } });
    // The row of another owner is outside the update filter: untouched, not returned.
    const other = await asUser('mutation { insert_author(objects: [{id: 2, name: "stolen"}], on_conflict: {constraint: author_pkey, update_columns: [name]}) { affected_rows returning { id } } }');
    expect(other).toEqual({ data: { insert_author: { affected_rows: 0, returning: [] } } });
    const nothing = await asUser('mutation { insert_author(objects: [{id: 1, name: "zzz"}], on_conflict: {constraint: author_pkey}) { affected_rows } }');
    expect(nothing).toEqual({ data: { insert_author: { affected_rows: 0 } } });
    expect(await db.query('SELECT name FROM author ORDER BY id')).toEqual([{ name: 'mine2' }, { name: 'theirs' }]);
    const bad = await asUser('mutation { insert_author(objects: [{id: 1, name: "q"}], on_conflict: {constraint: author_pkey, update_columns: [is_registered]}) { affected_rows } }');
    expect(bad.errors?.[0]?.extensions.code).toBe('validation-failed');
  });

  it('inserts a parent with 100 children in one statement, children linked to the parent', async () => {
    const children = Array.from({ length: 100 }, (_, i) => ({ title: `t${i}` }));
    const r = await asUser('mutation ($c: [article_insert_input!]!) { insert_author_one(object: {name: "p", articles: {data: $c}}) { id articles { title } } }', { c: children });
    expect(r.data.insert_author_one.id).toBe(1);
    expect(r.data.insert_author_one.articles).toHaveLength(100);
    expect(k.statements.filter((s) => /INSERT/.test(s))).toHaveLength(1);
    expect(k.statements.filter((s) => s !== 'BEGIN' && !/^(COMMIT|ROLLBACK)$/.test(s))).toHaveLength(1);
    expect(await count('SELECT count(*) AS n FROM article WHERE author_id = 1')).toBe(100);
  });

  it('inserts an object-relationship parent first and checks the child against it', async () => {
    const r = await asUser('mutation { insert_article(objects: [{title: "a", author: {data: {name: "new"}}}]) { affected_rows returning { title author { name owner } } } }');
    expect(r).toEqual({ data: { insert_article: { affected_rows: 2, returning: [{ title: 'a', author: { name: 'new', owner: 'u1' } }] } } });
    await db.query("INSERT INTO author (name, owner) VALUES ('other', 'u2')");
    const denied = await asUser('mutation { insert_article(objects: [{title: "b", author_id: 2}]) { affected_rows } }');
    expect(denied.errors?.[0]?.extensions.code).toBe('permission-error');
    expect(await count('SELECT count(*) AS n FROM article')).toBe(1);
  });

  it('refuses a nested child that gives the column its parent determines', async () => {
    const r = await asUser('mutation { insert_author(objects: [{name: "p", articles: {data: [{title: "x", author_id: 5}]}}]) { affected_rows } }');
    expect(r.errors?.[0]).toEqual({ message: 'cannot insert "author_id" columns as their values are already being determined by parent insert',
      extensions: { path: '$.selectionSet.insert_author.args.objects[0].articles.data[0]', code: 'validation-failed' } });
  });
});
