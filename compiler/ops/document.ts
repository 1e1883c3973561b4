// Immutable edits of the metadata document: find a source or a table entry (or fail the way Hasura
// does), and rebuild the document with one part replaced. Empty lists are left out, as the export
// shape has them.

import { ApiError, type JsonPath } from '../../runtime/errors/index.js';
import type { Introspection, IntrospectedTable } from '../introspect/index.js';
import type { FunctionEntry, Metadata, QualifiedTable, Source, TableEntry } from '../metadata/index.js';
import { qualifiedText } from '../model/index.js';

/** A table or function as Hasura quotes it in messages: `"author"`, `"hge_tests.resident"`. */
export function quoted(q: QualifiedTable): string {
  return JSON.stringify(qualifiedText(q));
}

export function sameName(a: QualifiedTable, b: QualifiedTable): boolean {
  return a.schema === b.schema && a.name === b.name;
}

export function findSource(md: Metadata, name: string): Source | undefined {
  return md.sources.find((s) => s.name === name);
}

export function requireSource(md: Metadata, name: string, path: JsonPath = ['args']): Source {
  const s = findSource(md, name);
  if (!s) throw new ApiError('not-exists', `source with name ${JSON.stringify(name)} does not exist`, 400, path);
  return s;
}

export function findTable(source: Source, table: QualifiedTable): TableEntry | undefined {
  return source.tables.find((t) => sameName(t.table, table));
}

export function tableMissing(source: string, table: QualifiedTable, path: JsonPath = ['args']): ApiError {
  return new ApiError('not-exists', `table ${quoted(table)} does not exist in source: ${source}`, 400, path);
}

/** The tracked table entry, or `not-exists` (`table "author1" does not exist in source: default`). */
export function requireTable(md: Metadata, source: string, table: QualifiedTable, path: JsonPath = ['args']): TableEntry {
  const entry = findTable(requireSource(md, source), table);
  if (!entry) throw tableMissing(source, table, path);
  return entry;
}

export function findFunction(source: Source, fn: QualifiedTable): FunctionEntry | undefined {
  return (source.functions ?? []).find((f) => sameName(f.function, fn));
}

/** Drops keys whose value is undefined or an empty list. */
export function tidy<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as T;
}

export function replaceSource(md: Metadata, name: string, edit: (s: Source) => Source | null): Metadata {
  const sources = md.sources.flatMap((s) => {
    if (s.name !== name) return [s];
    const next = edit(s);
    return next ? [next] : [];
  });
  return { ...md, sources };
}

export function replaceTable(md: Metadata, source: string, table: QualifiedTable, edit: (t: TableEntry) => TableEntry | null): Metadata {
  return replaceSource(md, source, (s) => ({
    ...s,
    tables: s.tables.flatMap((t) => {
      if (!sameName(t.table, table)) return [t];
      const next = edit(t);
      return next ? [tidy(next)] : [];
    }),
  }));
}

export function replaceFunctions(md: Metadata, source: string, edit: (fs: readonly FunctionEntry[]) => readonly FunctionEntry[]): Metadata {
  return replaceSource(md, source, (s) => {
    const functions = edit(s.functions ?? []);
    const { functions: _old, ...rest } = s;
    return functions.length > 0 ? { ...rest, functions } : rest;
  });
}

/** The catalog entry of a table, when the source's catalog could be read. */
export function catalogTable(introspection: { readonly [source: string]: Introspection | null }, source: string, table: QualifiedTable): IntrospectedTable | undefined {
  return introspection[source]?.tables.find((t) => t.schema === table.schema && t.name === table.name);
}
