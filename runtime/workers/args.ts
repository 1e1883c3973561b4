// Readers for the arguments of the event and scheduled-event operations, worded as Hasura's aeson parsers word them
// ("the key 'name' was not present", "parsing Int failed, expected Number, but encountered
// String"). An explicit null reads as absent (aeson's `.:?`). Paths start at `$.args` on
// /v1/metadata and at `$` on /v1/query, as the compiler's operations do.

import type { Json } from '../bundle/index.js';
import { ApiError, jsonKind, type JsonPath } from '../errors/index.js';
import type { ApiKind } from '../metadata-api/index.js';

type Obj = { readonly [k: string]: Json };

export function parseFailed(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

export function mismatch(path: JsonPath, parser: string, expected: string, v: unknown): ApiError {
  return parseFailed(path, `parsing ${parser} failed, expected ${expected}, but encountered ${jsonKind(v)}`);
}

/** The args object of one operation, read key by key. */
export class Args {
  private constructor(private readonly o: Obj, readonly path: JsonPath) {}

  static of(args: Json, path: JsonPath): Args {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw mismatch(path, 'Object', 'Object', args);
    return new Args(args, path);
  }

  /** The args of an operation: at `$.args` on /v1/metadata, at `$` on /v1/query. */
  static ofOperation(args: Json, api: ApiKind): Args {
    return Args.of(args, api === 'metadata' ? ['args'] : []);
  }

  at(key: string | number): JsonPath {
    return [...this.path, key];
  }

  has(key: string): boolean {
    return Object.hasOwn(this.o, key) && this.o[key] !== null && this.o[key] !== undefined;
  }

  raw(key: string): Json | undefined {
    return this.has(key) ? this.o[key] : undefined;
  }

  required(key: string): Json {
    if (!this.has(key)) throw parseFailed(this.path, `the key '${key}' was not present`);
    return this.o[key]!;
  }

  string(key: string): string {
    const v = this.required(key);
    if (typeof v !== 'string') throw mismatch(this.at(key), 'Text', 'String', v);
    return v;
  }

  optString(key: string): string | undefined {
    return this.has(key) ? this.string(key) : undefined;
  }

  object(key: string): Args | undefined {
    if (!this.has(key)) return undefined;
    return Args.of(this.o[key]!, this.at(key));
  }

  array(key: string): readonly Json[] | undefined {
    if (!this.has(key)) return undefined;
    const v = this.o[key];
    if (!Array.isArray(v)) throw mismatch(this.at(key), '[]', 'Array', v);
    return v;
  }

  /** A JSON value that must be given (null included: aeson's `.:` into a Value). */
  value(key: string): Json {
    if (!Object.hasOwn(this.o, key) || this.o[key] === undefined) throw parseFailed(this.path, `the key '${key}' was not present`);
    return this.o[key]!;
  }

  /** A non-empty text. */
  name(key: string): string {
    const v = this.required(key);
    if (typeof v !== 'string') throw mismatch(this.at(key), 'Text', 'String', v);
    if (v === '') throw parseFailed(this.at(key), 'empty string not allowed');
    return v;
  }

  optName(key: string, fallback: string): string {
    return this.has(key) ? this.name(key) : fallback;
  }

  /** A non-negative integer (limits, offsets, sizes, retry settings); undefined when absent. */
  nat(key: string): number | undefined {
    if (!this.has(key)) return undefined;
    const v = this.o[key];
    if (typeof v !== 'number') throw mismatch(this.at(key), 'Int', 'Number', v);
    if (!Number.isSafeInteger(v)) throw parseFailed(this.at(key), `parsing Int failed, unexpected floating number ${v}`);
    if (v < 0) throw parseFailed(this.at(key), `${key} must be a non-negative integer`);
    return v;
  }

  count(key: string, fallback: number): number {
    return this.nat(key) ?? fallback;
  }

  /** A non-negative integer that must be given. */
  requiredCount(key: string): number {
    this.required(key);
    return this.count(key, 0);
  }

  bool(key: string, fallback = false): boolean {
    if (!this.has(key)) return fallback;
    const v = this.o[key];
    if (typeof v !== 'boolean') throw mismatch(this.at(key), 'Bool', 'Boolean', v);
    return v;
  }

  /** An optional text among `allowed`; anything else fails with `message`. */
  oneOf<T extends string>(key: string, allowed: readonly T[], message: string): T | undefined {
    if (!this.has(key)) return undefined;
    const v = this.o[key];
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw parseFailed(this.at(key), message);
    return v as T;
  }
}
