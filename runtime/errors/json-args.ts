// The one reader of operation arguments, for the compiler's metadata operations and the runtime's
// own (run_sql, the v1 data operations, event and scheduled-event operations). Hasura parses
// arguments with aeson, which stops at the first problem: so does this reader, throwing a
// `parse-failed` ApiError in aeson's wording at the path of the value ("the key 'name' was not
// present" from a parser Hasura derives, `key "name" not found` from a hand-written `.:`,
// "parsing Int failed, expected Number, but encountered String"). aeson's `.:?` reads
// an explicit null as absent; `.:` into a plain value keeps it (see `present` and `value`).

import { ApiError, type JsonPath } from './api-error.js';
import { jsonKind } from './json-kind.js';

/** A JSON value, as the operations receive it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** A JSON object being read. */
export type JsonObject = { readonly [k: string]: JsonValue };

/** A `parse-failed` error at `path`. */
export function parseFailed(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

/** aeson's type mismatch: "parsing <parser> failed, expected <expected>, but encountered <kind>". */
export function mismatch(path: JsonPath, parser: string, expected: string, v: unknown): ApiError {
  return parseFailed(path, `parsing ${parser} failed, expected ${expected}, but encountered ${jsonKind(v)}`);
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when the key is there with a value other than null (aeson's `.:?`). */
export function has(o: { readonly [k: string]: unknown }, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;
}

/** True when the key is there at all, null included (aeson's `.:` into a value). */
export function present(o: { readonly [k: string]: unknown }, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}

/** An object; `parser` names it in the message as aeson's `withObject` does. */
export function asObject(v: unknown, path: JsonPath, parser = 'Object'): JsonObject {
  if (!isObject(v)) throw mismatch(path, parser, 'Object', v);
  return v;
}

export function asArray(v: unknown, path: JsonPath): readonly JsonValue[] {
  if (!Array.isArray(v)) throw mismatch(path, '[]', 'Array', v);
  return v as JsonValue[];
}

/** A list that must have at least one element (aeson's NonEmpty). */
export function asNonEmpty(v: unknown, path: JsonPath): readonly JsonValue[] {
  const a = asArray(v, path);
  if (a.length === 0) throw parseFailed(path, 'parsing NonEmpty failed, unexpected empty list');
  return a;
}

export function asString(v: unknown, path: JsonPath): string {
  if (typeof v !== 'string') throw mismatch(path, 'Text', 'String', v);
  return v;
}

/** A non-empty text (Hasura's NonEmptyText): "empty string not allowed". */
export function asName(v: unknown, path: JsonPath): string {
  const s = asString(v, path);
  if (s === '') throw parseFailed(path, 'empty string not allowed');
  return s;
}

export function asBool(v: unknown, path: JsonPath): boolean {
  if (typeof v !== 'boolean') throw mismatch(path, 'Bool', 'Boolean', v);
  return v;
}

/** An integer (limits, offsets); the sign is checked where Hasura checks it. */
export function asInt(v: unknown, path: JsonPath): number {
  if (typeof v !== 'number') throw mismatch(path, 'Int', 'Number', v);
  if (!Number.isSafeInteger(v)) throw parseFailed(path, `parsing Int failed, unexpected floating number ${v}`);
  return v;
}

/** A non-negative integer of a metadata object (a query depth, a node limit). */
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

/** A key that must be there (not null); a missing one is reported at the object's path, as aeson does. */
export function required<T>(o: { readonly [k: string]: unknown }, key: string, path: JsonPath, read: (v: unknown, p: JsonPath) => T): T {
  if (!has(o, key)) throw parseFailed(path, `the key '${key}' was not present`);
  return read(o[key], [...path, key]);
}

/**
 * A key a hand-written Hasura parser reads with aeson's `.:` (`withObject ... o .: "where"`, as the
 * v1 data operations' do): when it is absent aeson fails in its own words, `key "where" not found`,
 * at the object's path. A record parser Hasura derives with Template Haskell words the same miss
 * "the key 'where' was not present" (`required`). A null value is the reader's to judge.
 */
export function requiredField<T>(o: { readonly [k: string]: unknown }, key: string, path: JsonPath, read: (v: unknown, p: JsonPath) => T): T {
  if (!present(o, key)) throw parseFailed(path, `key ${JSON.stringify(key)} not found`);
  return read(o[key], [...path, key]);
}

/** An optional key; null counts as absent. */
export function optional<T>(o: { readonly [k: string]: unknown }, key: string, path: JsonPath, read: (v: unknown, p: JsonPath) => T): T | undefined {
  return has(o, key) ? read(o[key], [...path, key]) : undefined;
}

/** One JSON object being read key by key, with the path it sits at. */
export class ArgsReader {
  constructor(readonly value: JsonObject, readonly path: JsonPath) {}

  /** The args of an operation: at `$.args` on /v1/metadata, at `$` on /v1/query (as the corpus shows). */
  static args(input: { readonly args: unknown; readonly api: 'metadata' | 'query' }): ArgsReader {
    return ArgsReader.object(input.args, input.api === 'metadata' ? ['args'] : []);
  }

  static object(v: unknown, path: JsonPath): ArgsReader {
    return new ArgsReader(asObject(v, path), path);
  }

  at(key: string | number): JsonPath {
    return [...this.path, key];
  }

  /** aeson's `.:?`: absent and null are the same. */
  has(key: string): boolean {
    return has(this.value, key);
  }

  raw(key: string): JsonValue | undefined {
    return this.has(key) ? this.value[key] : undefined;
  }

  required(key: string): JsonValue {
    if (!this.has(key)) throw parseFailed(this.path, `the key '${key}' was not present`);
    return this.value[key]!;
  }

  /**
   * A key a hand-written Hasura parser reads with aeson's `.:` (`requiredField`'s wording): absent,
   * aeson's own `key "global" not found` at the object's path; null counts as given.
   */
  field(key: string): JsonValue {
    return requiredField(this.value, key, this.path, (v) => v as JsonValue);
  }

  /** A JSON value that must be given, null included (aeson's `.:` into a Value). */
  given(key: string): JsonValue {
    if (!present(this.value, key)) throw parseFailed(this.path, `the key '${key}' was not present`);
    return this.value[key]!;
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

  /** A non-empty text (Hasura's NonEmptyText). */
  name(key: string): string {
    return asName(this.required(key), this.at(key));
  }

  /** An optional non-empty text; `fallback` when absent. */
  optName(key: string): string | undefined;
  optName(key: string, fallback: string): string;
  optName(key: string, fallback?: string): string | undefined {
    return this.has(key) ? asName(this.value[key], this.at(key)) : fallback;
  }

  bool(key: string, fallback = false): boolean {
    return this.has(key) ? asBool(this.value[key], this.at(key)) : fallback;
  }

  optBool(key: string): boolean | undefined {
    return this.has(key) ? this.bool(key) : undefined;
  }

  /** A non-negative integer of a metadata object (asNat's wording). */
  nat(key: string, fallback: number): number {
    return this.has(key) ? asNat(this.value[key], this.at(key)) : fallback;
  }

  /**
   * Hasura's NonNegativeDiffTime (`withScientific`): any number from 0 up, fractions kept; a
   * negative one is "negative value not allowed" at the key.
   */
  diffTime(key: string, fallback: number): number {
    if (!this.has(key)) return fallback;
    const v = this.value[key];
    if (typeof v !== 'number') throw mismatch(this.at(key), 'NonNegativeDiffTime', 'Number', v);
    if (v < 0) throw parseFailed(this.at(key), 'negative value not allowed');
    return v;
  }

  /**
   * STRetryConf, read as Hasura's hand-written parser does: the three NonNegativeDiffTime keys
   * (defaults 10 s, 60 s, 6 h), num_retries an Int (default 0) whose negative value fails, after
   * all four are read, at the object's path: "num_retries cannot be a negative value".
   */
  retryConfST(): { num_retries: number; retry_interval_seconds: number; timeout_seconds: number; tolerance_seconds: number } {
    const numRetries = this.has('num_retries') ? asInt(this.value['num_retries'], this.at('num_retries')) : 0;
    const conf = {
      num_retries: numRetries,
      retry_interval_seconds: this.diffTime('retry_interval_seconds', 10),
      timeout_seconds: this.diffTime('timeout_seconds', 60),
      tolerance_seconds: this.diffTime('tolerance_seconds', 21600),
    };
    if (numRetries < 0) this.fail('num_retries cannot be a negative value');
    return conf;
  }

  /** A non-negative count of an event operation (limits, offsets, sizes, retry settings); undefined when absent. */
  optCount(key: string): number | undefined {
    if (!this.has(key)) return undefined;
    const v = asInt(this.value[key], this.at(key));
    if (v < 0) throw parseFailed(this.at(key), `${key} must be a non-negative integer`);
    return v;
  }

  count(key: string, fallback: number): number {
    return this.optCount(key) ?? fallback;
  }

  /** A count that must be given. */
  requiredCount(key: string): number {
    this.required(key);
    return this.count(key, 0);
  }

  object(key: string): ArgsReader {
    return ArgsReader.object(this.required(key), this.at(key));
  }

  optObject(key: string): ArgsReader | undefined {
    return this.has(key) ? ArgsReader.object(this.value[key], this.at(key)) : undefined;
  }

  array(key: string): readonly JsonValue[] {
    return asArray(this.required(key), this.at(key));
  }

  optArray(key: string): readonly JsonValue[] | undefined {
    return this.has(key) ? asArray(this.value[key], this.at(key)) : undefined;
  }

  /** A comment: text or null (kept as given). */
  comment(key = 'comment'): string | undefined {
    return this.optString(key);
  }

  /** An optional text among `allowed`; anything else fails with `message`. */
  oneOf<T extends string>(key: string, allowed: readonly T[], message: string): T | undefined {
    if (!this.has(key)) return undefined;
    const v = this.value[key];
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw parseFailed(this.at(key), message);
    return v as T;
  }
}
