// Reading an operation's `args`: small checks that throw ApiError (`parse-failed`) with the path of
// the offending key under `args`, in the wording Hasura (aeson) uses. Parts of the metadata
// document (relationships, permissions, configurations) are read by the metadata parser itself,
// through a one-table document, so that the stored form is exactly the canonical one.

import { ApiError, jsonKind, type JsonPath } from '../../runtime/errors/index.js';
import { parseMetadata, type Json, type QualifiedTable, type Source, type TableEntry } from '../metadata/index.js';
import type { OpInput } from './types.js';

export type Obj = { readonly [k: string]: Json };

export function parseFailed(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

/** `args` as an object. */
export function argsObject(args: Json, path: JsonPath = ['args']): Obj {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw parseFailed(path, `parsing Object failed, expected Object, but encountered ${jsonKind(args)}`);
  }
  return args;
}

export function has(o: Obj, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}

/** A required key. */
export function need(o: Obj, key: string, path: JsonPath = ['args']): Json {
  if (!has(o, key)) throw parseFailed(path, `the key '${key}' was not present`);
  return o[key]!;
}

export function readText(v: Json, path: JsonPath): string {
  if (typeof v !== 'string') throw parseFailed(path, `parsing Text failed, expected String, but encountered ${jsonKind(v)}`);
  return v;
}

/** A non-empty string (names of roles, relationships, sources). */
export function readName(v: Json, path: JsonPath): string {
  const s = readText(v, path);
  if (s === '') throw parseFailed(path, 'empty string not allowed');
  return s;
}

export function nameAt(o: Obj, key: string, path: JsonPath = ['args']): string {
  return readName(need(o, key, path), [...path, key]);
}

export function optionalName(o: Obj, key: string, path: JsonPath = ['args']): string | undefined {
  return has(o, key) && o[key] !== null ? readName(o[key]!, [...path, key]) : undefined;
}

export function boolAt(o: Obj, key: string, fallback: boolean, path: JsonPath = ['args']): boolean {
  if (!has(o, key) || o[key] === null) return fallback;
  const v = o[key];
  if (typeof v !== 'boolean') throw parseFailed([...path, key], `parsing Bool failed, expected Boolean, but encountered ${jsonKind(v!)}`);
  return v;
}

/** A comment: a string, or null / absent. */
export function commentAt(o: Obj, key: string, path: JsonPath = ['args']): string | null {
  if (!has(o, key) || o[key] === null) return null;
  return readText(o[key]!, [...path, key]);
}

/** A table or function name: `"author"` or `{schema?, name}`. */
export function readQualified(v: Json, path: JsonPath, defaultSchema = 'public'): QualifiedTable {
  if (typeof v === 'string') {
    if (v === '') throw parseFailed(path, 'empty string not allowed');
    return { schema: defaultSchema, name: v };
  }
  const o = argsObject(v, path);
  const name = nameAt(o, 'name', path);
  const schema = optionalName(o, 'schema', path) ?? defaultSchema;
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
