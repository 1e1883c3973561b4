// The SQL layout of the bundle's files and explain: line breaks and indentation only, never inside quotes.
import { describe, expect, it } from 'vitest';
import { formatSql, paramHeader } from '../../runtime/sql/index.js';

// The text with whitespace runs outside quotes made single spaces (quoted runs kept verbatim).
function squeeze(text: string): string {
  return text.split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/).map((part, i) => (i % 2 === 1 ? part : part.replace(/\s+/g, ' '))).join('');
}

describe('formatSql', () => {
  it('puts each sub-query and its clauses on their own indented lines', () => {
    const text = 'SELECT (json_build_object(\'a\', (SELECT coalesce(json_agg("r"."x" ORDER BY "r"."y"), \'[]\'::json) FROM (SELECT 1 AS "x", 2 AS "y" FROM "t" WHERE "t"."id" = ($1)::int4 LIMIT 3) AS "r")))::text';
    expect(formatSql(text)).toBe([
      "SELECT (json_build_object('a', (",
      '      SELECT coalesce(json_agg("r"."x"',
      `          ORDER BY "r"."y"), '[]'::json)`,
      '      FROM (',
      '        SELECT 1 AS "x", 2 AS "y"',
      '        FROM "t"',
      '        WHERE "t"."id" = ($1)::int4',
      '        LIMIT 3) AS "r")))::text',
    ].join('\n'));
  });

  it('names each parameter, with the bound value when given, numbered from `first`', () => {
    const params = [
      { source: { kind: 'session' as const, name: 'x-svc-user-id' }, type: 'int4' },
      { source: { kind: 'variable' as const, name: 'v', path: ['a'] }, type: null },
    ];
    expect(paramHeader({ params } as never)).toEqual(['-- $1 = session x-svc-user-id :: int4', '-- $2 = variable $v.a']);
    expect(paramHeader({ params } as never, ['7', { b: 1 }], 2)).toEqual(['-- $2 = session x-svc-user-id :: int4 = "7"', '-- $3 = variable $v.a = {"b":1}']);
  });

  it('leaves quoted identifiers and literals that look like SQL alone', () => {
    const text = 'SELECT "a FROM (SELECT b"."c WHERE d", \'x (SELECT y FROM z\'\' WHERE\' FROM "t"';
    const laid = formatSql(text);
    expect(laid).toContain('"a FROM (SELECT b"."c WHERE d"');
    expect(laid).toContain("'x (SELECT y FROM z'' WHERE'");
    expect(laid.split('\n')).toEqual(['SELECT "a FROM (SELECT b"."c WHERE d", \'x (SELECT y FROM z\'\' WHERE\'', 'FROM "t"']);
    expect(squeeze(laid)).toBe(squeeze(text));
  });
});
