// BigQuery golden files: the SQL every root field runs for every role, compiled from
// fixtures/chinook-bigquery (Chinook's metadata on a bigquery source, the snapshot `kiln
// introspect` wrote), each also parsed and resolved by ZetaSQL (BigQuery's SQL front end) against
// the snapshot's tables: every statement is BigQuery Standard SQL over those columns. Review diffs
// like code; update only on purpose with `npx vitest run test/golden/bigquery.test.ts -u`.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZetaSql, type ZetaSql } from '../../scripts/bigquery/zetasql.mjs';
import { typeOfField } from '../../scripts/bigquery/values.mjs';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { planOperation } from '../../runtime/graphql/index.js';
import { bigquery, formatSql, paramHeader } from '../../runtime/sql/index.js';
import { compileFixture } from '../helpers/fixtures.js';
import { expectNoOrphanGoldens } from '../helpers/goldens.js';

let zeta: ZetaSql;
let tables: Record<string, { name: string; type: ReturnType<typeof typeOfField> }[]>;

beforeAll(async () => {
  zeta = await startZetaSql();
  const snap = introspectionFromJson(JSON.parse(await readFile(join(import.meta.dirname, '../../fixtures/chinook-bigquery/introspection.json'), 'utf8')));
  tables = Object.fromEntries(snap.tables.map((t) => [`${t.schema}.${t.name}`,
    t.columns.map((c) => ({ name: c.name, type: typeOfField({ name: c.name, type: c.type, mode: c.nullable ? 'NULLABLE' : 'REQUIRED' }) }))]));
}, 60_000);

afterAll(() => zeta?.close());

describe('golden chinook-bigquery', async () => {
  const bundle = await compileFixture('chinook-bigquery');

  it('resolves with no inconsistent object', () => {
    expect(bundle.inconsistencies).toEqual([]);
  });

  const goldens = new Map<string, string>();
  for (const [path, content] of bundle.files) {
    if (path.startsWith('sql/') || path.startsWith('schema/')) goldens.set(path.startsWith('sql/') ? path.slice('sql/'.length) : path, content);
  }
  for (const [golden, content] of goldens) {
    it(golden, async () => {
      await expect(content).toMatchFileSnapshot(join('bigquery', 'chinook', golden));
      if (!golden.endsWith('.sql')) return;
      expect(content).toMatch(/`chinook\.\w+`/);
      await zeta.analyze(content.replace(/;\s*$/, ''), tables);
    });
  }

  // Whole queries: relationships (ARRAY_AGG(STRUCT) over ROW_NUMBER, LEFT JOINs on their keys),
  // their order and limits, aggregates, a role's filter and row limit.
  const QUERIES: { readonly [name: string]: readonly [role: string, query: string] } = {
    'album-relationships': ['admin', `query ($n: Int!) { chinook_album(where: {title: {_ilike: "%rock%"}}, order_by: {title: asc}, limit: $n, offset: 1) {
      title artist { name } tracks(order_by: [{milliseconds: desc}, {track_id: asc}], limit: 3) { name genre { name } } } }`],
    'artist-nested-aggregates': ['admin', `{ chinook_artist(where: {artist_id: {_in: [1, 2]}}) { name
      albums_aggregate(order_by: {album_id: asc}) { aggregate { count max { title } } nodes { title tracks_aggregate { aggregate { sum { milliseconds } avg { unit_price } } } } } } }`],
    // distinct_on: the first row per distinct value (ROW_NUMBER per parent and value), then paged per parent.
    'distinct-on': ['admin', `{ chinook_track(distinct_on: [genre_id], order_by: [{genre_id: asc}, {milliseconds: desc}], limit: 4, offset: 1) { genre_id name }
      chinook_artist(where: {artist_id: {_in: [1, 22]}}) { name albums(distinct_on: [artist_id], order_by: [{artist_id: asc}, {title: desc}]) { title } } }`],
    'customer-invoices': ['customer', `{ chinook_invoice(order_by: {invoice_date: desc}, limit: 10) { invoice_id total invoice_lines(where: {quantity: {_gt: 0}}) { unit_price } } }`],
  };
  for (const [name, [role, query]] of Object.entries(QUERIES)) {
    it(`query ${name} (${role})`, async () => {
      const document = parse(query);
      const operation = document.definitions[0] as OperationDefinitionNode;
      const plan = planOperation({ model: bundle.model, schema: buildSchema(bundle.sdl[role]!), role, dialect: bigquery, stringifyNumeric: false,
        document, operation, variables: { n: 5 }, structural: new Set() });
      if (plan.kind !== 'sql') throw new Error('expected one statement');
      const text = [`-- role: ${role}`, ...query.split('\n').map((l) => `-- ${l.trim()}`), ...paramHeader(plan.sql, undefined, 0), `${formatSql(plan.sql.text)};`, ''].join('\n');
      await expect(text).toMatchFileSnapshot(join('bigquery', 'chinook', 'queries', `${name}.sql`));
      await zeta.analyze(plan.sql.text, tables);
      goldens.set(`queries/${name}.sql`, text);
    });
  }

  it('keeps no golden file the compiler no longer produces', () => {
    expectNoOrphanGoldens(join(import.meta.dirname, 'bigquery', 'chinook'), goldens.keys());
  });

  it('ZetaSQL refuses what is not BigQuery SQL (the check can fail)', async () => {
    await expect(zeta.analyze('SELECT `_a_1`.`nope` FROM `chinook.album` AS `_a_1`', tables)).rejects.toThrow(/nope/);
    await expect(zeta.analyze('SELECT json_build_object(\'a\', 1)', tables)).rejects.toThrow(/json_build_object/i);
  });
});
