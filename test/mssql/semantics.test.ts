// What a T-SQL plan means, checked without SQL Server: the IR planned from the MSSQL bundle
// (fixtures/chinook-mssql) is rendered twice, as T-SQL (which must parse) and as PostgreSQL,
// which runs on a real database holding Chinook in schema `dbo`. Its answer must equal the answer
// of the PostgreSQL bundle (fixtures/chinook) on the same rows, so a wrong plan for the MSSQL
// source (names, types, filters, order, paging, permissions) fails here though its T-SQL cannot run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type OperationDefinitionNode } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../compiler/emit/index.js';
import { bindParams, planOperation } from '../../runtime/graphql/index.js';
import { formatSql, mssql, paramHeader, postgres, type Dialect } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { compileFixture } from '../helpers/fixtures.js';
import { validateTsql } from './tsql.js';
import { CASES, TABLES, type Case } from './cases.js';

// SQL Server type names of the snapshot as PostgreSQL casts, for the PostgreSQL rendering only.
function pgType(type: string): string {
  const array = type.endsWith('[]');
  const base = type.replace(/\[\]$/, '').replace(/\(.*$/, '');
  const mapped = ({ int: 'int4', nvarchar: 'text', varchar: 'text', numeric: 'numeric', datetime2: 'timestamp', bit: 'bool' } as Record<string, string>)[base] ?? base;
  return array ? `${mapped}[]` : mapped;
}
const postgresOfMssql: Dialect = { ...postgres, typedPlaceholder: (i, type) => postgres.typedPlaceholder(i, type === null ? null : pgType(type)) };


describe('MSSQL plans mean what the PostgreSQL plans mean', () => {
  let db: TestDatabase;
  let client: pg.Client;
  let ms: Bundle;
  let ref: Bundle;

  beforeAll(async () => {
    db = await createTestDatabase('mssql20_sem', readFileSync(join(import.meta.dirname, '../../fixtures/chinook/schema.sql'), 'utf8'));
    await db.exec(['CREATE SCHEMA dbo;', ...TABLES.map((t) => `CREATE TABLE dbo.${t} (LIKE public.${t} INCLUDING ALL); INSERT INTO dbo.${t} SELECT * FROM public.${t};`)].join('\n'));
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    [ms, ref] = await Promise.all([compileFixture('chinook-mssql'), compileFixture('chinook')]);
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  const plan = (bundle: Bundle, c: Case, dialect: Dialect) => {
    const document = parse(c.query);
    const role = c.role ?? 'admin';
    const p = planOperation({ model: bundle.model, schema: bundle.schemas[role]!, role, dialect, stringifyNumeric: false,
      document, operation: document.definitions[0] as OperationDefinitionNode, variables: c.variables ?? {}, structural: new Set() });
    if (p.kind !== 'sql') throw new Error('expected one statement');
    return p.sql;
  };
  const run = async (bundle: Bundle, c: Case, dialect: Dialect): Promise<unknown> => {
    const s = plan(bundle, c, dialect);
    const params = bindParams(s.params, c.variables ?? {}, { role: c.role ?? 'admin', variables: c.session ?? {}, isAdmin: !c.role });
    const r = await client.query({ text: s.text, values: params as unknown[], rowMode: 'array' });
    return JSON.parse((r.rows[0] as unknown[])[0] as string);
  };

  for (const c of CASES) {
    it(c.name, async () => {
      const tsql = plan(ms, c, mssql);
      expect(await validateTsql(tsql.text)).toEqual([]);
      expect(tsql.text).toContain('FOR JSON PATH');
      const header = paramHeader(tsql, undefined, 1, mssql.placeholder);
      await expect(`-- ${c.query}\n${[...header, formatSql(tsql.text)].join('\n')};\n`)
        .toMatchFileSnapshot(join('..', 'golden', 'mssql', 'shapes', `${c.name.replace(/[^a-z0-9]+/gi, '-')}.sql`));
      const expected = await run(ref, c, postgres);
      expect(expected).not.toEqual({});
      expect(await run(ms, c, postgresOfMssql)).toEqual(expected);
    });
  }

  it('a wrong plan would show: the role filter of another bundle changes the answer', async () => {
    const c = CASES.find((x) => x.role === 'customer')!;
    const mine = await run(ms, c, postgresOfMssql);
    const other = await run(ms, { ...c, session: { 'x-svc-customer-id': '6' } }, postgresOfMssql);
    expect(other).not.toEqual(mine);
  });
});
