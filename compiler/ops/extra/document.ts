// Reading and replacing the raw lists of the metadata document. Lists that become empty are
// removed, as export_metadata omits empty lists.

import { ApiError, isObject, type JsonObject } from '../../../runtime/errors/index.js';
import type { Json, Metadata, QualifiedTable, Source, TableEntry } from '../../metadata/index.js';
import type { OpOutput } from '../types.js';

export type ListKey = 'remote_schemas' | 'query_collections' | 'allowlist' | 'actions' | 'cron_triggers'
  | 'rest_endpoints' | 'inherited_roles';

/** The objects of a raw list (anything else in it is ignored). */
export function listOf(md: Metadata, key: ListKey): readonly JsonObject[] {
  return (md[key] ?? []).filter(isObject);
}

/** The document with `key` replaced by `items` (removed when empty). */
export function withList(md: Metadata, key: ListKey, items: readonly Json[]): Metadata {
  const next: Record<string, unknown> = { ...md };
  if (items.length === 0) delete next[key];
  else next[key] = items;
  return next as unknown as Metadata;
}

/** The document with a top-level settings key set (or removed with undefined). */
export function withSetting(md: Metadata, key: 'api_limits' | 'metrics_config' | 'network'
  | 'graphql_schema_introspection' | 'custom_types' | 'opentelemetry', value: Json | undefined): Metadata {
  const next: Record<string, unknown> = { ...md };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next as unknown as Metadata;
}

/** The entry whose `key` field equals `name`. */
export function findBy(items: readonly JsonObject[], key: string, name: string): JsonObject | undefined {
  return items.find((x) => x[key] === name);
}

/** Replaces the entry whose `key` is `name` in place, or appends `item`. */
export function upsert(items: readonly JsonObject[], key: string, name: string, item: JsonObject): JsonObject[] {
  const i = items.findIndex((x) => x[key] === name);
  if (i < 0) return [...items, item];
  return items.map((x, j) => (j === i ? item : x));
}

export function removeBy(items: readonly JsonObject[], key: string, name: string): JsonObject[] {
  return items.filter((x) => x[key] !== name);
}

export const success = { message: 'success' } as const;

export function created(md: Metadata, type: string, name: string, result?: Json): OpOutput {
  return { metadata: md, effect: { kind: 'create', object: { type, name } }, ...(result === undefined ? {} : { result }) };
}

export function dropped(md: Metadata, cascade: boolean): OpOutput {
  return { metadata: md, effect: { kind: 'drop', cascade } };
}

export function changed(md: Metadata | null): OpOutput {
  return { metadata: md, effect: { kind: 'other' } };
}

/** A source by name: `not-exists` "source with name \"x\" does not exist" otherwise. */
export function findSource(md: Metadata, name: string): Source {
  const s = md.sources.find((x) => x.name === name);
  if (s === undefined) throw new ApiError('not-exists', `source with name ${JSON.stringify(name)} does not exist`, 400, ['args']);
  return s;
}

export function sameTable(a: QualifiedTable, b: QualifiedTable): boolean {
  return a.schema === b.schema && a.name === b.name;
}

/** How Hasura prints a table name: unqualified in `public`. */
export function tableText(t: QualifiedTable): string {
  return t.schema === 'public' ? t.name : `${t.schema}.${t.name}`;
}

/** The document with one table entry of one source replaced. */
export function withTable(md: Metadata, source: string, table: QualifiedTable, f: (t: TableEntry) => TableEntry): Metadata {
  return {
    ...md,
    sources: md.sources.map((s) => s.name !== source ? s : {
      ...s, tables: s.tables.map((t) => (sameTable(t.table, table) ? f(t) : t)),
    }),
  };
}
