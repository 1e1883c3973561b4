// The lane against a real SQL Server, run only when KILN_MSSQL_URL names one (a connection string
// in URL or ODBC/ADO form, with rights to create a database); skipped otherwise. It loads Chinook
// into a scratch database, introspects it live (the snapshot must equal the shipped one), compiles
// fixtures/chinook-mssql against that, answers every case of cases.ts on SQL Server and compares
// each answer with PostgreSQL's for the same operation, then runs a mutation in a transaction.
// README ("SQL Server sources") says how to start the official container image for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type OperationDefinitionNode } from 'graphql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectionFromJson, introspectMssql, type Introspection } from '../../compiler/introspect/index.js';
import { loadMetadata } from '../../compiler/metadata/index.js';
import { createMssqlDriver, type Driver } from '../../runtime/drivers/index.js';
import { bindParams, planLiveQuery, planMutation, planOperation } from '../../runtime/graphql/index.js';
import { mssql, multiplexParams, postgres, type Dialect } from '../../runtime/sql/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { compileFixture } from '../helpers/fixtures.js';
import { CASES, type Case } from './cases.js';
import { chinookTsql } from './chinook-tsql.js';

const URL_ = process.env.KILN_MSSQL_URL;
const fixture = join(import.meta.dirname, '../../fixtures/chinook-mssql');

/** The connection string with another database. */
function withDatabase(url: string, database: string): string {
  if (/^(mssql|sqlserver):\/\//i.test(url)) {
    const u = new URL(url.replace(/^[a-z]+:/i, 'http:'));
    u.pathname = `/${database}`;
    return url.replace(/^([a-z]+:).*$/i, '$1') + u.toString().slice('http:'.length);
  }
  return `${url.replace(/;?\s*(database|initial catalog)\s*=[^;]*/gi, '').replace(/;+$/, '')};Database=${database}`;
}

// Numbers compared to 9 significant digits: SQL Server averages in float, PostgreSQL in numeric.
function normal(v: unknown): unknown {
  if (typeof v === 'number') return Number(v.toPrecision(9));
  if (Array.isArray(v)) return v.map(normal);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normal(x)]));
  return v;
}

// What a snapshot says about a table, for comparing the live catalog with the shipped one.
const shape = (s: Introspection) => s.tables.map((t) => ({
  name: `${t.schema}.${t.name}`, pk: t.primaryKey?.columns, fks: t.foreignKeys.map((f) => [f.columns, f.refTable, f.refColumns]),
  columns: t.columns.map((c) => [c.name, c.type, c.nullable, c.generated]),
}));

if (!URL_) {
  describe('MSSQL live lane', () => {
    it.skip('skipped: KILN_MSSQL_URL is not set (see README, "SQL Server sources")', () => {});
  });
} else {
  describe('MSSQL live lane (KILN_MSSQL_URL)', () => {
    const name = `kiln_mssql20_${Math.random().toString(36).slice(2, 10)}`;
    let server: Driver;
    let db: Driver;
    let live: Introspection;
    let ms: Bundle;
    let ref: Bundle;
    let pgdb: TestDatabase;
    let client: pg.Client;

    beforeAll(async () => {
      server = createMssqlDriver({ connectionString: URL_, max: 1 });
      await server.runScript(`CREATE DATABASE [${name}]`);
      db = createMssqlDriver({ connectionString: withDatabase(URL_, name), max: 4 });
      for (const batch of chinookTsql()) await db.runScript(batch);
      live = await introspectMssql(db);
      const md = await loadMetadata(join(fixture, 'metadata.json'));
      ms = await buildBundle({ metadata: md.value!, introspection: { default: live }, engineVersion: 'live' });
      ref = await compileFixture('chinook');
      pgdb = await createTestDatabase('mssql20_live', readFileSync(join(import.meta.dirname, '../../fixtures/chinook/schema.sql'), 'utf8'));
      client = new pg.Client({ connectionString: pgdb.url });
      await client.connect();
    }, 600_000);

    afterAll(async () => {
      await client?.end();
      await pgdb?.drop();
      await db?.close();
      await server?.runScript(`ALTER DATABASE [${name}] SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE [${name}]`).catch(() => undefined);
      await server?.close();
    });

    it('introspects the catalog the shipped snapshot describes', () => {
      const shipped = introspectionFromJson(JSON.parse(readFileSync(join(fixture, 'introspection.json'), 'utf8')));
      expect(shape(live)).toEqual(shape(shipped));
      expect(ms.inconsistencies).toEqual([]);
    });

    const plan = (bundle: Bundle, c: Case, dialect: Dialect) => {
      const document = parse(c.query);
      const role = c.role ?? 'admin';
      const p = planOperation({ model: bundle.model, schema: bundle.schemas[role]!, role, dialect, stringifyNumeric: false,
        document, operation: document.definitions[0] as OperationDefinitionNode, variables: c.variables ?? {}, structural: new Set() });
      if (p.kind !== 'sql') throw new Error('expected one statement');
      return p.sql;
    };
    const params = (c: Case, s: ReturnType<typeof plan>) =>
      bindParams(s.params, c.variables ?? {}, { role: c.role ?? 'admin', variables: c.session ?? {}, isAdmin: !c.role });

    for (const c of CASES) {
      it(`answers as PostgreSQL does: ${c.name}`, async () => {
        const s = plan(ms, c, mssql);
        const got = JSON.parse(await db.queryText(s.text, params(c, s)));
        const r = plan(ref, c, postgres);
        const want = JSON.parse(((await client.query({ text: r.text, values: params(c, r) as unknown[], rowMode: 'array' })).rows[0] as unknown[])[0] as string);
        expect(normal(got)).toEqual(normal(want));
      });
    }

    it('a multiplexed live query whose _in takes a list variable answers every cohort as its own query', async () => {
      const body = 'album(where: {album_id: {_in: $ids}}, order_by: {album_id: desc}) { album_id title }';
      const sub = parse(`subscription ($ids: [Int!]) { ${body} }`);
      const cohorts = [{ id: 1, ids: [3, 1, 200, 999999] }, { id: 2, ids: [] as number[] }, { id: 3, ids: [7] }];
      const p = planLiveQuery({ model: ms.model, schema: ms.schemas['admin']!, role: 'admin', dialect: mssql, stringifyNumeric: false,
        document: sub, operation: sub.definitions[0] as OperationDefinitionNode, variables: { ids: [] }, structural: new Set() });
      if (p.kind !== 'live') throw new Error('expected a live statement');
      const session = { role: 'admin', variables: {}, isAdmin: true };
      const sent = multiplexParams(cohorts.map((c) => ({ id: c.id, values: bindParams(p.statement.slots, { ids: c.ids }, session).map((v) => mssql.cohortValue(v)) })), p.statement.slots.length);
      const rows = (await db.query(p.statement.text, sent)).rows as [string, string][];
      const got = Object.fromEntries(rows.map(([cohort, result]) => [cohort, JSON.parse(result)]));
      for (const c of cohorts) {
        const q: Case = { name: 'cohort', query: `query ($ids: [Int!]) { ${body} }`, variables: { ids: c.ids } };
        const r = plan(ref, q, postgres);
        const want = JSON.parse(((await client.query({ text: r.text, values: params(q, r) as unknown[], rowMode: 'array' })).rows[0] as unknown[])[0] as string);
        expect(got[String(c.id)]).toEqual(want);
      }
    });

    it('inserts and updates in one transaction, answering <n>:<json> with the written rows', async () => {
      const document = parse('mutation { insert_album(objects: [{title: "Live", artist_id: 1}]) { affected_rows returning { title artist_id } } update_album(where: {title: {_eq: "Live"}}, _set: {title: "Live 2"}) { affected_rows } }');
      const m = planMutation({ model: ms.model, schema: ms.schemas['admin']!, role: 'admin', dialect: mssql, stringifyNumeric: false,
        document, operation: document.definitions[0] as OperationDefinitionNode, variables: {}, structural: new Set() });
      const answers = await db.transaction(async (tx) => {
        const out: string[] = [];
        for (const f of m.fields) {
          if (f.kind !== 'sql') continue;
          for (const st of f.statements) out.push(await tx.queryText(st.sql.text, bindParams(st.sql.params, {}, { role: 'admin', variables: {}, isAdmin: true })));
        }
        return out;
      });
      expect(answers.map((a) => a.slice(0, 2))).toEqual(['0:', '0:']);
      expect(JSON.parse(answers[0]!.slice(2))).toEqual({ affected_rows: 1, returning: [{ title: 'Live', artist_id: 1 }] });
      expect(JSON.parse(answers[1]!.slice(2))).toEqual({ affected_rows: 1 });
      expect(JSON.parse(await db.queryText("SELECT (SELECT COUNT(*) AS [n] FROM [dbo].[album] WHERE [title] = N'Live 2' FOR JSON PATH, WITHOUT_ARRAY_WRAPPER) AS [data]", []))).toEqual({ n: 1 });
    });

    it('maps a constraint violation to constraint-violation', async () => {
      await expect(db.queryText("INSERT INTO [dbo].[album] ([title], [artist_id]) VALUES (N'x', 999999); SELECT N'' AS [data]", [])).rejects.toMatchObject({ code: 'constraint-violation' });
    });
  });
}
