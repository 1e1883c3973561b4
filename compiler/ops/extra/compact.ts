// A small reader for an operation's `args`. Hasura parses args with aeson, which stops at the
// first problem: so does this reader, throwing ApiError `parse-failed` with aeson's wording and
// the path of the value. On /v1/metadata the path starts at `$.args`; on /v1/query it is relative
// to args (`$.name`), as the corpus shows (v1/non_empty_text/*).

import { ApiError, type JsonPath, jsonKind } from '../../../runtime/errors/index.js';
import type { Json } from '../../metadata/index.js';
import type { OpInput } from '../types.js';

export type JsonObject = { readonly [k: string]: Json };

export function parseFailed(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mismatch(path: JsonPath, parser: string, expected: string, v: unknown): ApiError {
  return parseFailed(path, `parsing ${parser} failed, expected ${expected}, but encountered ${jsonKind(v)}`);
}

/** One JSON object being read, with the path it sits at. */
export class Reader {
  constructor(readonly value: JsonObject, readonly path: JsonPath) {}

  /** The args of an operation (an object), at `$.args` or `$` depending on the API. */
  static args(input: Pick<OpInput, 'args' | 'api'>): Reader {
    return Reader.object(input.args, input.api === 'metadata' ? ['args'] : []);
  }

  static object(v: unknown, path: JsonPath): Reader {
    if (!isObject(v)) throw mismatch(path, 'Object', 'Object', v);
    return new Reader(v, path);
  }

  at(key: string | number): JsonPath {
    return [...this.path, key];
  }

  /** aeson's `.:?`: absent and null are the same. */
  has(key: string): boolean {
    return Object.hasOwn(this.value, key) && this.value[key] !== null && this.value[key] !== undefined;
  }

  raw(key: string): Json | undefined {
    return this.has(key) ? this.value[key] : undefined;
  }

  required(key: string): Json {
    if (!this.has(key)) throw parseFailed(this.path, `the key '${key}' was not present`);
    return this.value[key] as Json;
  }

  /** Fails at the object's own path, as aeson's `fail` inside `withObject` does. */
  fail(message: string): never {
    throw parseFailed(this.path, message);
  }

  string(key: string): string {
    return asString(this.required(key), this.at(key));
  }

  optString(key: string): string | undefined {
    return this.has(key) ? asString(this.value[key], this.at(key)) : undefined;
  }

  /** A non-empty text (Hasura's NonEmptyText): "empty string not allowed". */
  name(key: string): string {
    return asName(this.required(key), this.at(key));
  }

  optName(key: string): string | undefined {
    return this.has(key) ? asName(this.value[key], this.at(key)) : undefined;
  }

  bool(key: string, fallback: boolean): boolean {
    if (!this.has(key)) return fallback;
    const v = this.value[key];
    if (typeof v !== 'boolean') throw mismatch(this.at(key), 'Bool', 'Boolean', v);
    return v;
  }

  optBool(key: string): boolean | undefined {
    return this.has(key) ? this.bool(key, false) : undefined;
  }

  /** A non-negative integer. */
  nat(key: string, fallback: number): number {
    if (!this.has(key)) return fallback;
    return asNat(this.value[key], this.at(key));
  }

  object(key: string): Reader {
    return Reader.object(this.required(key), this.at(key));
  }

  optObject(key: string): Reader | undefined {
    return this.has(key) ? Reader.object(this.value[key], this.at(key)) : undefined;
  }

  array(key: string): readonly Json[] {
    return asArray(this.required(key), this.at(key));
  }

  optArray(key: string): readonly Json[] | undefined {
    return this.has(key) ? asArray(this.value[key], this.at(key)) : undefined;
  }

  /** A comment: text or null (kept as given). */
  comment(key = 'comment'): string | undefined {
    return this.optString(key);
  }
}

export function asString(v: unknown, path: JsonPath): string {
  if (typeof v !== 'string') throw mismatch(path, 'Text', 'String', v);
  return v;
}

export function asName(v: unknown, path: JsonPath): string {
  const s = asString(v, path);
  if (s === '') throw parseFailed(path, 'empty string not allowed');
  return s;
}

export function asArray(v: unknown, path: JsonPath): readonly Json[] {
  if (!Array.isArray(v)) throw mismatch(path, '[]', 'Array', v);
  return v as Json[];
}

/** A list that must have at least one element (aeson's NonEmpty). */
export function asNonEmpty(v: unknown, path: JsonPath): readonly Json[] {
  const a = asArray(v, path);
  if (a.length === 0) throw parseFailed(path, 'parsing NonEmpty failed, unexpected empty list');
  return a;
}

export function asNat(v: unknown, path: JsonPath): number {
  if (typeof v !== 'number') throw mismatch(path, 'Int', 'Number', v);
  if (!Number.isSafeInteger(v) || v < 0) throw parseFailed(path, `expected a non-negative integer, but found ${v}`);
  return v;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

export function isGraphqlName(s: string): boolean {
  return GRAPHQL_NAME.test(s);
}

/** A GraphQL name (Hasura's G.Name): "X is not valid GraphQL name". */
export function asGraphqlName(v: unknown, path: JsonPath): string {
  const s = asString(v, path);
  if (!isGraphqlName(s)) throw parseFailed(path, `${s} is not valid GraphQL name`);
  return s;
}

/** A copy without the keys whose value is undefined. */
export function compact(o: { readonly [k: string]: Json | undefined }): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonObject;
}
