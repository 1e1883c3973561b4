// Small readers that check one JSON value each and report problems instead of throwing. Messages
// follow the wording Hasura v2 (aeson) uses for metadata that does not match its schema
// (reference/errors.md §3: "the key 'action' was not present", "parsing Int failed, ...").

import { ApiError, type JsonPath, jsonKind } from '../../runtime/errors/index.js';
import type { Json, QualifiedTable } from './types.js';

export type Path = JsonPath;
export type Obj = Readonly<Record<string, unknown>>;
/** Reads one value found at `path`; undefined when it is wrong (the problem is recorded). */
export type Read<T> = (value: unknown, path: Path, issues: Issues) => T | undefined;

/** Collects every problem found while reading a document. */
export class Issues {
  readonly list: ApiError[] = [];

  fail(path: Path, message: string, code: 'parse-failed' | 'already-exists' = 'parse-failed'): undefined {
    this.list.push(new ApiError(code, message, 400, path));
    return undefined;
  }
}

/** The JSON kind of a value, spelled as aeson does in its messages. */
export const kindOf = jsonKind;

function isPlainObject(v: unknown): v is Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function mismatch(is: Issues, path: Path, parser: string, expected: string, v: unknown): undefined {
  return is.fail(path, `parsing ${parser} failed, expected ${expected}, but encountered ${kindOf(v)}`);
}

export const readObject: Read<Obj> = (v, path, is) =>
  isPlainObject(v) ? v : mismatch(is, path, 'Object', 'Object', v);

export const readArray: Read<readonly unknown[]> = (v, path, is) =>
  Array.isArray(v) ? v : mismatch(is, path, '[]', 'Array', v);

export const readString: Read<string> = (v, path, is) =>
  typeof v === 'string' ? v : mismatch(is, path, 'Text', 'String', v);

export const readBool: Read<boolean> = (v, path, is) =>
  typeof v === 'boolean' ? v : mismatch(is, path, 'Bool', 'Boolean', v);

/** A string that must not be empty (names of sources, roles, relationships...). */
export const readName: Read<string> = (v, path, is) => {
  const s = readString(v, path, is);
  if (s === '') return is.fail(path, 'empty string not allowed');
  return s;
};

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A string usable as a GraphQL field or type name. */
export const readGraphqlName: Read<string> = (v, path, is) => {
  const s = readString(v, path, is);
  if (s !== undefined && !GRAPHQL_NAME.test(s)) return is.fail(path, `${JSON.stringify(s)} is not a valid GraphQL name`);
  return s;
};

/** A non-negative integer (limits, versions). */
export const readNat: Read<number> = (v, path, is) => {
  if (typeof v !== 'number') return mismatch(is, path, 'Int', 'Number', v);
  if (!Number.isSafeInteger(v) || v < 0) return is.fail(path, `expected a non-negative integer, but found ${v}`);
  return v;
};

/** Any JSON value (kept raw). Checked without recursion so that deep nesting cannot overflow. */
export const readJson: Read<Json> = (v, path, is) => {
  const stack: [unknown, Path][] = [[v, path]];
  while (stack.length > 0) {
    const [x, at] = stack.pop() as [unknown, Path];
    if (at.length - path.length > 1000) return is.fail(path, 'value is nested too deeply');
    const kind = kindOf(x);
    if (kind === 'Number' && !Number.isFinite(x)) return is.fail(at, `${String(x)} is not a JSON number`);
    if (kind === 'Array') (x as unknown[]).forEach((y, i) => stack.push([y, [...at, i]]));
    else if (kind === 'Object') {
      if (!isPlainObject(x)) return is.fail(at, 'expected a plain JSON object');
      for (const [k, y] of Object.entries(x)) stack.push([y, [...at, k]]);
    } else if (kind === 'a non-JSON value') return is.fail(at, 'expected a JSON value');
  }
  return v as Json;
};

/** A JSON object kept raw. */
export const readRawObject: Read<{ readonly [k: string]: Json }> = (v, path, is) => {
  const o = readObject(v, path, is);
  return o === undefined ? undefined : (readJson(o, path, is) as { readonly [k: string]: Json } | undefined);
};

/** True when the key is present with a value other than null (aeson's `.:?` reads null as absent). */
export function has(o: Obj, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;
}

/** A key that must be present. Missing keys are reported at the object's path, as Hasura does. */
export function required<T>(o: Obj, key: string, path: Path, is: Issues, read: Read<T>): T | undefined {
  if (!has(o, key)) return is.fail(path, `the key '${key}' was not present`);
  return read(o[key], [...path, key], is);
}

/** An optional key; null counts as absent. */
export function optional<T>(o: Obj, key: string, path: Path, is: Issues, read: Read<T>): T | undefined {
  return has(o, key) ? read(o[key], [...path, key], is) : undefined;
}

/** An optional key whose explicit null is kept (comments, limits). */
export function nullable<T>(o: Obj, key: string, path: Path, is: Issues, read: Read<T>): T | null | undefined {
  if (Object.hasOwn(o, key) && o[key] === null) return null;
  return optional(o, key, path, is, read);
}

/** Reads every element of an array; elements that fail are left out (their problems are recorded). */
export function listOf<T>(read: Read<T>): Read<readonly T[]> {
  return (v, path, is) => {
    const arr = readArray(v, path, is);
    if (arr === undefined) return undefined;
    const out: T[] = [];
    arr.forEach((el, i) => {
      const r = read(el, [...path, i], is);
      if (r !== undefined) out.push(r);
    });
    return out;
  };
}

/** Reads every value of an object map; built with fromEntries so a `__proto__` key stays a key. */
export function mapOf<T>(read: Read<T>): Read<{ readonly [k: string]: T }> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const entries: [string, T][] = [];
    for (const [k, x] of Object.entries(o)) {
      const r = read(x, [...path, k], is);
      if (r !== undefined) entries.push([k, r]);
    }
    return Object.fromEntries(entries);
  };
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(values: readonly T[]): Read<T> {
  return (v, path, is) => {
    const s = readString(v, path, is);
    if (s === undefined) return undefined;
    if ((values as readonly string[]).includes(s)) return s as T;
    return is.fail(path, `expected one of ${values.map((x) => JSON.stringify(x)).join(', ')}, but found ${JSON.stringify(s)}`);
  };
}

/**
 * A table or function name: a plain string (in `defaultSchema`), or `{schema?, name}`; BigQuery
 * writes `{dataset, name}`. `defaultSchema` null means the schema must be given.
 */
export function qualified(defaultSchema: string | null): Read<QualifiedTable> {
  return (v, path, is) => {
    if (typeof v === 'string') {
      if (v === '') return is.fail(path, 'empty string not allowed');
      if (defaultSchema === null) return is.fail(path, 'expected an object with keys "dataset" and "name"');
      return { schema: defaultSchema, name: v };
    }
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const name = required(o, 'name', path, is, readName);
    let schema: string | undefined;
    if (has(o, 'schema')) schema = optional(o, 'schema', path, is, readName);
    else if (has(o, 'dataset')) schema = optional(o, 'dataset', path, is, readName);
    else if (defaultSchema !== null) schema = defaultSchema;
    else is.fail(path, `the key 'dataset' was not present`);
    return name === undefined || schema === undefined ? undefined : { schema, name };
  };
}

/** The same table name, quietly (for duplicate detection on raw input). */
export function qualifiedKey(v: unknown, defaultSchema: string | null): string | undefined {
  const q = qualified(defaultSchema)(v, [], new Issues());
  return q === undefined ? undefined : `${q.schema}.${q.name}`;
}

/**
 * Reports every element of a raw array whose key was already seen, at `[...path, i, ...keyPath]`
 * (code `already-exists`, as Hasura reports duplicated metadata objects).
 */
export function checkUnique(raw: unknown, path: Path, keyOf: (el: unknown) => string | undefined,
  keyPath: Path, message: (key: string) => string, is: Issues): void {
  if (!Array.isArray(raw)) return;
  const seen = new Set<string>();
  raw.forEach((el: unknown, i) => {
    const key = keyOf(el);
    if (key === undefined) return;
    if (seen.has(key)) is.fail([...path, i, ...keyPath], message(key), 'already-exists');
    else seen.add(key);
  });
}

/** The value under `key` when `v` is an object that has it as its own key. */
export function field(v: unknown, key: string): unknown {
  return isPlainObject(v) && Object.hasOwn(v, key) ? v[key] : undefined;
}

/** The string under `key`, if that is what it holds. */
export function stringAt(v: unknown, key: string): string | undefined {
  const x = field(v, key);
  return typeof x === 'string' ? x : undefined;
}

/** A copy without the keys whose value is undefined, so the output has only what was given. */
export function compact<T extends object>(o: T): T {
  const out: { [k: string]: unknown } = {};
  for (const k of Object.keys(o)) {
    const v = (o as { [k: string]: unknown })[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}
