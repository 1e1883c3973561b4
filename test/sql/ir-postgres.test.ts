// Each IR node kind, built by hand, rendered by the PostgreSQL renderer and run on a database of
// its own: the rows and JSON must be what the node means.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindParams } from '../../runtime/graphql/index.js';
import {
  Alias, bigquery, compileSql, makeTemplate, mssql, templateText, multiplexParams, multiplexValue, postgres, readsOf, subscriberCohort, type Cond, type LiveQuery, type Stream, type Expr, type JsonObject, type JsonValue, type Permission, type RowSet, type Slot, type Source,
} from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SETUP = `
  CREATE EXTENSION IF NOT EXISTS postgis;
  CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, score numeric, tags text[], meta jsonb, home geometry);
  CREATE TABLE article (id int PRIMARY KEY, author_id int REFERENCES author(id), title text NOT NULL, rating int);
  INSERT INTO author VALUES
    (1, 'ada', 12345678901234567890.5, '{x,y}', '{"a": {"b": [10, 20]}, "k": 1}', 'SRID=4326;POINT(0 0)'),
    (2, 'bob', 2, '{y}', '{"k": 2}', 'SRID=4326;POINT(10 10)'),
    (3, 'cy', NULL, NULL, NULL, NULL);
  INSERT INTO article VALUES (1, 1, 'one', 5), (2, 1, 'two', 3), (3, 2, 'three', 4), (4, 2, 'four', NULL), (5, 3, 'five', 1);
  CREATE FUNCTION author_shout(a author) RETURNS text LANGUAGE sql STABLE AS $$ SELECT upper(a.name) $$;
  CREATE FUNCTION author_best(a author) RETURNS SETOF article LANGUAGE sql STABLE AS $$ SELECT * FROM article WHERE author_id = a.id AND rating >= 3 $$;
  CREATE FUNCTION author_first(a author) RETURNS article LANGUAGE sql STABLE AS $$ SELECT * FROM article WHERE author_id = a.id AND false $$;
  CREATE FUNCTION rated(min_rating int, hasura_session json) RETURNS SETOF article LANGUAGE sql STABLE
    AS $$ SELECT * FROM article WHERE rating >= min_rating AND author_id::text = hasura_session->>'x-svc-user-id' $$;
`;

let db: TestDatabase;
beforeAll(async () => { db = await createTestDatabase('ir_pg', SETUP); });
afterAll(async () => { await db?.drop(); });

const SESSION = { role: 'user', variables: { 'x-svc-user-id': '1', 'x-svc-min': '3' }, isAdmin: false };

/** Renders root fields, runs the statement, and answers its JSON and what rendering learned. */
async function run(fields: { [key: string]: JsonValue }, variables: Record<string, unknown> = {}): Promise<{ data: any; text: string; valueSensitive: boolean }> {
  const rc = { dialect: postgres, hints: { valueSensitive: false } };
  const compiled = compileSql(postgres.render.statement(Object.entries(fields).map(([key, value]) => ({ key, value })), rc), postgres);
  const rows = await db.query(compiled.text, bindParams(compiled.params, variables, SESSION));
  return { data: JSON.parse(Object.values(rows[0]!)[0] as string), text: compiled.text, valueSensitive: rc.hints.valueSensitive };
}

const table = (name: string): Source => ({ kind: 'table', table: { schema: 'public', name } });
const col = (row: Alias, column: string): Expr => ({ kind: 'column', row, column });
const lit = (value: unknown, type: string | null): Expr => ({ kind: 'param', value: { kind: 'literal', value }, type });
const slot = (value: Slot, type: string): Expr => ({ kind: 'param', value, type });
const json = (expr: Expr): JsonValue => ({ kind: 'scalar', expr, output: 'json' });
const shape = (fields: { [key: string]: JsonValue }): JsonObject => ({ kind: 'object', fields: Object.entries(fields).map(([key, value]) => ({ key, value })) });
const ALL: Permission = { filter: { kind: 'true' }, limit: null };

function rows(row: Alias, from: Source, extra: Partial<RowSet> = {}): RowSet {
  return { from, row, join: [], permission: ALL, where: null, order: [], distinctOn: null, limit: null, offset: null, countsAllRows: false, rowTyped: false, ...extra };
}

describe('query IR rendered for PostgreSQL', () => {
  it('list: columns, names, JSON paths, stringified and GeoJSON scalars, ordered', async () => {
    const a = new Alias('author');
    const out = await run({ list: { kind: 'list', shape: shape({
      id: json(col(a, 'id')), t: { kind: 'name', name: 'author' },
      b1: json({ kind: 'json_path', expr: col(a, 'meta'), path: lit(['a', 'b', '1'], 'text[]') }),
      score: { kind: 'scalar', expr: col(a, 'score'), output: 'string' },
      home: { kind: 'scalar', expr: col(a, 'home'), output: 'geojson' },
    }), rows: rows(a, table('author'), { order: [{ expr: col(a, 'score'), dir: 'desc_nulls_last' }] }) } });
    expect(out.data.list.map((r: any) => [r.id, r.t, r.b1, r.score])).toEqual([[1, 'author', 20, '12345678901234567890.5'], [2, 'author', null, '2'], [3, 'author', null, null]]);
    expect(out.data.list[1].home).toMatchObject({ type: 'Point', coordinates: [10, 10] });
  });

  it('list: the permission filter and row limit hold whatever the request asks', async () => {
    const a = new Alias('article');
    const permission: Permission = { filter: { kind: 'equals', left: col(a, 'author_id'), right: slot({ kind: 'session', name: 'x-svc-user-id' }, 'int4') }, limit: 1 };
    const out = await run({ l: { kind: 'list', shape: shape({ id: json(col(a, 'id')) }),
      rows: rows(a, table('article'), { permission, order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }], limit: { kind: 'literal', value: 10 } }) } });
    expect(out.data.l).toEqual([{ id: 1 }]);
    // Rows a role may not read are gone even with a where that asks for them.
    const b = new Alias('article');
    const p2: Permission = { filter: { kind: 'equals', left: col(b, 'author_id'), right: slot({ kind: 'session', name: 'x-svc-user-id' }, 'int4') }, limit: null };
    const out2 = await run({ l: { kind: 'list', shape: shape({ id: json(col(b, 'id')) }),
      rows: rows(b, table('article'), { permission: p2, where: { kind: 'compare', left: col(b, 'id'), op: 'gte', right: lit(3, 'int4') } }) } });
    expect(out2.data.l).toEqual([]);
  });

  it('list: a filtered, ordered, limited list runs under a planning bound and is marked value-sensitive', async () => {
    const a = new Alias('article');
    const out = await run({ l: { kind: 'list', shape: shape({ id: json(col(a, 'id')) }), rows: rows(a, table('article'), {
      where: { kind: 'compare', left: col(a, 'rating'), op: 'gte', right: slot({ kind: 'variable', name: 'min', path: [] }, 'int4') },
      order: [{ expr: col(a, 'rating'), dir: 'desc_nulls_last' }], limit: { kind: 'literal', value: 3 } }) } }, { min: 2 });
    expect(out.data.l).toEqual([{ id: 1 }, { id: 3 }, { id: 2 }]);
    expect(out.text).toMatch(/WITH "_article_\d+" AS MATERIALIZED \(.*LIMIT 4\)/s);
    expect(out.valueSensitive).toBe(true);
  });

  it('list: the planning bound\'s CTE keeps the columns read outside it, the row\'s JSON and a relationship\'s key, not its order key', async () => {
    const a = new Alias('article');
    const u = new Alias('author');
    const out = await run({ l: { kind: 'list', shape: shape({
      title: json(col(a, 'title')),
      author: { kind: 'one', from: table('author'), row: u, join: [{ kind: 'equals', left: col(u, 'id'), right: col(a, 'author_id') }], permission: ALL,
        shape: shape({ name: json(col(u, 'name')) }) },
    }), rows: rows(a, table('article'), {
      where: { kind: 'compare', left: col(a, 'rating'), op: 'gte', right: lit(2, 'int4') },
      order: [{ expr: col(a, 'id'), dir: 'desc_nulls_last' }], limit: { kind: 'literal', value: 2 } }) } });
    expect(out.data.l).toEqual([{ title: 'three', author: { name: 'bob' } }, { title: 'two', author: { name: 'ada' } }]);
    const cte = /AS MATERIALIZED \(SELECT (.*?) FROM "public"\."article"/s.exec(out.text)?.[1];
    // The rows leave the CTE in its order, which json_agg keeps: `id` orders them inside only.
    expect(cte).toMatch(/^"_article_\d+"\."title", "_article_\d+"\."author_id"$/);
    expect(out.text).not.toMatch(/json_agg\([^()]*ORDER BY/);
  });

  it('list: the planning bound\'s CTE keeps the whole row when the row is read whole', async () => {
    const a = new Alias('author');
    const shout: Expr = { kind: 'call', fn: { schema: 'public', name: 'author_shout' }, args: [{ name: null, value: { kind: 'row', row: a } }] };
    const out = await run({ l: { kind: 'list', shape: shape({ id: json(col(a, 'id')), shout: json(shout) }), rows: rows(a, table('author'), {
      where: { kind: 'compare', left: col(a, 'id'), op: 'lte', right: lit(2, 'int4') },
      order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }], limit: { kind: 'literal', value: 5 } }) } });
    expect(out.data.l).toEqual([{ id: 1, shout: 'ADA' }, { id: 2, shout: 'BOB' }]);
    expect(out.text).toMatch(/AS MATERIALIZED \(SELECT "_author_\d+"\.\* FROM/);
  });

  it('list: offset, a variable limit and DISTINCT ON', async () => {
    const a = new Alias('article');
    const out = await run({ l: { kind: 'list', shape: shape({ a: json(col(a, 'author_id')), id: json(col(a, 'id')) }), rows: rows(a, table('article'), {
      order: [{ expr: col(a, 'author_id'), dir: 'asc_nulls_last' }, { expr: col(a, 'id'), dir: 'desc_nulls_first' }],
      distinctOn: [col(a, 'author_id')], limit: { kind: 'variable', name: 'n' }, offset: lit(1, 'int8') }) } }, { n: 5 });
    expect(out.data.l).toEqual([{ a: 2, id: 4 }, { a: 3, id: 5 }]);
  });

  it('one: a primary-key lookup, an object relationship, a computed scalar and an empty single-row function', async () => {
    const a = new Alias('article');
    const u = new Alias('author');
    const f = new Alias('article');
    const author: JsonValue = { kind: 'one', from: table('author'), row: u, permission: ALL,
      join: [{ kind: 'equals', left: col(u, 'id'), right: col(a, 'author_id') }],
      shape: shape({ name: json(col(u, 'name')),
        shout: json({ kind: 'call', fn: { schema: 'public', name: 'author_shout' }, args: [{ name: null, value: { kind: 'row', row: u } }] }),
        first: { kind: 'one', from: { kind: 'function', call: { kind: 'call', fn: { schema: 'public', name: 'author_first' }, args: [{ name: null, value: { kind: 'row', row: u } }] } },
          row: f, permission: ALL, join: [{ kind: 'row_present', row: f }], shape: shape({ id: json(col(f, 'id')) }) } }) };
    const out = await run({ one: { kind: 'one', from: table('article'), row: a, permission: ALL,
      join: [{ kind: 'equals', left: col(a, 'id'), right: lit(3, 'int4') }], shape: shape({ title: json(col(a, 'title')), author }) },
    none: { kind: 'one', from: table('article'), row: new Alias('x'), permission: { filter: { kind: 'or', items: [] }, limit: null }, join: [], shape: shape({ t: { kind: 'name', name: 'x' } }) } });
    expect(out.data).toEqual({ one: { title: 'three', author: { name: 'bob', shout: 'BOB', first: null } }, none: null });
  });

  it('function sources: named arguments and the session as JSON', async () => {
    const a = new Alias('article');
    const from: Source = { kind: 'function', call: { kind: 'call', fn: { schema: 'public', name: 'rated' }, args: [
      { name: null, value: lit(3, 'int4') }, { name: null, value: { kind: 'session_json' } }] } };
    const out = await run({ l: { kind: 'list', shape: shape({ id: json(col(a, 'id')) }), rows: rows(a, from, { order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }] }) } });
    expect(out.data.l).toEqual([{ id: 1 }, { id: 2 }]);
    const b = new Alias('article');
    const named: Source = { kind: 'function', call: { kind: 'call', fn: { schema: 'public', name: 'rated' }, args: [
      { name: 'hasura_session', value: { kind: 'session_json' } }, { name: 'min_rating', value: lit(5, 'int4') }] } };
    expect((await run({ l: { kind: 'list', shape: shape({ id: json(col(b, 'id')) }), rows: rows(b, named) } })).data.l).toEqual([{ id: 1 }]);
  });

  it('aggregate: count (distinct, of columns), sum, max as string, nodes, and nodes as a limited list', async () => {
    const a = new Alias('article');
    const n = new Alias('article');
    const out = await run({ agg: { kind: 'aggregate', rows: rows(a, table('article'), { permission: { filter: { kind: 'true' }, limit: 2 }, countsAllRows: true,
      order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }] }), fields: [
      { key: 't', value: { kind: 'name', name: 'article_aggregate' } },
      { key: 'aggregate', value: { kind: 'functions', fields: [
        { key: 'count', value: { kind: 'count', columns: [], distinct: false } },
        { key: 'authors', value: { kind: 'count', columns: ['author_id'], distinct: true } },
        { key: 'rated', value: { kind: 'count', columns: ['rating'], distinct: false } },
        { key: 'sum', value: { kind: 'fn', fn: 'sum', fields: [{ key: 'rating', value: { kind: 'column', column: 'rating', output: 'json' } }] } },
        { key: 'max', value: { kind: 'fn', fn: 'max', fields: [{ key: 'rating', value: { kind: 'column', column: 'rating', output: 'string' } }, { key: '__typename', value: { kind: 'name', name: 'article_max_fields' } }] } },
      ] } },
      { key: 'nodes', value: { kind: 'list', shape: shape({ id: json(col(n, 'id')) }), rows: rows(n, table('article'), { permission: { filter: { kind: 'true' }, limit: 2 }, order: [{ expr: col(n, 'id'), dir: 'asc_nulls_last' }] }) } },
    ] } });
    expect(out.data.agg).toEqual({ t: 'article_aggregate', aggregate: { count: 5, authors: 3, rated: 4, sum: { rating: 13 }, max: { rating: '5', __typename: 'article_max_fields' } }, nodes: [{ id: 1 }, { id: 2 }] });
    const b = new Alias('article');
    const nodes = await run({ agg: { kind: 'aggregate', rows: rows(b, table('article'), { where: { kind: 'is_null', expr: col(b, 'rating'), isNull: false },
      order: [{ expr: col(b, 'rating'), dir: 'asc_nulls_last' }] }), fields: [{ key: 'nodes', value: { kind: 'nodes', shape: shape({ r: json(col(b, 'rating')) }) } }] } });
    expect(nodes.data.agg.nodes).toEqual([{ r: 1 }, { r: 3 }, { r: 4 }, { r: 5 }]);
    const c = new Alias('article');
    const onlyName = await run({ agg: { kind: 'aggregate', rows: rows(c, table('article')), fields: [{ key: 't', value: { kind: 'name', name: 'x' } }] } });
    expect(onlyName.data.agg).toEqual({ t: 'x' });
  });

  it('order by: through an object relationship, by a related aggregate, by a computed field', async () => {
    const a = new Alias('article');
    const u = new Alias('author');
    const byAuthor: Expr = { kind: 'subquery', from: table('author'), row: u, where: [{ kind: 'equals', left: col(u, 'id'), right: col(a, 'author_id') }], permission: { kind: 'true' }, value: col(u, 'name'), single: true };
    const out = await run({ l: { kind: 'list', shape: shape({ id: json(col(a, 'id')) }), rows: rows(a, table('article'), {
      order: [{ expr: byAuthor, dir: 'desc_nulls_last' }, { expr: col(a, 'id'), dir: 'asc_nulls_last' }] }) } });
    expect(out.data.l.map((r: any) => r.id)).toEqual([5, 3, 4, 1, 2]);
    const b = new Alias('author');
    const x = new Alias('article');
    const where: Cond[] = [{ kind: 'equals', left: col(x, 'author_id'), right: col(b, 'id') }];
    // The permission hides article 5 (author 3): author 3 counts no article and has no max rating.
    const permission: Cond = { kind: 'compare', left: col(x, 'id'), op: 'neq', right: lit(5, 'int4') };
    const count: Expr = { kind: 'subquery', from: table('article'), row: x, where, permission, value: { kind: 'count', args: [], distinct: false }, single: false };
    const maxRating: Expr = { kind: 'subquery', from: table('article'), row: x, where, permission: null, value: { kind: 'aggregate', fn: 'max', arg: col(x, 'rating') }, single: false };
    const out2 = await run({ l: { kind: 'list', shape: shape({ id: json(col(b, 'id')) }), rows: rows(b, table('author'), {
      order: [{ expr: count, dir: 'desc_nulls_last' }, { expr: maxRating, dir: 'asc_nulls_last' }] }) } });
    expect(out2.data.l.map((r: any) => r.id)).toEqual([2, 1, 3]);
    const c = new Alias('author');
    const shout: Expr = { kind: 'call', fn: { schema: 'public', name: 'author_shout' }, args: [{ name: null, value: { kind: 'row', row: c } }] };
    const out3 = await run({ l: { kind: 'list', shape: shape({ id: json(col(c, 'id')) }), rows: rows(c, table('author'), { order: [{ expr: shout, dir: 'desc_nulls_first' }], rowTyped: true }) } });
    expect(out3.data.l.map((r: any) => r.id)).toEqual([3, 2, 1]);
  });

  /** The ids of the authors where `cond` holds. */
  async function authorsWhere(cond: (a: Alias) => Cond, variables: Record<string, unknown> = {}): Promise<number[]> {
    const a = new Alias('author');
    const out = await run({ l: { kind: 'list', shape: shape({ id: json(col(a, 'id')) }), rows: rows(a, table('author'), { where: cond(a), order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }] }) } }, variables);
    return out.data.l.map((r: { id: number }) => r.id);
  }

  it('conditions: and, or, not, true, no condition, comparisons, text casts', async () => {
    expect(await authorsWhere(() => ({ kind: 'and', items: [] }))).toEqual([1, 2, 3]);
    expect(await authorsWhere(() => ({ kind: 'or', items: [] }))).toEqual([]);
    expect(await authorsWhere(() => ({ kind: 'no_condition' }))).toEqual([1, 2, 3]);
    expect(await authorsWhere((a) => ({ kind: 'and', items: [{ kind: 'true' }, { kind: 'compare', left: col(a, 'id'), op: 'gt', right: lit(1, 'int4') }] }))).toEqual([2, 3]);
    expect(await authorsWhere((a) => ({ kind: 'or', items: [{ kind: 'compare', left: col(a, 'name'), op: 'ilike', right: lit('A%', 'text') },
      { kind: 'compare', left: col(a, 'name'), op: 'regex', right: lit('^c', 'text') }] }))).toEqual([1, 3]);
    expect(await authorsWhere((a) => ({ kind: 'not', item: { kind: 'compare', left: { kind: 'text', expr: col(a, 'id') }, op: 'like', right: lit('2', 'text') } }))).toEqual([1, 3]);
  });

  it('conditions: null tests, in, in over array columns, JSON keys', async () => {
    expect(await authorsWhere((a) => ({ kind: 'is_null', expr: col(a, 'score'), isNull: true }))).toEqual([3]);
    expect(await authorsWhere((a) => ({ kind: 'is_null_is', expr: col(a, 'score'), value: slot({ kind: 'variable', name: 'v', path: [] }, 'bool') }), { v: false })).toEqual([1, 2]);
    expect(await authorsWhere((a) => ({ kind: 'in', left: col(a, 'id'), negated: false, list: lit([1, 3], 'int4[]') }))).toEqual([1, 3]);
    expect(await authorsWhere((a) => ({ kind: 'in', left: col(a, 'id'), negated: true, list: slot({ kind: 'variable', name: 'ids', path: [] }, 'int4[]') }), { ids: [1] })).toEqual([2, 3]);
    expect(await authorsWhere((a) => ({ kind: 'in_list', left: col(a, 'name'), negated: false, items: [lit('cy', 'text'), lit('ada', 'text')] }))).toEqual([1, 3]);
    expect(await authorsWhere((a) => ({ kind: 'in_list', left: col(a, 'name'), negated: true, items: [lit('cy', 'text')] }))).toEqual([1, 2]);
    expect(await authorsWhere((a) => ({ kind: 'in_arrays', left: col(a, 'tags'), negated: false, list: lit([['x', 'y'], '{z}'], 'jsonb'), itemType: '_text' }))).toEqual([1]);
    expect(await authorsWhere((a) => ({ kind: 'has_key', left: col(a, 'meta'), mode: 'one', value: lit('a', 'text') }))).toEqual([1]);
    expect(await authorsWhere((a) => ({ kind: 'has_key', left: col(a, 'meta'), mode: 'any', value: lit(['a', 'k'], 'text[]') }))).toEqual([1, 2]);
    expect(await authorsWhere((a) => ({ kind: 'has_key', left: col(a, 'meta'), mode: 'all', value: lit(['a', 'k'], 'text[]') }))).toEqual([1]);
    expect(await authorsWhere((a) => ({ kind: 'compare', left: col(a, 'meta'), op: 'contains', right: lit({ k: 2 }, 'jsonb') }))).toEqual([2]);
  });

  it('template: a precompiled condition completed on the statement\'s row, with its own aliases and parameters', async () => {
    // An article by the session's author with a rating of at least 3, precompiled on a row of its own.
    const pre = new Alias('author');
    const inner = new Alias('article');
    const cond: Cond = { kind: 'and', items: [
      { kind: 'compare', left: col(pre, 'id'), op: 'lte', right: slot({ kind: 'session', name: 'x-svc-user-id' }, 'int4') },
      { kind: 'exists', from: table('article'), row: inner, join: [{ kind: 'equals', left: col(inner, 'author_id'), right: col(pre, 'id') }],
        permission: null, where: { kind: 'compare', left: col(inner, 'rating'), op: 'gte', right: lit(3, 'int4') } },
    ] };
    const template = makeTemplate(cond, pre, pre, postgres);
    expect(templateText(template)).toBe('(({row}."id" <= {session x-svc-user-id :: int4}) AND EXISTS (SELECT 1 FROM "public"."article" AS {alias article #1}'
      + ' WHERE {alias article #1}."author_id" = {row}."id" AND ({alias article #1}."rating" >= {value 3 :: int4})))');
    let text = '';
    const ids = async (user: string): Promise<number[]> => {
      const a = new Alias('author');
      const rc = { dialect: postgres, hints: { valueSensitive: false } };
      const list: JsonValue = { kind: 'list', shape: shape({ id: json(col(a, 'id')) }),
        rows: rows(a, table('author'), { permission: { filter: { kind: 'template', template, row: a, root: a }, limit: null }, order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }] }) };
      const compiled = compileSql(postgres.render.statement([{ key: 'l', value: list }], rc), postgres);
      text = compiled.text;
      const out = await db.query(compiled.text, bindParams(compiled.params, {}, { ...SESSION, variables: { 'x-svc-user-id': user } }));
      return (JSON.parse(Object.values(out[0]!)[0] as string) as { l: { id: number }[] }).l.map((r) => r.id);
    };
    expect(await ids('1')).toEqual([1]);
    expect(await ids('3')).toEqual([1, 2]);
    // The statement holds the template's text with the aliases named and the slots numbered.
    expect(text).toContain('(("_author_1"."id" <= ($1)::int4) AND EXISTS (SELECT 1 FROM "public"."article" AS "_article_1"'
      + ' WHERE "_article_1"."author_id" = "_author_1"."id" AND ("_article_1"."rating" >= ($2)::int4)))');
    // A template of another dialect is refused.
    expect(() => mssql.render.cond({ kind: 'template', template, row: pre, root: pre }, { dialect: mssql, hints: { valueSensitive: false } })).toThrow(/postgres template rendered as mssql/);
  });

  it('template: completing one renders what the condition itself renders, in every dialect', () => {
    for (const dialect of [postgres, mssql, bigquery]) {
      const a = new Alias('author');
      const root = new Alias('root');
      const b = new Alias('article');
      const cond: Cond = { kind: 'or', items: [
        { kind: 'compare', left: col(a, 'id'), op: 'eq', right: slot({ kind: 'session', name: 'x-svc-user-id' }, 'int4') },
        { kind: 'compare', left: col(a, 'name'), op: 'eq', right: col(root, 'name') },
        { kind: 'exists', from: table('article'), row: b, join: [{ kind: 'equals', left: col(b, 'author_id'), right: col(a, 'id') }], permission: null,
          where: { kind: 'compare', left: col(b, 'title'), op: 'eq', right: lit('one', 'text') } },
      ] };
      const rc = { dialect, hints: { valueSensitive: false } };
      const direct = compileSql(dialect.render.cond(cond, rc), dialect);
      // Made on other aliases, completed on the statement's: the same text and parameters.
      const pre = new Alias('x');
      const preRoot = new Alias('y');
      const preInner = new Alias('article');
      const preCond: Cond = { kind: 'or', items: [
        { kind: 'compare', left: col(pre, 'id'), op: 'eq', right: slot({ kind: 'session', name: 'x-svc-user-id' }, 'int4') },
        { kind: 'compare', left: col(pre, 'name'), op: 'eq', right: col(preRoot, 'name') },
        { kind: 'exists', from: table('article'), row: preInner, join: [{ kind: 'equals', left: col(preInner, 'author_id'), right: col(pre, 'id') }], permission: null,
          where: { kind: 'compare', left: col(preInner, 'title'), op: 'eq', right: lit('one', 'text') } },
      ] };
      const template = makeTemplate(preCond, pre, preRoot, dialect);
      expect(new Set(template.slots.map((x) => x.kind))).toEqual(new Set(['row', 'session', 'root', 'alias', 'literal']));
      const completed = compileSql(dialect.render.cond({ kind: 'template', template, row: a, root }, rc), dialect);
      expect(completed).toEqual(direct);
    }
  });

  it('conditions: exists over a relationship and over a computed field, with a session value', async () => {
    expect(await authorsWhere((a) => {
      const b = new Alias('article');
      return { kind: 'exists', from: table('article'), row: b, join: [{ kind: 'equals', left: col(b, 'author_id'), right: col(a, 'id') }],
        permission: { kind: 'compare', left: col(b, 'rating'), op: 'gte', right: slot({ kind: 'session', name: 'X-Svc-Min' }, 'int4') }, where: null };
    })).toEqual([1, 2]);
    expect(await authorsWhere((a) => {
      const b = new Alias('article');
      const from: Source = { kind: 'function', call: { kind: 'call', fn: { schema: 'public', name: 'author_best' }, args: [{ name: null, value: { kind: 'row', row: a } }] } };
      return { kind: 'exists', from, row: b, join: [], permission: null, where: { kind: 'compare', left: col(b, 'rating'), op: 'eq', right: lit(4, 'int4') } };
    })).toEqual([2]);
  });

  it('conditions: PostGIS predicates and distances on GeoJSON operands', async () => {
    const near = (distance: number) => (a: Alias): Cond => ({ kind: 'spatial', op: 'd_within', left: col(a, 'home'),
      operand: { kind: 'from_geojson', geojson: lit(JSON.stringify({ type: 'Point', coordinates: [1, 1], crs: { type: 'name', properties: { name: 'EPSG:4326' } } }), 'text'), type: 'geometry' },
      distance: lit(distance, 'float8'), spheroid: null });
    expect(await authorsWhere(near(2))).toEqual([1]);
    expect(await authorsWhere(near(20))).toEqual([1, 2]);
    const box = { type: 'Polygon', coordinates: [[[5, 5], [15, 5], [15, 15], [5, 15], [5, 5]]], crs: { type: 'name', properties: { name: 'EPSG:4326' } } };
    expect(await authorsWhere((a) => ({ kind: 'spatial', op: 'within', left: col(a, 'home'), operand: { kind: 'from_geojson', geojson: lit(JSON.stringify(box), 'text'), type: 'public.geometry' }, distance: null, spheroid: null }))).toEqual([2]);
  });

  it('distinct counts count a null as a value, and a statement may answer one JSON value', async () => {
    const a = new Alias('author');
    const count: Expr = { kind: 'distinct_count', from: table('author'), row: a, where: [{ kind: 'true' }], permission: null, columns: [col(a, 'score')] };
    const rc = { dialect: postgres, hints: { valueSensitive: false } };
    const compiled = compileSql(postgres.render.valueStatement({ kind: 'object', fields: [{ key: 'count', value: json(count) }, { key: 'not a name', value: { kind: 'name', name: 'x' } }] }, rc), postgres);
    const rows = await db.query(compiled.text, bindParams(compiled.params, {}, SESSION));
    expect(JSON.parse(Object.values(rows[0]!)[0] as string)).toEqual({ count: 3, 'not a name': 'x' });
  });

  it('root fields: introspection JSON computed by the engine rides as a parameter', async () => {
    const out = await run({ schema: { kind: 'json_text', value: { kind: 'literal', value: '{"queryType":{"name":"query_root"}}' } }, t: { kind: 'name', name: 'query_root' } });
    expect(out.data).toEqual({ schema: { queryType: { name: 'query_root' } }, t: 'query_root' });
  });

  it('a JSON object wider than one json_build_object call keeps every key in order', async () => {
    const a = new Alias('author');
    const fields: { [key: string]: JsonValue } = {};
    for (let i = 0; i < 120; i++) fields[`k${i}`] = i % 2 ? json(col(a, 'id')) : { kind: 'name', name: `v${i}` };
    const out = await run({ one: { kind: 'one', from: table('author'), row: a, permission: ALL, join: [{ kind: 'equals', left: col(a, 'id'), right: lit(2, 'int4') }], shape: shape(fields) } });
    expect(Object.keys(out.data.one)).toEqual(Object.keys(fields));
    expect(out.data.one.k119).toBe(2);
    expect(out.data.one.k118).toBe('v118');
  });

  it('live query and stream: one statement answers two cohorts, each with its own session and variable values', async () => {
    const a = new Alias('article');
    const permission: Permission = { filter: { kind: 'equals', left: col(a, 'author_id'), right: slot({ kind: 'session', name: 'x-svc-user-id' }, 'int4') }, limit: null };
    const list = (extra: Partial<RowSet>): JsonValue => ({ kind: 'list', shape: shape({ id: json(col(a, 'id')) }),
      rows: rows(a, table('article'), { permission, order: [{ expr: col(a, 'id'), dir: 'asc_nulls_last' }], ...extra }) });
    const rc = { dialect: postgres, hints: { valueSensitive: false } };
    const cohorts = async (statement: { text: string; slots: Parameters<typeof bindParams>[0] }, values: [number, Record<string, unknown>, string][]) => {
      const params = multiplexParams(values.map(([id, variables, user]) => ({ id,
        values: bindParams(statement.slots, variables, { ...SESSION, variables: { 'x-svc-user-id': user } }).map(multiplexValue) })), statement.slots.length);
      const out = await db.query(statement.text, params);
      return Object.fromEntries(out.map((r: any) => [r.cohort, JSON.parse(r.result)]));
    };

    const live: LiveQuery = { kind: 'live', source: 'default', cohort: subscriberCohort, fields: [{ key: 'l', value: list({
      where: { kind: 'compare', left: col(a, 'rating'), op: 'gte', right: slot({ kind: 'variable', name: 'min', path: [] }, 'int4') } }) }] };
    const statement = postgres.render.live(live, rc);
    expect(statement.text).toMatch(/^SELECT "_subs"."cohort_id"::text AS "cohort", \(/);
    expect(statement.text).toContain('FROM unnest($1::int4[], $2::text[], $3::text[]) AS "_subs"("cohort_id", "p1", "p2")');
    expect(await cohorts(statement, [[1, { min: 4 }, '1'], [2, { min: 0 }, '2']])).toEqual({ 1: { l: [{ id: 1 }] }, 2: { l: [{ id: 3 }] } });

    // A stream batch: rows after each cohort's own cursor, in cursor order, at most batchSize of them.
    const batch: Stream = { kind: 'stream', cursor: ['id'], ordering: 'asc', batchSize: 1, live: { ...live, fields: [{ key: 'l', value: list({
      where: { kind: 'compare', left: col(a, 'id'), op: 'gt', right: slot({ kind: 'variable', name: 'cursor', path: [] }, 'int4') },
      limit: { kind: 'literal', value: 1 } }) }] } };
    const streamed = postgres.render.stream(batch, rc);
    expect(await cohorts(streamed, [[7, { cursor: 1 }, '1'], [8, { cursor: 3 }, '2'], [9, { cursor: 2 }, '1']]))
      .toEqual({ 7: { l: [{ id: 2 }] }, 8: { l: [{ id: 4 }] }, 9: { l: [] } });

    // The reads inside both carry the permission node (what permissionGaps proves).
    for (const node of [live, batch]) expect(readsOf(node).map((r) => [r.from, r.permission])).toEqual([[table('article'), permission]]);
  });
});
