import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectPostgres, type IntrospectedColumn, type IntrospectedFunction, type IntrospectedTable, type Introspection } from '../../compiler/introspect/index.js';
import type { Metadata, Source, TableEntry } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import { emptyMetadata, reconcileCatalog } from '../../compiler/ops/index.js';
import { createPgDriver } from '../../runtime/drivers/index.js';
import { ApiError } from '../../runtime/errors/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

// ---- snapshots and documents built by hand ----

const col = (name: string, position: number, type = 'int4'): IntrospectedColumn => ({
  name, position, type, typeSchema: 'pg_catalog', typeKind: 'base', elementType: null, nullable: true, default: null, generated: null, comment: null,
});

const tbl = (name: string, columns: readonly IntrospectedColumn[], extra: Partial<IntrospectedTable> = {}): IntrospectedTable => ({
  schema: 'public', name, kind: 'table', comment: null, columns,
  primaryKey: { name: `${name}_pkey`, columns: [columns[0]!.name] }, uniqueConstraints: [], foreignKeys: [], ...extra,
});

const fn = (name: string, volatility: IntrospectedFunction['volatility'], args: readonly string[] = ['text'], overloads = 1): IntrospectedFunction => ({
  schema: 'public', name, comment: null, volatility, args: args.map((type) => ({ name: null, type, typeSchema: 'pg_catalog', hasDefault: false })),
  returnType: 'article', returnTypeSchema: 'public', returnKind: 'table', returnsSet: true, overloads,
});

const snap = (tables: readonly IntrospectedTable[], functions: readonly IntrospectedFunction[] = []): Introspection => ({
  dialect: 'postgres', schemas: ['public'], tables, functions, enumValues: [],
});

const fk = (name: string, columns: string[], refTable: string, refColumns: string[]) => ({ name, columns, refSchema: 'public', refTable, refColumns });

const AUTHOR = tbl('author', [col('id', 1), col('name', 2, 'text')]);
const ARTICLE = tbl('article', [col('id', 1), col('title', 2, 'text'), col('author_id', 3)], {
  foreignKeys: [fk('article_author_id_fkey', ['author_id'], 'author', ['id'])],
});
const BEFORE = snap([ARTICLE, AUTHOR]);

const withTables = (tables: readonly TableEntry[], extra: Partial<Source> = {}): Metadata => {
  const md = emptyMetadata();
  return { ...md, sources: [{ ...md.sources[0]!, tables, ...extra }] };
};
const entry = (md: Metadata, name: string): TableEntry => md.sources[0]!.tables.find((t) => t.table.name === name)!;
const t = (name: string) => ({ schema: 'public', name });
const body = (p: unknown): Record<string, unknown> => p as Record<string, unknown>;

/** A document that names author.id and article.author_id in every place Hasura renames them. */
function blog(): Metadata {
  return withTables([
    {
      table: t('article'),
      configuration: { custom_name: 'post', custom_column_names: { author_id: 'writer' }, column_config: { author_id: { custom_name: 'writer' } } },
      object_relationships: [
        { name: 'author', using: { foreign_key_constraint_on: 'author_id' } },
        { name: 'by_mapping', using: { manual_configuration: { remote_table: t('author'), column_mapping: { author_id: 'id' } } } },
      ],
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'title', 'author_id'], filter: { author: { id: 'X-Svc-User-Id' } } } }],
      insert_permissions: [{ role: 'user', permission: { columns: '*', check: { author_id: { _eq: 'X-Svc-User-Id' } }, set: { author_id: 'X-Svc-User-Id' } } }],
      update_permissions: [{ role: 'user', permission: { columns: ['title'], filter: { _and: [{ author_id: { _ceq: 'id' } }, { $not: { title: { _eq: 'x' } } }] }, check: {} } }],
      delete_permissions: [{ role: 'user', permission: { filter: { _exists: { _table: 'author', _where: { id: { _eq: 1 } } } } } }],
      event_triggers: [{ name: 'ev', definition: { enable_manual: false, update: { columns: ['author_id', 'title'], payload: ['author_id'] }, insert: { columns: '*' } } }],
    },
    {
      table: t('author'),
      array_relationships: [
        { name: 'articles', using: { foreign_key_constraint_on: { table: t('article'), column: 'author_id' } } },
        { name: 'posts', using: { manual_configuration: { remote_table: t('article'), column_mapping: { id: 'author_id' } } } },
      ],
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { articles: { author_id: { _eq: 'X-Svc-User-Id' } } } } }],
    },
  ]);
}

describe('reconcileCatalog: column renames', () => {
  it('a renamed column follows into configuration, relationships on both sides, permissions and event triggers', () => {
    const after = snap([tbl('article', [col('id', 1), col('title', 2, 'text'), col('writer_id', 3)], {
      foreignKeys: [fk('article_author_id_fkey', ['writer_id'], 'author', ['id'])],
    }), AUTHOR]);
    const out = reconcileCatalog(blog(), 'default', BEFORE, after);
    const article = entry(out, 'article');
    expect(article.configuration).toEqual({ custom_name: 'post', custom_column_names: { writer_id: 'writer' }, column_config: { writer_id: { custom_name: 'writer' } } });
    expect(article.object_relationships!.map((r) => r.using)).toEqual([
      { foreign_key_constraint_on: 'writer_id' },
      { manual_configuration: { remote_table: t('author'), column_mapping: { writer_id: 'id' } } },
    ]);
    expect(article.select_permissions![0]!.permission).toEqual({ columns: ['id', 'title', 'writer_id'], filter: { author: { id: 'X-Svc-User-Id' } } });
    expect(article.insert_permissions![0]!.permission).toEqual({ columns: '*', check: { writer_id: { _eq: 'X-Svc-User-Id' } }, set: { writer_id: 'X-Svc-User-Id' } });
    expect(body(article.update_permissions![0]!.permission)['filter']).toEqual({ _and: [{ writer_id: { _ceq: 'id' } }, { $not: { title: { _eq: 'x' } } }] });
    expect(article.event_triggers).toEqual([{ name: 'ev', definition: { enable_manual: false, update: { columns: ['writer_id', 'title'], payload: ['writer_id'] }, insert: { columns: '*' } } }]);
    const author = entry(out, 'author');
    expect(author.array_relationships!.map((r) => r.using)).toEqual([
      { foreign_key_constraint_on: { table: t('article'), column: 'writer_id' } },
      { manual_configuration: { remote_table: t('article'), column_mapping: { id: 'writer_id' } } },
    ]);
    // A filter of another table reaching article through a relationship.
    expect(author.select_permissions![0]!.permission.filter).toEqual({ articles: { writer_id: { _eq: 'X-Svc-User-Id' } } });
  });

  it('a renamed key column is followed through filters of other tables, _exists and manual mappings', () => {
    const after = snap([ARTICLE, tbl('author', [col('author_id', 1), col('name', 2, 'text')], { primaryKey: { name: 'author_pkey', columns: ['author_id'] } })]);
    const out = reconcileCatalog(blog(), 'default', BEFORE, after);
    const article = entry(out, 'article');
    expect(article.select_permissions![0]!.permission.filter).toEqual({ author: { author_id: 'X-Svc-User-Id' } });
    expect(article.delete_permissions![0]!.permission).toEqual({ filter: { _exists: { _table: 'author', _where: { author_id: { _eq: 1 } } } } });
    expect(article.object_relationships![1]!.using.manual_configuration!.column_mapping).toEqual({ author_id: 'author_id' });
    expect(article.object_relationships![0]!.using).toEqual({ foreign_key_constraint_on: 'author_id' });
    const author = entry(out, 'author');
    expect(author.select_permissions![0]!.permission.columns).toEqual(['author_id', 'name']);
    expect(author.array_relationships![1]!.using.manual_configuration!.column_mapping).toEqual({ author_id: 'author_id' });
  });

  it('a column at the same position with another type is not taken for a rename', () => {
    const after = snap([tbl('article', [col('id', 1), col('headline', 2, 'varchar'), col('author_id', 3)], { foreignKeys: ARTICLE.foreignKeys }), AUTHOR]);
    const md = blog();
    expect(reconcileCatalog(md, 'default', BEFORE, after)).toBe(md);
  });

  it('a dropped column and a new one (a new position) are not a rename; `["$", col]` operands follow the root table', () => {
    const md = withTables([{ table: t('article'), select_permissions: [{ role: 'u', permission: { columns: ['title'], filter: { author: { id: { _ceq: ['$', 'author_id'] } } } } }],
      object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }] }]);
    const dropped = snap([tbl('article', [col('id', 1), col('author_id', 3), col('heading', 4, 'text')], { foreignKeys: ARTICLE.foreignKeys }), AUTHOR]);
    expect(reconcileCatalog(md, 'default', BEFORE, dropped)).toBe(md);
    const renamed = snap([tbl('article', [col('id', 1), col('title', 2, 'text'), col('by', 3)], { foreignKeys: [fk('article_author_id_fkey', ['by'], 'author', ['id'])] }), AUTHOR]);
    expect(entry(reconcileCatalog(md, 'default', BEFORE, renamed), 'article').select_permissions![0]!.permission.filter)
      .toEqual({ author: { id: { _ceq: ['$', 'by'] } } });
  });
});

describe('reconcileCatalog: table renames', () => {
  const renamedArticle = (extra: Partial<IntrospectedTable> = {}) => ({ ...ARTICLE, name: 'articles', ...extra });

  it('a renamed table keeps its entry (and custom name) under the new name, and references to it follow', () => {
    const out = reconcileCatalog(blog(), 'default', BEFORE, snap([renamedArticle(), AUTHOR]));
    expect(out.sources[0]!.tables.map((e) => e.table.name)).toEqual(['articles', 'author']);
    expect(entry(out, 'articles').configuration!.custom_name).toBe('post');
    expect(entry(out, 'author').array_relationships!.map((r) => r.using)).toEqual([
      { foreign_key_constraint_on: { table: t('articles'), column: 'author_id' } },
      { manual_configuration: { remote_table: t('articles'), column_mapping: { id: 'author_id' } } },
    ]);
  });

  it('a table and its column renamed in one statement are both followed', () => {
    const after = snap([renamedArticle({ columns: [col('article_id', 1), col('title', 2, 'text'), col('author_id', 3)] }), AUTHOR]);
    const out = reconcileCatalog(blog(), 'default', BEFORE, after);
    expect(entry(out, 'articles').select_permissions![0]!.permission.columns).toEqual(['article_id', 'title', 'author_id']);
    expect(body(entry(out, 'articles').update_permissions![0]!.permission)['filter']).toEqual({ _and: [{ author_id: { _ceq: 'article_id' } }, { $not: { title: { _eq: 'x' } } }] });
  });

  it('_exists follows a renamed table in either spelling', () => {
    const md = withTables([{ table: t('author'), select_permissions: [{ role: 'u', permission: { columns: [], filter: {
      _or: [{ _exists: { _table: 'article', _where: { id: { _eq: 1 } } } }, { _exists: { _table: t('article'), _where: { title: { _eq: 'a' } } } }],
    } } }] }]);
    const after = snap([renamedArticle({ schema: 'blog', columns: [col('id', 1), col('heading', 2, 'text'), col('author_id', 3)] }), AUTHOR]);
    expect(entry(reconcileCatalog(md, 'default', BEFORE, after), 'author').select_permissions![0]!.permission.filter).toEqual({
      _or: [{ _exists: { _table: { schema: 'blog', name: 'articles' }, _where: { id: { _eq: 1 } } } },
        { _exists: { _table: { schema: 'blog', name: 'articles' }, _where: { heading: { _eq: 'a' } } } }],
    });
  });

  it('a table dropped and another created is no rename when the constraint names differ, or when the match is ambiguous', () => {
    const md = blog();
    const recreated = renamedArticle({ primaryKey: { name: 'articles_pkey', columns: ['id'] } });
    expect(reconcileCatalog(md, 'default', BEFORE, snap([recreated, AUTHOR]))).toBe(md);
    const twins = snap([tbl('a', [col('id', 1)], { primaryKey: null }), tbl('b', [col('id', 1)], { primaryKey: null })]);
    const twinsRenamed = snap([tbl('c', [col('id', 1)], { primaryKey: null }), tbl('d', [col('id', 1)], { primaryKey: null })]);
    const md2 = withTables([{ table: t('a') }, { table: t('b') }]);
    expect(reconcileCatalog(md2, 'default', twins, twinsRenamed)).toBe(md2);
  });

  it('remote relationships into the renamed source follow, from any source', () => {
    const other: Source = { name: 'other', kind: 'postgres', configuration: {}, tables: [{ table: t('profile'), remote_relationships: [
      { name: 'arts', definition: { to_source: { source: 'default', table: t('article'), relationship_type: 'array', field_mapping: { id: 'author_id' } } } },
    ] }] };
    const md0 = blog();
    const md: Metadata = { ...md0, sources: [...md0.sources, other] };
    const after = snap([renamedArticle({ columns: [col('id', 1), col('title', 2, 'text'), col('writer_id', 3)], foreignKeys: [fk('article_author_id_fkey', ['writer_id'], 'author', ['id'])] }), AUTHOR]);
    const out = reconcileCatalog(md, 'default', BEFORE, after);
    expect(out.sources[1]!.tables[0]!.remote_relationships).toEqual([
      { name: 'arts', definition: { to_source: { source: 'default', table: t('articles'), relationship_type: 'array', field_mapping: { id: 'writer_id' } } } },
    ]);
  });
});

describe('reconcileCatalog: nothing to carry', () => {
  it('returns the same document without a snapshot before, for an unknown source, or when only untracked objects changed', () => {
    const md = blog();
    expect(reconcileCatalog(md, 'default', null, snap([ARTICLE, AUTHOR]))).toBe(md);
    expect(reconcileCatalog(md, 'nope', BEFORE, snap([]))).toBe(md);
    const withLog = snap([ARTICLE, AUTHOR, tbl('log', [col('id', 1), col('msg', 2, 'text')])]);
    expect(reconcileCatalog(md, 'default', withLog, snap([ARTICLE, AUTHOR, tbl('log', [col('id', 1), col('message', 2, 'text')])]))).toBe(md);
    expect(reconcileCatalog(md, 'default', BEFORE, BEFORE)).toBe(md);
  });
});

describe('reconcileCatalog: tracked functions', () => {
  const tracked = withTables([], { functions: [{ function: t('search_posts') }] });
  const error = (f: () => unknown): { code: string; message: string; path: readonly (string | number)[] } => {
    try { f(); } catch (e) { if (e instanceof ApiError) return { code: e.code, message: e.message, path: e.path }; throw e; }
    throw new Error('expected an ApiError');
  };

  it('refuses an overload of a tracked function (corpus overloading_function_error)', () => {
    const before = snap([], [fn('search_posts', 'stable')]);
    const after = snap([], [fn('search_posts', 'stable', ['text'], 2), fn('search_posts', 'stable', ['text', 'int4'], 2)]);
    expect(error(() => reconcileCatalog(tracked, 'default', before, after)))
      .toEqual({ code: 'not-supported', message: 'the following tracked function(s) cannot be overloaded: search_posts', path: ['args'] });
    // Overloads of an untracked function, and a tracked one overloaded already, pass.
    const untracked = withTables([]);
    expect(reconcileCatalog(untracked, 'default', before, after)).toBe(untracked);
    expect(reconcileCatalog(tracked, 'default', after, after)).toBe(tracked);
  });

  it('refuses making a tracked function VOLATILE (corpus alter_function_error)', () => {
    const before = snap([], [fn('search_posts', 'stable')]);
    expect(error(() => reconcileCatalog(tracked, 'default', before, snap([], [fn('search_posts', 'volatile')]))))
      .toEqual({ code: 'not-supported', message: 'type of function "search_posts" is altered to "VOLATILE" which is not supported now', path: ['args'] });
    expect(reconcileCatalog(tracked, 'default', before, snap([], [fn('search_posts', 'immutable')]))).toBe(tracked);
    const volatile = snap([], [fn('search_posts', 'volatile')]);
    expect(reconcileCatalog(tracked, 'default', volatile, volatile)).toBe(tracked);
  });
});

// ---- real DDL on a test database ----

describe('reconcileCatalog on a real catalog', () => {
  let db: TestDatabase;
  const read = async (): Promise<Introspection> => {
    const driver = createPgDriver({ url: db.url, max: 1 });
    try { return await introspectPostgres(driver); } finally { await driver.close(); }
  };
  const issues = (md: Metadata, catalog: Introspection) => resolveModel(md, { engineVersion: 'test', introspection: { default: catalog } }).inconsistencies;

  beforeAll(async () => {
    db = await createTestDatabase('ops_reconcile', `
      create table author (id serial primary key, name text unique);
      create table article (id serial primary key, title text not null, content text, author_id integer not null references author(id));
      create function search_posts(search text) returns setof article as $$ select * from article where title ilike search $$ language sql stable;
    `);
  });
  afterAll(async () => { await db.drop(); });

  it('renames of a table and its columns in one statement keep the document consistent', async () => {
    const before = await read();
    const md = blog();
    expect(issues(md, before)).toEqual([]);
    await db.exec('alter table article rename to articles; alter table articles rename column id to article_id; alter table articles rename column author_id to writer_id; alter table author rename column id to author_id');
    const after = await read();
    expect(issues(md, after).length).toBeGreaterThan(0);
    const out = reconcileCatalog(md, 'default', before, after);
    expect(issues(out, after)).toEqual([]);
    expect(entry(out, 'articles').object_relationships![0]!.using).toEqual({ foreign_key_constraint_on: 'writer_id' });
    expect(entry(out, 'articles').select_permissions![0]!.permission).toEqual({ columns: ['article_id', 'title', 'writer_id'], filter: { author: { author_id: 'X-Svc-User-Id' } } });
    expect(entry(out, 'author').array_relationships![0]!.using).toEqual({ foreign_key_constraint_on: { table: t('articles'), column: 'writer_id' } });
    await db.exec('alter table articles rename to article; alter table article rename column article_id to id; alter table article rename column writer_id to author_id; alter table author rename column author_id to id');
    const back = reconcileCatalog(out, 'default', after, await read());
    expect(back).toEqual(md);
  });

  it('a table dropped and created again under another name is not a rename', async () => {
    const before = await read();
    await db.exec('create table note (id serial primary key, body text); ');
    const withNote = await read();
    const md = withTables([{ table: t('note') }]);
    await db.exec('drop table note; create table memo (id serial primary key, body text)');
    expect(reconcileCatalog(md, 'default', withNote, await read())).toBe(md);
    await db.exec('drop table memo');
    expect((await read()).tables.length).toBe(before.tables.length);
  });

  it('an overload or a VOLATILE replacement of a tracked function is refused', async () => {
    const md = withTables([{ table: t('article') }], { functions: [{ function: t('search_posts') }] });
    const before = await read();
    await db.exec('create function search_posts(search text, n integer) returns setof article as $$ select * from article limit n $$ language sql stable');
    const overloaded = await read();
    expect(() => reconcileCatalog(md, 'default', before, overloaded)).toThrow('the following tracked function(s) cannot be overloaded: search_posts');
    await db.exec('drop function search_posts(text, integer)');
    await db.exec('create or replace function search_posts(search text) returns setof article as $$ select * from article where title ilike search $$ language sql volatile');
    const volatile = await read();
    expect(() => reconcileCatalog(md, 'default', before, volatile)).toThrow('type of function "search_posts" is altered to "VOLATILE" which is not supported now');
  });
});
