// fixtures/chinook/metadata.json moved to a BigQuery source: tables in dataset `chinook`, and the
// relationships that PostgreSQL derives from foreign keys written out as `manual_configuration`
// (BigQuery has no foreign keys Hasura reads), from the keys of fixtures/chinook/introspection.json.
// `node scripts/bigquery/chinook-metadata.mjs` writes fixtures/chinook-bigquery/metadata.json.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The metadata document (`{version: 3, sources: [...]}`) of the BigQuery source `chinook`. */
export function chinookBigQueryMetadata(projectId = 'kiln-local') {
  const md = JSON.parse(readFileSync(join(ROOT, 'fixtures/chinook/metadata.json'), 'utf8'));
  const db = JSON.parse(readFileSync(join(ROOT, 'fixtures/chinook/introspection.json'), 'utf8'));
  const fks = (name) => db.tables.find((t) => t.name === name)?.foreignKeys ?? [];
  const table = (name) => ({ dataset: 'chinook', name });
  const src = md.sources[0];
  const tables = src.tables.map((t) => {
    const name = t.table.name;
    const out = { ...t, table: table(name) };
    if (t.object_relationships) {
      out.object_relationships = t.object_relationships.map((r) => {
        const col = r.using.foreign_key_constraint_on;
        const fk = fks(name).find((k) => k.columns.length === 1 && k.columns[0] === col);
        if (!fk) throw new Error(`chinook-metadata: no foreign key on ${name}.${col}`);
        return { name: r.name, using: { manual_configuration: { remote_table: table(fk.refTable), column_mapping: Object.fromEntries(fk.columns.map((c, i) => [c, fk.refColumns[i]])) } } };
      });
    }
    if (t.array_relationships) {
      out.array_relationships = t.array_relationships.map((r) => {
        const { table: remote, column } = r.using.foreign_key_constraint_on;
        const fk = fks(remote.name).find((k) => k.refTable === name && k.columns.length === 1 && k.columns[0] === column);
        if (!fk) throw new Error(`chinook-metadata: no foreign key ${remote.name}.${column} -> ${name}`);
        return { name: r.name, using: { manual_configuration: { remote_table: table(remote.name), column_mapping: Object.fromEntries(fk.refColumns.map((c, i) => [c, fk.columns[i]])) } } };
      });
    }
    return out;
  });
  return {
    version: 3,
    sources: [{
      name: 'chinook', kind: 'bigquery', tables,
      configuration: { service_account: { from_env: 'KILN_BIGQUERY_SERVICE_ACCOUNT' }, project_id: projectId, datasets: ['chinook'] },
    }],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(join(ROOT, 'fixtures/chinook-bigquery/metadata.json'), JSON.stringify(chinookBigQueryMetadata(), null, 2) + '\n');
  console.log('wrote fixtures/chinook-bigquery/metadata.json');
}
