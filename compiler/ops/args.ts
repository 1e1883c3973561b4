// Reading an operation's `args`: small checks that throw ApiError (`parse-failed`) with the path of
// the offending key under `args`, in the wording Hasura (aeson) uses. Parts of the metadata
// document (relationships, permissions, configurations) are read by the metadata parser itself,
// through a one-table document, so that the stored form is exactly the canonical one.

import {
  ApiError, ArgsReader, asBool, asName, asObject, asString, optional, parseFailed, present, type JsonPath,
} from '../../runtime/errors/index.js';
import { parseMetadata, type Json, type QualifiedTable, type Source, type TableEntry } from '../metadata/index.js';
import type { OpInput } from './types.js';

// The checks and their wording are the shared argument reader's (runtime/errors); these helpers
// only say how the table-level operations use it: keys under `args`, and an explicit null that
// counts as given for required keys (so `"name": null` reads as a wrong type, not a missing key).

export type Obj = { readonly [k: string]: Json };

export { parseFailed };

/** `args` as an object. */
export function argsObject(args: Json, path: JsonPath = ['args']): Obj {
  return asObject(args, path);
}

/** The key is there, null included. */
export function has(o: Obj, key: string): boolean {
  return present(o, key);
}

/** A required key (null counts as given). */
export function need(o: Obj, key: string, path: JsonPath = ['args']): Json {
  return new ArgsReader(o, path).given(key);
}

export const readText = asString;

/** A non-empty string (names of roles, relationships, sources). */
export const readName = asName;

export function nameAt(o: Obj, key: string, path: JsonPath = ['args']): string {
  return asName(need(o, key, path), [...path, key]);
}

export function optionalName(o: Obj, key: string, path: JsonPath = ['args']): string | undefined {
  return optional(o, key, path, asName);
}

export function boolAt(o: Obj, key: string, fallback: boolean, path: JsonPath = ['args']): boolean {
  return optional(o, key, path, asBool) ?? fallback;
}

/** A comment: a string, or null / absent. */
export function commentAt(o: Obj, key: string, path: JsonPath = ['args']): string | null {
  return optional(o, key, path, asString) ?? null;
}

/** A table or function name: `"author"`, `{schema?, name}` or BigQuery's `{dataset, name}`. */
export function readQualified(v: Json, path: JsonPath, defaultSchema = 'public'): QualifiedTable {
  if (typeof v === 'string') {
    if (v === '') throw parseFailed(path, 'empty string not allowed');
    return { schema: defaultSchema, name: v };
  }
  const o = argsObject(v, path);
  const name = nameAt(o, 'name', path);
  // BigQuery writes `{dataset, name}`.
  const schema = optionalName(o, 'schema', path) ?? optionalName(o, 'dataset', path) ?? defaultSchema;
  return { schema, name };
}

export function tableAt(o: Obj, key: string, path: JsonPath = ['args']): QualifiedTable {
  return readQualified(need(o, key, path), [...path, key]);
}

/** The source an operation acts on: `/v1/query` knows only `default`. */
export function sourceOf(input: OpInput, o: Obj): string {
  if (input.api === 'query') return 'default';
  return optionalName(o, 'source') ?? 'default';
}

function remap(e: ApiError, prefix: JsonPath, to: JsonPath): ApiError {
  const same = prefix.every((k, i) => e.path[i] === k);
  const rest = same ? e.path.slice(prefix.length) : [];
  const code = e.code === 'already-exists' || e.code === 'not-supported' ? e.code : 'parse-failed';
  return new ApiError(code, e.message, 400, [...to, ...rest]);
}

/**
 * Reads one part of a table entry (`{object_relationships: [rel]}`, `{select_permissions: [p]}`,
 * `{configuration}`) with the metadata parser; `at` maps the part's path back onto `args`.
 */
export function readTablePart(table: QualifiedTable, key: string, value: Json, at: JsonPath, list = true): TableEntry {
  const entry = { table: { schema: table.schema, name: table.name }, [key]: list ? [value] : value };
  const doc = { version: 3, sources: [{ name: 'default', kind: 'postgres', tables: [entry] }] };
  const r = parseMetadata(doc);
  if (r.value === null) {
    const prefix = ['sources', 0, 'tables', 0, key, ...(list ? [0] : [])];
    throw remap(r.errors[0]!, prefix, at);
  }
  return r.value.sources[0]!.tables[0]!;
}

/** Reads one source (`{name, kind, configuration, customization}`) with the metadata parser. */
export function readSourcePart(value: Obj, at: JsonPath): Source {
  const r = parseMetadata({ version: 3, sources: [value] });
  if (r.value === null) throw remap(r.errors[0]!, ['sources', 0], at);
  return r.value.sources[0]!;
}

/** Reads one function entry (`{function, configuration, comment}`) with the metadata parser. */
export function readFunctionPart(value: Obj, at: JsonPath): NonNullable<Source['functions']>[number] {
  const r = parseMetadata({ version: 3, sources: [{ name: 'default', kind: 'postgres', tables: [], functions: [value] }] });
  if (r.value === null) throw remap(r.errors[0]!, ['sources', 0, 'functions', 0], at);
  return r.value.sources[0]!.functions![0]!;
}
