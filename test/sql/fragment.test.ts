// The one SQL writer: strings never become SQL text, names are quoted, values are parameters,
// and the same tree always prints the same text.
import { describe, expect, it } from 'vitest';
import { Alias, aliasRef, isAggregateFn, compileSql, ident, join, jsonKey, param, postgres, raw, session, sql, variable, type Sql } from '../../runtime/sql/index.js';

const print = (s: Sql) => compileSql(s, postgres);

describe('sql fragments', () => {
  it('refuses a plain string interpolated into the tag', () => {
    const userInput = "1; DROP TABLE users; --";
    expect(() => sql`SELECT ${userInput as unknown as Sql}`).toThrow(/not a fragment/);
  });

  it('quotes identifiers, doubling embedded quotes', () => {
    expect(print(ident('my schema', 'ta"ble')).text).toBe('"my schema"."ta""ble"');
  });

  it('binds values as numbered, typed parameters in order of appearance', () => {
    const out = print(sql`SELECT ${param("O'Brien", 'text')}, ${variable('id', [], 'int4')}, ${session('X-Svc-User-Id', 'int8')}`);
    expect(out.text).toBe('SELECT ($1)::text, ($2)::int4, ($3)::int8');
    expect(out.params.map((p) => p.source)).toEqual([
      { kind: 'value', value: "O'Brien" },
      { kind: 'variable', name: 'id', path: [] },
      { kind: 'session', name: 'x-svc-user-id' },
    ]);
  });

  it('quotes a cast to a type whose name is unusual', () => {
    expect(print(param(1, 'My Type')).text).toBe('($1)::"My Type"');
    expect(print(param([1], '_int4')).text).toBe('($1)::_int4');
    expect(print(param([1], 'int4[]')).text).toBe('($1)::int4[]');
  });

  it('prints JSON keys only for GraphQL names', () => {
    expect(print(jsonKey('author_name')).text).toBe("'author_name'");
    expect(() => jsonKey("x', (SELECT 1), '")).toThrow(/not a GraphQL name/);
  });

  it('numbers aliases by first use, so equal trees print equal text', () => {
    const build = () => {
      const a = new Alias('track');
      const b = new Alias('track');
      return sql`${aliasRef(b)} ${aliasRef(a)} ${aliasRef(b)}`;
    };
    expect(print(build()).text).toBe('"_track_1" "_track_2" "_track_1"');
    expect(print(build()).text).toBe(print(build()).text);
  });

  it('builds objects wider than json_build_object allows by joining chunks in key order', () => {
    const pairs = Array.from({ length: 120 }, (_, i) => [jsonKey(`k${i}`), raw(String(i))] as const);
    const text = print(postgres.jsonObject(pairs)).text;
    expect(text.match(/json_build_object\(/g)).toHaveLength(3);
    expect(text.indexOf("'k0'")).toBeLessThan(text.indexOf("'k119'"));
  });

  it('admits as aggregate functions only the names of a fixed list', () => {
    expect(isAggregateFn('stddev_pop')).toBe(true);
    expect(isAggregateFn('pg_sleep')).toBe(false);
    expect(isAggregateFn('constructor')).toBe(false);
    const a = new Alias('t');
    const rc = { dialect: postgres, hints: { valueSensitive: false } };
    const text = print(postgres.render.json({ kind: 'scalar', expr: { kind: 'aggregate', fn: 'stddev_pop', arg: { kind: 'column', row: a, column: 'x' } }, output: 'json' }, rc)).text;
    expect(text).toBe('stddev_pop("_t_1"."x")');
  });

  it('joins with a constant separator', () => {
    expect(print(join([raw('a'), raw('b')], ' AND ')).text).toBe('a AND b');
  });
});
