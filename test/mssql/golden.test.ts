// Golden T-SQL: Chinook (fixtures/chinook-mssql: the metadata of fixtures/chinook on an mssql
// source in dbo, compiled against the shipped snapshot with no server) gives one statement per
// role and root field (queries, mutations, live queries). Every statement must parse as T-SQL,
// hold no PostgreSQL syntax, and carry its role's filter. Review golden diffs like code; update
// only on purpose with `npx vitest run test/mssql -u`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFixture } from '../helpers/fixtures.js';
import { expectNoOrphanGoldens } from '../helpers/goldens.js';
import { validateTsql } from './tsql.js';

// PostgreSQL words and marks that have no place in T-SQL (text in N'..' literals and comments left out).
const POSTGRES_SYNTAX = /::|\$\d|"|\bjson_build_object\b|\bjson_agg\b|\bjsonb?\b|\bLIMIT\b|\bLATERAL\b|\bILIKE\b|\bRETURNING\b|\bON CONFLICT\b|\bNULLS (FIRST|LAST)\b|\bcoalesce\b|\bunnest\b|\bint4\b|\btext\[\]/;

/** The statement of a golden file: its lines without the comment header. */
export function statementOf(file: string): string {
  return file.split('\n').filter((l) => !l.startsWith('--')).join('\n').trim();
}

function withoutLiterals(text: string): string {
  return text.replace(/N?'(?:[^']|'')*'/g, "''");
}

describe('golden chinook-mssql', async () => {
  const bundle = await compileFixture('chinook-mssql');
  const goldens = new Map<string, string>();
  for (const [path, content] of bundle.files) {
    if (path.startsWith('sql/')) goldens.set(path.slice('sql/'.length), content);
    if (path.startsWith('schema/')) goldens.set(path, content);
  }
  const statements = [...goldens].filter(([p]) => !p.startsWith('schema/'));

  it('resolves with no inconsistent object and names the source mssql', () => {
    expect(bundle.inconsistencies).toEqual([]);
    expect(bundle.model.sources).toMatchObject([{ name: 'default', dialect: 'mssql' }]);
  });

  it('writes a statement for every role and root field', () => {
    for (const role of bundle.model.roles) {
      const fields = [...Object.keys(bundle.model.roots[role]!.query), ...Object.keys(bundle.model.roots[role]!.mutation ?? {})];
      expect(fields.length).toBeGreaterThan(0);
      for (const f of fields) expect(goldens.has(`${role}/${f}.sql`), `${role}/${f}`).toBe(true);
    }
    expect(statements.length).toBeGreaterThan(100);
  });

  for (const [golden, content] of goldens) {
    it(golden, async () => {
      await expect(content).toMatchFileSnapshot(join('..', 'golden', 'mssql', 'chinook', golden));
    });
  }

  it('keeps no golden file the compiler no longer produces', () => {
    expectNoOrphanGoldens(join(import.meta.dirname, '..', 'golden', 'mssql', 'chinook'), goldens.keys());
  });

  it('every statement parses as T-SQL', async () => {
    const failures: string[] = [];
    for (const [golden, content] of statements) {
      const errors = await validateTsql(statementOf(content));
      if (errors.length) failures.push(`${golden}: ${errors.join('; ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('no statement holds PostgreSQL syntax', () => {
    const found = statements.flatMap(([golden, content]) => {
      const m = POSTGRES_SYNTAX.exec(withoutLiterals(statementOf(content)));
      return m ? [`${golden}: ${m[0]}`] : [];
    });
    expect(found).toEqual([]);
  });

  it('the customer role\'s statements bind its session value and keep its filter', () => {
    const own = statements.filter(([p]) => p.startsWith('customer/'));
    expect(own.length).toBeGreaterThan(4);
    for (const [golden, content] of own) {
      // A live query reads the session value of each cohort from the cohort relation instead.
      const n = Number(/^-- @p(\d+) = session x-svc-customer-id/m.exec(content)?.[1]);
      expect(n, golden).toBeGreaterThan(0);
      const value = golden.endsWith('.subscription.sql') ? `[_subs].[p${n - 1}]` : `@p${n}`;
      expect(statementOf(content), golden).toContain(`[customer_id] = ${value})`);
    }
    const invoiceLine = statementOf(goldens.get('customer/invoice_line.sql')!);
    expect(invoiceLine).toMatch(/EXISTS \(\s*SELECT 1\s*FROM \[dbo\]\.\[invoice\]/);
  });

  it('offers no distinct_on, no on_conflict and only the LIKE family of text operators, as Hasura\'s MSSQL backend', () => {
    for (const role of bundle.model.roles) {
      const sdl = goldens.get(`schema/${role}.graphql`)!;
      expect(sdl).toContain('_ilike: String');
      for (const absent of ['distinct_on', 'on_conflict', '_regex', '_similar', '_iregex']) expect(sdl, `${role} ${absent}`).not.toContain(absent);
    }
  });

  it('the checker catches what it looks for', async () => {
    expect(await validateTsql('SELECT FROM WHERE')).not.toEqual([]);
    expect(POSTGRES_SYNTAX.test(withoutLiterals('SELECT json_agg(x) FROM t LIMIT 1'))).toBe(true);
    expect(POSTGRES_SYNTAX.test(withoutLiterals("SELECT N'a::b $1' AS [x]"))).toBe(false);
  });
});
