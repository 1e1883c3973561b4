// The Chinook data of fixtures/chinook as a BigQuery dataset `chinook`: tables with BigQuery
// column types and their rows, read from the INSERT statements of fixtures/chinook/schema.sql and
// the column types of fixtures/chinook/introspection.json (no database needed).
// `node scripts/bigquery/chinook-data.mjs` writes fixtures/chinook-bigquery/data/<table>.json.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PostgreSQL catalog types of Chinook and the BigQuery type each becomes (timestamp without time zone is DATETIME). */
const TYPES = { int4: 'INT64', int8: 'INT64', varchar: 'STRING', text: 'STRING', numeric: 'NUMERIC', timestamp: 'DATETIME', timestamptz: 'TIMESTAMP', bool: 'BOOL', float8: 'FLOAT64', date: 'DATE' };

/**
 * The dataset: `{ tables: { <name>: { fields: [{name, type, mode}], rows: [[value, ...]] } } }`,
 * each value as BigQuery's REST API writes it (a string, or null).
 */
export function chinookDataset() {
  const snapshot = JSON.parse(readFileSync(join(ROOT, 'fixtures/chinook/introspection.json'), 'utf8'));
  const tables = {};
  for (const t of snapshot.tables) {
    tables[t.name] = {
      fields: t.columns.map((c) => {
        const type = TYPES[c.type];
        if (!type) throw new Error(`chinook-data: no BigQuery type for ${t.name}.${c.name} (${c.type})`);
        return { name: c.name, type, mode: c.nullable ? 'NULLABLE' : 'REQUIRED' };
      }),
      rows: [],
    };
  }
  const text = readFileSync(join(ROOT, 'fixtures/chinook/schema.sql'), 'utf8');
  const insert = /INSERT INTO (\w+) \(([^)]*)\) VALUES\s*/g;
  let m;
  while ((m = insert.exec(text)) !== null) {
    const table = tables[m[1]];
    if (!table) throw new Error(`chinook-data: rows for unknown table ${m[1]}`);
    const columns = m[2].split(',').map((s) => s.trim());
    const order = table.fields.map((f) => columns.indexOf(f.name));
    const { rows, end } = readTuples(text, insert.lastIndex);
    insert.lastIndex = end;
    for (const r of rows) {
      table.rows.push(order.map((i, k) => normalise(r[i], table.fields[k].type)));
    }
  }
  return { tables };
}

// `(1, N'a''b', NULL, 0.99),\n (..);` from `pos`: the tuples as arrays of literal texts (null for NULL).
function readTuples(text, pos) {
  const rows = [];
  let i = pos;
  for (;;) {
    while (/\s/.test(text[i])) i++;
    if (text[i] !== '(') throw new Error(`chinook-data: expected ( at ${i}`);
    i++;
    const row = [];
    for (;;) {
      while (text[i] === ' ') i++;
      if (text[i] === 'N' && text[i + 1] === "'") i++;
      if (text[i] === "'") {
        let s = '';
        i++;
        for (;;) {
          if (text[i] === "'" && text[i + 1] === "'") { s += "'"; i += 2; continue; }
          if (text[i] === "'") { i++; break; }
          s += text[i++];
        }
        row.push(s);
      } else {
        let j = i;
        while (text[j] !== ',' && text[j] !== ')') j++;
        const lit = text.slice(i, j).trim();
        row.push(lit === 'NULL' ? null : lit);
        i = j;
      }
      while (text[i] === ' ') i++;
      if (text[i] === ',') { i++; continue; }
      if (text[i] === ')') { i++; break; }
      throw new Error(`chinook-data: unexpected ${text[i]} at ${i}`);
    }
    rows.push(row);
    while (/\s/.test(text[i])) i++;
    if (text[i] === ',') { i++; continue; }
    if (text[i] === ';') return { rows, end: i + 1 };
    throw new Error(`chinook-data: expected , or ; at ${i}`);
  }
}

// Dates are written `2021/1/1`; BigQuery's DATETIME text is `2021-01-01T00:00:00`.
function normalise(v, type) {
  if (v === null || v === undefined) return null;
  if (type !== 'DATETIME' && type !== 'TIMESTAMP') return v;
  const d = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(v);
  if (!d) throw new Error(`chinook-data: not a date: ${v}`);
  const p = (x) => String(x ?? 0).padStart(2, '0');
  return `${d[1]}-${p(d[2])}-${p(d[3])}T${p(d[4])}:${p(d[5])}:${p(d[6])}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(ROOT, 'fixtures/chinook-bigquery/data');
  mkdirSync(out, { recursive: true });
  const { tables } = chinookDataset();
  for (const [name, t] of Object.entries(tables)) writeFileSync(join(out, `${name}.json`), JSON.stringify(t) + '\n');
  console.log(`wrote ${Object.keys(tables).length} tables to ${out}`);
}
