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
import { bindParams, planLiveQuery, planMutation, planOperation } from '../../runtime/graphql/index.js';
import { formatSql, mssql, multiplexParams, paramHeader, postgres, type Dialect } from '../../runtime/sql/index.js';
import { parameterValue } from '../../runtime/drivers/mssql.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { compileFixture } from '../helpers/fixtures.js';
import { validateTsql } from './tsql.js';
import { CASES, TABLES, type Case } from './cases.js';
import { postgresOfMssql } from './postgres-of-mssql.js';



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

  it('an upsert with if_matched: MERGE in T-SQL, and the same IR on PostgreSQL updates the matched row and inserts the other', async () => {
    const document = parse('mutation { insert_album(objects: [{album_id: 1, title: "Matched", artist_id: 1}, {album_id: 9001, title: "New", artist_id: 2}], if_matched: {match_columns: [album_id], update_columns: [title]}) { affected_rows returning { album_id title artist_id } } }');
    const operation = document.definitions[0] as OperationDefinitionNode;
    const planWith = (dialect: Dialect) => planMutation({ model: ms.model, schema: ms.schemas['admin']!, role: 'admin', dialect, stringifyNumeric: false,
      document, operation, variables: {}, structural: new Set() });
    const statementOf = (p: ReturnType<typeof planWith>) => {
      const f = p.fields[0]!;
      if (f.kind !== 'sql') throw new Error('expected a statement');
      return f.statements[0]!.sql;
    };
    const tsql = statementOf(planWith(mssql));
    expect(await validateTsql(tsql.text)).toEqual([]);
    expect(tsql.text).toMatch(/MERGE INTO \[dbo\]\.\[album\] WITH \(HOLDLOCK\) AS \[_album_1\] USING \(VALUES .*\) AS \[__kiln_src\] \(\[album_id\], \[title\], \[artist_id\]\) ON \[_album_1\]\.\[album_id\] = \[__kiln_src\]\.\[album_id\] WHEN MATCHED THEN UPDATE SET \[title\] = \[__kiln_src\]\.\[title\] WHEN NOT MATCHED THEN INSERT/);
    expect(tsql.text).toContain('SET IDENTITY_INSERT [dbo].[album] ON');
    // The same IR on PostgreSQL (a dialect that upserts as MSSQL does, so the planner reads if_matched).
    const pgMerge: Dialect = { ...postgresOfMssql, can: { ...postgres.can, upsert: 'merge' } };
    const s = statementOf(planWith(pgMerge));
    await client.query('BEGIN');
    try {
      const r = await client.query({ text: s.text, values: bindParams(s.params, {}, { role: 'admin', variables: {}, isAdmin: true }) as unknown[], rowMode: 'array' });
      const answer = (r.rows[0] as unknown[])[0] as string;
      expect(answer.slice(0, 2)).toBe('0:');
      const body = JSON.parse(answer.slice(2)) as { affected_rows: number; returning: { album_id: number }[] };
      expect(body.affected_rows).toBe(2);
      expect([...body.returning].sort((a, b) => a.album_id - b.album_id)).toEqual([{ album_id: 1, title: 'Matched', artist_id: 1 }, { album_id: 9001, title: 'New', artist_id: 2 }]);
      const rows = await client.query('SELECT album_id, title, artist_id FROM dbo.album WHERE album_id IN (1, 9001) ORDER BY album_id');
      expect(rows.rows).toEqual([{ album_id: 1, title: 'Matched', artist_id: 1 }, { album_id: 9001, title: 'New', artist_id: 2 }]);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('a live query whose _in takes a list variable: OPENJSON of each cohort\'s JSON list in T-SQL, and on PostgreSQL every cohort answers as its own query', async () => {
    const body = 'invoice_line(where: {invoice_line_id: {_in: $ids}}, order_by: {invoice_line_id: desc}) { invoice_line_id invoice_id } invoice(where: {invoice_id: {_in: $inv}}, order_by: {invoice_id: asc}) { invoice_id total }';
    const subscription = parse(`subscription ($ids: [Int!], $inv: [Int!]) { ${body} }`);
    const query = parse(`query ($ids: [Int!], $inv: [Int!]) { ${body} }`);
    const role = 'customer';
    // Lists that cross the two customers' rows (and name ids that do not exist), read from the data.
    const ints = async (text: string): Promise<number[]> => (await client.query({ text, rowMode: 'array' })).rows.map((r) => Number((r as unknown[])[0]));
    const inv = [...await ints('SELECT invoice_id FROM dbo.invoice WHERE customer_id IN (5, 6) ORDER BY invoice_id'), 999999];
    const lines = [...await ints('SELECT l.invoice_line_id FROM dbo.invoice_line l JOIN dbo.invoice i USING (invoice_id) WHERE i.customer_id IN (5, 6) ORDER BY 1 LIMIT 12'), 999999];
    const cohorts: { id: number; session: string; variables: { ids: number[]; inv: number[] } }[] = [
      { id: 1, session: '5', variables: { ids: lines, inv } },
      { id: 2, session: '6', variables: { ids: [], inv } },
      { id: 3, session: '5', variables: { ids: lines.slice(0, 3), inv: [] } },
    ];
    const live = (dialect: Dialect) => {
      const p = planLiveQuery({ model: ms.model, schema: ms.schemas[role]!, role, dialect, stringifyNumeric: false,
        document: subscription, operation: subscription.definitions[0] as OperationDefinitionNode, variables: cohorts[0]!.variables, structural: new Set() });
      if (p.kind !== 'live') throw new Error('expected a live statement');
      return p.statement;
    };
    const valuesOf = (dialect: Dialect, statement: ReturnType<typeof live>) => multiplexParams(cohorts.map((c) => ({ id: c.id,
      values: bindParams(statement.slots, c.variables, { role, variables: { 'x-svc-customer-id': c.session }, isAdmin: false }).map((v) => dialect.cohortValue(v)) })), statement.slots.length);

    // T-SQL: parses, reads each list with OPENJSON from the cohort's own slot, and is sent as JSON text.
    const tsql = live(mssql);
    expect(await validateTsql(tsql.text)).toEqual([]);
    expect(tsql.text).toMatch(/\[_invoice_line_\d+\]\.\[invoice_line_id\] IN \(SELECT \[value\] FROM OPENJSON\(\[_subs\]\.\[p\d\]\)\)/);
    await expect(`-- subscription (customer): ${body}\n${[...(tsql.header ?? []), formatSql(tsql.text)].join('\n')};\n`)
      .toMatchFileSnapshot(join('..', 'golden', 'mssql', 'shapes', 'live-query-with-in-list-variables.sql'));
    const sent = valuesOf(mssql, tsql).map(parameterValue);
    const ids = tsql.slots.findIndex((s) => s.source.kind === 'variable' && s.source.name === 'ids');
    expect(ids).toBeGreaterThanOrEqual(0);
    // @p1 the cohort ids; each slot a JSON array with one item per cohort, a list slot's item the list's JSON text.
    expect(JSON.parse(sent[0] as string)).toEqual([1, 2, 3]);
    expect((JSON.parse(sent[ids + 1] as string) as string[]).map((t) => JSON.parse(t))).toEqual(cohorts.map((c) => c.variables.ids));

    // The same IR on PostgreSQL: one statement for the three cohorts, each answering what its own query answers.
    const pgLive = live(postgresOfMssql);
    const rows = (await client.query({ text: pgLive.text, values: valuesOf(postgres, pgLive) as unknown[], rowMode: 'array' })).rows as [string, string][];
    const got = Object.fromEntries(rows.map(([cohort, result]) => [cohort, JSON.parse(result)]));
    for (const c of cohorts) {
      const p = planOperation({ model: ref.model, schema: ref.schemas[role]!, role, dialect: postgres, stringifyNumeric: false,
        document: query, operation: query.definitions[0] as OperationDefinitionNode, variables: c.variables, structural: new Set() });
      if (p.kind !== 'sql') throw new Error('expected one statement');
      const r = await client.query({ text: p.sql.text, values: bindParams(p.sql.params, c.variables, { role, variables: { 'x-svc-customer-id': c.session }, isAdmin: false }) as unknown[], rowMode: 'array' });
      expect(got[String(c.id)], `cohort ${c.id}`).toEqual(JSON.parse((r.rows[0] as unknown[])[0] as string));
    }
    // Each cohort's lists and session cut its rows: only listed ids, and the two customers see different invoices.
    for (const c of cohorts) {
      const mine = got[String(c.id)] as { invoice_line: { invoice_line_id: number }[]; invoice: { invoice_id: number }[] };
      expect(mine.invoice_line.every((l) => c.variables.ids.includes(l.invoice_line_id))).toBe(true);
      expect(mine.invoice.every((i) => c.variables.inv.includes(i.invoice_id))).toBe(true);
    }
    expect(got['1'].invoice.length).toBeGreaterThan(0);
    expect(got['2'].invoice.length).toBeGreaterThan(0);
    expect(got['1'].invoice).not.toEqual(got['2'].invoice);
    expect(got['2'].invoice_line).toEqual([]);
    expect(got['3'].invoice).toEqual([]);
    expect(got['1'].invoice_line.length).toBeGreaterThan(got['3'].invoice_line.length);
  });

  it('a wrong plan would show: the role filter of another bundle changes the answer', async () => {
    const c = CASES.find((x) => x.role === 'customer')!;
    const mine = await run(ms, c, postgresOfMssql);
    const other = await run(ms, { ...c, session: { 'x-svc-customer-id': '6' } }, postgresOfMssql);
    expect(other).not.toEqual(mine);
  });
});
