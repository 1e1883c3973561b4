// Readers for the arguments of the /v1/query operations the runtime runs itself (run_sql and the
// v1 data operations). Each checks one JSON value and throws a `parse-failed` ApiError worded as
// Hasura's aeson parsers word it ("the key 'sql' was not present", "parsing Int failed, expected
// Number, but encountered String"); `.:?` reads an explicit null as absent, as aeson does.

import { ApiError, jsonKind, type JsonPath } from '../errors/index.js';

export type Obj = { readonly [key: string]: unknown };

/** A `parse-failed` error at `path`. */
export function parseFailed(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

function mismatch(path: JsonPath, parser: string, expected: string, v: unknown): ApiError {
  return parseFailed(path, `parsing ${parser} failed, expected ${expected}, but encountered ${jsonKind(v)}`);
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object; `parser` names it in the message as aeson's `withObject` does. */
export function readObject(v: unknown, path: JsonPath, parser = 'Object'): Obj {
  if (!isObject(v)) throw mismatch(path, parser, 'Object', v);
  return v;
}

export function readArray(v: unknown, path: JsonPath): readonly unknown[] {
  if (!Array.isArray(v)) throw mismatch(path, '[]', 'Array', v);
  return v;
}

export function readString(v: unknown, path: JsonPath): string {
  if (typeof v !== 'string') throw mismatch(path, 'Text', 'String', v);
  return v;
}

export function readBool(v: unknown, path: JsonPath): boolean {
  if (typeof v !== 'boolean') throw mismatch(path, 'Bool', 'Boolean', v);
  return v;
}

/** An integer (limits, offsets); the sign is checked by the caller, where Hasura checks it. */
export function readInt(v: unknown, path: JsonPath): number {
  if (typeof v !== 'number') throw mismatch(path, 'Int', 'Number', v);
  if (!Number.isSafeInteger(v)) throw parseFailed(path, `parsing Int failed, unexpected floating number ${v}`);
  return v;
}

/** True when the key is present with a value other than null. */
export function has(o: Obj, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;
}

/** A key that must be present; a missing one is reported at the object's path, as aeson does. */
export function required<T>(o: Obj, key: string, path: JsonPath, read: (v: unknown, p: JsonPath) => T): T {
  if (!has(o, key)) throw parseFailed(path, `the key '${key}' was not present`);
  return read(o[key], [...path, key]);
}

/** An optional key; null counts as absent. */
export function optional<T>(o: Obj, key: string, path: JsonPath, read: (v: unknown, p: JsonPath) => T): T | undefined {
  return has(o, key) ? read(o[key], [...path, key]) : undefined;
}

/** A table name: `"author"` (schema public) or `{schema?, name}`. */
export interface TableName {
  readonly schema: string;
  readonly name: string;
}

export function readTableName(v: unknown, path: JsonPath): TableName {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (!isObject(v)) throw mismatch(path, 'QualifiedTable', 'String or Object', v);
  const name = required(v, 'name', path, readString);
  const schema = optional(v, 'schema', path, readString) ?? 'public';
  return { schema, name };
}
