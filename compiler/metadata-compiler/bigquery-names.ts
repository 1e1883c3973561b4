// Exported metadata names a BigQuery table `{dataset, name}`, as Hasura writes it; the stored
// document keeps every table as `{schema, name}` (the reader takes either spelling).

import type { Metadata, QualifiedTable, Relationship, Source, TableEntry } from '../metadata/index.js';

/** The document with its BigQuery sources' tables written `{dataset, name}`; other sources untouched. */
export function withBigQueryDatasets(md: Metadata): Metadata {
  if (!md.sources.some((s) => s.kind === 'bigquery')) return md;
  return { ...md, sources: md.sources.map((s) => (s.kind === 'bigquery' ? bigquerySource(s) : s)) };
}

const dataset = (t: QualifiedTable): QualifiedTable => ({ dataset: t.schema, name: t.name }) as unknown as QualifiedTable;

function relationship(r: Relationship): Relationship {
  const m = r.using.manual_configuration;
  return m ? { ...r, using: { ...r.using, manual_configuration: { ...m, remote_table: dataset(m.remote_table) } } } : r;
}

function bigquerySource(s: Source): Source {
  const tables = s.tables.map((t): TableEntry => ({
    ...t,
    table: dataset(t.table),
    ...(t.object_relationships ? { object_relationships: t.object_relationships.map(relationship) } : {}),
    ...(t.array_relationships ? { array_relationships: t.array_relationships.map(relationship) } : {}),
  }));
  return { ...s, tables };
}
