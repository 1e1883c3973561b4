import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectPostgres, type Introspection } from '../../compiler/introspect/index.js';
import { connection, createCatalogDatabase, dropCatalogDatabase } from './catalog-fixture.js';

let db: Awaited<ReturnType<typeof createCatalogDatabase>> | undefined;
let snap: Introspection;

beforeAll(async () => {
  db = await createCatalogDatabase();
  snap = await introspectPostgres(connection(db.client));
});

afterAll(() => dropCatalogDatabase(db));

const table = (schema: string, name: string) => snap.tables.find((t) => t.schema === schema && t.name === name);
const column = (schema: string, name: string, col: string) => table(schema, name)?.columns.find((c) => c.name === col);

describe('introspectPostgres', () => {
  it('lists user schemas and relations sorted, leaving out system schemas and svc_catalog', () => {
    expect(snap.dialect).toBe('postgres');
    expect(snap.serverVersion).toMatch(/^\d+\.\d+/);
    expect(snap.schemas).toEqual(['public', 'shop']);
    expect(snap.tables.map((t) => `${t.schema}.${t.name}:${t.kind}`)).toEqual([
      'public.article:table', 'public.article_status:table', 'public.author:table',
      'public.author_names:view', 'public.author_stats:materialized_view', 'public.tag:table',
      'shop.region:table', 'shop.store:table', 'shop.store_count:view', 'shop.visit:partitioned_table',
      'shop.visit_2024:table',
    ]);
    expect(table('shop', 'visit')!.primaryKey).toEqual({ name: 'visit_pkey', columns: ['id', 'day'] });
  });

  it('reads columns in ordinal order with types, nullability, defaults, generation and comments', () => {
    const author = table('public', 'author')!;
    expect(author.comment).toBe('People who write');
    expect(author.columns.map((c) => [c.name, c.position])).toEqual([
      ['id', 1], ['name', 2], ['email', 3], ['tags', 4], ['mood', 5], ['info', 6], ['created_at', 8],
      ['name_upper', 9], ['rating', 10],
    ]);
    const base = { typeSchema: 'pg_catalog', typeKind: 'base', elementType: null, generated: null, comment: null };
    expect(author.columns[0]).toEqual({ ...base, name: 'id', position: 1, type: 'int4', nullable: false,
      default: "nextval('author_id_seq'::regclass)" });
    expect(author.columns[1]).toEqual({ ...base, name: 'name', position: 2, type: 'text', nullable: false,
      default: null, comment: 'Full name' });
    expect(author.columns[2]).toMatchObject({ type: 'email', typeSchema: 'public', typeKind: 'domain', nullable: true });
    expect(author.columns[3]).toEqual({ ...base, name: 'tags', position: 4, type: '_text', typeKind: 'array',
      elementType: 'text', nullable: false, default: "'{}'::text[]" });
    expect(author.columns[4]).toMatchObject({ type: 'mood', typeSchema: 'public', typeKind: 'enum' });
    expect(author.columns.map((c) => c.type)).toEqual(
      ['int4', 'text', 'email', '_text', 'mood', 'jsonb', 'timestamptz', 'text', 'numeric']);
    expect(column('public', 'author', 'created_at')?.default).toBe('now()');
    expect(column('public', 'author', 'name_upper')).toMatchObject({ generated: 'stored', default: null, nullable: true });
    expect(column('public', 'article', 'id')).toMatchObject({ generated: 'always', default: null, nullable: false });
    expect(column('public', 'article', 'uid')).toMatchObject({ type: 'uuid', default: 'gen_random_uuid()' });
    expect(column('shop', 'store', 'id')).toMatchObject({ type: 'int8', generated: 'by_default' });
  });

  it('reads primary keys, unique constraints sorted by name, and foreign keys in key order', () => {
    const article = table('public', 'article')!;
    expect(article.primaryKey).toEqual({ name: 'article_pkey', columns: ['id'] });
    expect(article.uniqueConstraints).toEqual([
      { name: 'article_author_title_key', columns: ['title', 'author_id'] },
      { name: 'article_title_key', columns: ['title'] },
    ]);
    expect(article.foreignKeys).toEqual([
      { name: 'article_author_id_fkey', columns: ['author_id'], refSchema: 'public', refTable: 'author', refColumns: ['id'] },
      { name: 'article_status_fkey', columns: ['status'], refSchema: 'public', refTable: 'article_status', refColumns: ['value'] },
    ]);
    expect(table('public', 'author')!.uniqueConstraints).toEqual([{ name: 'author_email_key', columns: ['email'] }]);
    expect(table('shop', 'region')!.primaryKey).toEqual({ name: 'region_pkey', columns: ['country', 'code'] });
    expect(table('shop', 'store')!.foreignKeys).toEqual([{
      name: 'store_region_fkey', columns: ['region_code', 'country'],
      refSchema: 'shop', refTable: 'region', refColumns: ['code', 'country'],
    }]);
    expect(table('public', 'author_names')!.primaryKey).toBeNull();
  });

  it('tells which relations accept insert, update and delete', () => {
    const all = { insertable: true, updatable: true, deletable: true };
    const none = { insertable: false, updatable: false, deletable: false };
    expect(table('public', 'author')!.mutable).toEqual(all);
    expect(table('public', 'author_names')!.mutable).toEqual(all);
    expect(table('shop', 'store_count')!.mutable).toEqual(none);
    expect(table('public', 'author_stats')!.mutable).toEqual(none);
    expect(column('public', 'author_names', 'name')).toMatchObject({ type: 'text', nullable: true });
  });

  it('reads plain functions with input arguments, defaults, return kinds and overload counts', () => {
    expect(snap.functions.map((f) => `${f.schema}.${f.name}(${f.args.map((a) => a.type).join(',')})`)).toEqual([
      'public.add(int4,int4)', 'public.add(numeric,numeric)', 'public.first_mood(_mood)',
      'public.search_articles(text)', 'public.stats(int4)', 'shop.stamp()', 'shop.touch(int8)',
    ]);
    const [addInt, addNum, firstMood, search, stats, stamp, touch] = snap.functions;
    expect(search).toEqual({
      schema: 'public', name: 'search_articles', comment: 'Full-text-ish search', volatility: 'stable',
      args: [{ name: 'search', type: 'text', typeSchema: 'pg_catalog', hasDefault: false }],
      returnType: 'article', returnTypeSchema: 'public', returnKind: 'table', returnsSet: true, overloads: 1,
    });
    expect(addInt).toMatchObject({ volatility: 'immutable', returnType: 'int4', returnKind: 'scalar', returnsSet: false, overloads: 2 });
    expect(addInt!.args).toEqual([
      { name: 'a', type: 'int4', typeSchema: 'pg_catalog', hasDefault: false },
      { name: 'b', type: 'int4', typeSchema: 'pg_catalog', hasDefault: true },
    ]);
    expect(addNum!.args.map((a) => a.hasDefault)).toEqual([false, false]);
    expect(addNum!.overloads).toBe(2);
    expect(firstMood).toMatchObject({ returnType: 'mood', returnTypeSchema: 'public', returnKind: 'scalar' });
    expect(firstMood!.args).toEqual([{ name: 'moods', type: '_mood', typeSchema: 'public', hasDefault: false }]);
    expect(stats).toMatchObject({ returnType: 'record', returnKind: 'other', volatility: 'volatile' });
    expect(stats!.args).toEqual([{ name: 'x', type: 'int4', typeSchema: 'pg_catalog', hasDefault: false }]);
    expect(stamp).toMatchObject({ returnType: 'trigger', returnKind: 'other', args: [] });
    expect(touch).toMatchObject({ returnType: 'void', returnKind: 'void', volatility: 'volatile', comment: null });
  });

  it('lists user types: enums with labels in declared order, domains with their base type', () => {
    expect(snap.types).toEqual([
      { schema: 'public', name: 'email', kind: 'domain', baseType: 'text', baseTypeSchema: 'pg_catalog' },
      { schema: 'public', name: 'mood', kind: 'enum', enumValues: ['sad', 'ok', 'happy'] },
    ]);
  });

  it('reads the rows of enum-shaped tables, sorted by value in byte order', () => {
    expect(snap.enumValues).toEqual([
      { schema: 'public', name: 'article_status', values: [
        { value: 'Zeta', comment: 'Last' }, { value: 'archived', comment: 'Old' },
        { value: 'draft', comment: null }, { value: 'published', comment: 'Visible' },
      ] },
      { schema: 'public', name: 'tag', values: [{ value: 'a', comment: null }, { value: 'b', comment: null }] },
    ]);
  });

  it('reads at most 10,000 rows of an enum table, the lowest values', async () => {
    await db!.client.query(`CREATE SCHEMA big;
      CREATE TABLE big.code (value text PRIMARY KEY, comment text);
      INSERT INTO big.code SELECT lpad(i::text, 5, '0'), NULL FROM generate_series(1, 10001) AS i`);
    const big = await introspectPostgres(connection(db!.client));
    await db!.client.query('DROP SCHEMA big CASCADE');
    const code = big.enumValues.find((e) => e.schema === 'big')!;
    expect(code.values).toHaveLength(10_000);
    expect(code.values[0]).toEqual({ value: '00001', comment: null });
    expect(code.values.at(-1)).toEqual({ value: '10000', comment: null });
  });

  it('gives plain JSON that round-trips, identical on a second run', async () => {
    const text = JSON.stringify(snap);
    expect(JSON.parse(text)).toStrictEqual(snap);
    expect(JSON.stringify(await introspectPostgres(connection(db!.client)))).toBe(text);
  });
});
