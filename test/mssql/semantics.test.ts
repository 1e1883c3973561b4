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

// SQL Server type names of the snapshot as PostgreSQL casts, for the PostgreSQL rendering only.
function pgType(type: string): string {
  const array = type.endsWith('[]');
  const base = type.replace(/\[\]$/, '').replace(/\(.*$/, '');
  const mapped = ({ int: 'int4', nvarchar: 'text', varchar: 'text', numeric: 'numeric', datetime2: 'timestamp', bit: 'bool' } as Record<string, string>)[base] ?? base;
  return array ? `${mapped}[]` : mapped;
}
const postgresOfMssql: Dialect = { ...postgres, typedPlaceholder: (i, type) => postgres.typedPlaceholder(i, type === null ? null : pgType(type)) };

const TABLES = ['artist', 'album', 'genre', 'media_type', 'track', 'employee', 'customer', 'invoice', 'invoice_line', 'playlist', 'playlist_track'];

interface Case {
  readonly name: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly role?: string;
  readonly session?: Record<string, string>;
}

const CASES: readonly Case[] = [
  { name: 'a list with _eq, order and limit', query: '{ album(where: {artist_id: {_eq: 90}}, order_by: {title: asc}, limit: 5) { album_id title } }' },
  { name: 'paging with offset', query: '{ track(order_by: [{milliseconds: desc}, {track_id: asc}], offset: 10, limit: 7) { track_id name milliseconds } }' },
  { name: 'offset without limit', query: '{ genre(order_by: {genre_id: asc}, offset: 20) { genre_id name } }' },
  { name: 'nulls placement in order_by', query: '{ track(where: {album_id: {_lte: 20}}, order_by: [{composer: asc_nulls_first}, {track_id: desc}], limit: 12) { track_id composer } a: track(where: {album_id: {_lte: 20}}, order_by: [{composer: desc}, {track_id: asc}], limit: 12) { track_id composer } }' },
  { name: 'pattern operators', query: '{ artist(where: {_or: [{name: {_like: "%Zeppelin%"}}, {name: {_ilike: "metal%"}}]}, order_by: {artist_id: asc}) { artist_id name } n: artist(where: {name: {_nlike: "A%"}}, order_by: {artist_id: asc}, limit: 3) { name } }' },
  { name: '_in, _nin, _is_null, _not', query: '{ customer(where: {_and: [{country: {_in: ["Brazil", "Canada"]}}, {company: {_is_null: false}}, {_not: {city: {_nin: ["São Paulo", "Montréal"]}}}]}, order_by: {customer_id: asc}) { customer_id city company } }' },
  { name: '_in through a variable', query: 'query ($ids: [Int!]) { album(where: {album_id: {_in: $ids}}, order_by: {album_id: desc}) { album_id title } }', variables: { ids: [3, 1, 200, 999] } },
  { name: 'a filter through relationships', query: '{ album(where: {tracks: {genre: {name: {_eq: "Jazz"}}}}, order_by: {album_id: asc}, limit: 8) { title artist { name } } }' },
  { name: 'nested array and object relationships with their own arguments', query: '{ artist(where: {artist_id: {_in: [1, 8, 22]}}, order_by: {artist_id: asc}) { name albums(order_by: {title: desc}) { title tracks(where: {milliseconds: {_gt: 300000}}, order_by: {name: asc}, limit: 2) { name genre { name } media_type { name } } } } }' },
  { name: 'an empty array relationship and a null object relationship', query: '{ artist(where: {artist_id: {_in: [25, 26]}}, order_by: {artist_id: asc}) { artist_id albums { title } } employee(order_by: {employee_id: asc}, limit: 2) { employee_id manager { employee_id } } }' },
  { name: 'aggregates with nodes', query: '{ track_aggregate(where: {album_id: {_eq: 1}}) { aggregate { count sum { milliseconds unit_price } avg { milliseconds } max { name bytes } min { unit_price } } nodes { track_id } } }' },
  { name: 'count distinct and a nested aggregate', query: '{ invoice_aggregate { aggregate { count(columns: billing_country, distinct: true) c2: count(columns: billing_state) } } artist(limit: 3, order_by: {artist_id: asc}) { name albums_aggregate { aggregate { count } } } }' },
  { name: 'order by a relationship and by an aggregate', query: '{ album(order_by: [{artist: {name: desc}}, {album_id: asc}], limit: 5) { album_id artist { name } } artist(order_by: [{albums_aggregate: {count: desc}}, {artist_id: asc}], limit: 3) { artist_id } }' },
  { name: 'by primary key, found and not found', query: '{ a: track_by_pk(track_id: 42) { name unit_price album { title } } b: track_by_pk(track_id: 987654) { name } }' },
  { name: '__typename and numbers and timestamps', query: '{ invoice(where: {invoice_id: {_lt: 4}}, order_by: {invoice_id: asc}) { __typename invoice_id invoice_date total } }' },
  { name: 'the customer role sees only its invoices', role: 'customer', session: { 'x-svc-customer-id': '5' }, query: '{ invoice(order_by: {invoice_id: asc}) { invoice_id total customer_id } invoice_line(order_by: {invoice_line_id: asc}, limit: 4) { invoice_line_id invoice_id } }' },
  { name: 'the customer role by primary key of another customer', role: 'customer', session: { 'x-svc-customer-id': '5' }, query: '{ invoice_by_pk(invoice_id: 1) { invoice_id } mine: invoice_by_pk(invoice_id: 77) { invoice_id customer_id } }' },
];

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
