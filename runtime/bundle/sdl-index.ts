// Where each definition of a printed schema (SDL) sits, so that a role's schema can be built one
// type at a time (runtime/graphql lazy-schema.ts) instead of parsing 10 MB of SDL into 30,000
// types when a 1,000-table role is first used. The SDL is scanned as bytes (every token the scan
// looks for is ASCII; UTF-8 multi-byte sequences never contain ASCII bytes); a definition runs
// from its description (or keyword) to the start of the next one.

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flat } from './flat-string.js';

/** A pooled schema (layout.ts writes them): its text is `ranges` (byte offsets) of the pool, joined. */
export interface PooledSchema {
  readonly pool: string;
  readonly ranges: readonly (readonly [number, number])[];
}

/** The definitions of an SDL text by kind and name, as byte ranges. */
export interface SdlIndex {
  /** Named type -> its definition's number (in definition order). */
  readonly types: ReadonlyMap<string, number>;
  /** Definition number -> begin and end byte (two entries per definition). */
  readonly ranges: Int32Array;
  /** Definition numbers of the `directive @x` definitions and of the `schema { }` one (-1: none). */
  readonly directives: readonly number[];
  readonly schema: number;
  /** The text's length in bytes. */
  readonly bytes: number;
  /** Which of Int, Float, ID the text names (buildSchema has only those a definition uses; String and Boolean are always in). */
  readonly scalars: ReadonlySet<string>;
  /** The text has an interface or an extension: build it eagerly (a rare case the lazy builder leaves out). */
  readonly eager: boolean;
}

/** An SDL text to read definitions from: kept in memory, or read from its file per definition. */
export interface SdlSource {
  readonly index: SdlIndex;
  /** The bytes from `begin` to `end`. */
  read(begin: number, end: number): Buffer;
  /** The text of definition number `i`. */
  definition(i: number): string;
  /** The whole text (only for the rare eager build). */
  text(): string;
}

/** The byte range of definition `i`. */
export function rangeOf(index: SdlIndex, i: number): readonly [number, number] {
  return [index.ranges[2 * i]!, index.ranges[2 * i + 1]!];
}

/**
 * The members (fields, input fields, enum values) of definition `i` by name, as byte ranges of
 * the text (each with its description), and its text before the opening brace: what a root type
 * of 10,000 fields is read by, one field at a time.
 */
export function membersOf(source: SdlSource, i: number): { readonly head: string; readonly members: Map<string, readonly [number, number]> } {
  const [from, to] = rangeOf(source.index, i);
  const b = source.read(from, to);
  const n = b.length;
  const members = new Map<string, readonly [number, number]>();
  let depth = 0, description = -1, open: { name: string; begin: number } | null = null, head = '';
  const close = (end: number): void => {
    if (open) members.set(open.name, [from + open.begin, from + end]);
    open = null;
  };
  // A name inside the body starts a member unless it follows `:` (a type), `=` (a default value)
  // or `@` (a directive): `last` is the last byte that was not blank.
  let last = 0;
  for (let i = 0; i < n;) {
    const c = b[i]!;
    if (c === QUOTE) {
      if (depth === 1 && description < 0) description = i;
      i = skipString(b, i);
      last = QUOTE;
      continue;
    }
    if (c === HASH) {
      while (i < n && b[i] !== NEWLINE) i++;
      continue;
    }
    if (c === 123 || c === 40 || c === 91) {
      if (depth === 0) head = b.toString('utf8', 0, i);
      depth++;
    } else if (c === 125 || c === 41 || c === 93) {
      depth--;
      if (depth === 0) {
        close(i);
        break;
      }
    } else if (isNameStart(c) && !isNameChar(b[i - 1]!)) {
      let end = i;
      while (end < n && isNameChar(b[end]!)) end++;
      if (depth === 1 && last !== 58 && last !== 61 && last !== 64) { // : = @
        const begin = description >= 0 ? description : i;
        close(begin);
        open = { name: b.toString('latin1', i, end), begin };
        description = -1;
      }
      i = end;
      last = 65; // a name
      continue;
    }
    if (c !== 32 && c !== NEWLINE && c !== 9 && c !== 13 && c !== 44) last = c;
    i++;
  }
  return { head, members };
}

// The index just past the string (block or plain) that starts at `i`.
function skipString(b: Uint8Array, i: number): number {
  const n = b.length;
  if (b[i + 1] === QUOTE && b[i + 2] === QUOTE) {
    i += 3;
    while (i < n && !(b[i] === QUOTE && b[i + 1] === QUOTE && b[i + 2] === QUOTE && b[i - 1] !== BACKSLASH)) i++;
    return i + 3;
  }
  i++;
  while (i < n && b[i] !== QUOTE && b[i] !== NEWLINE) i += b[i] === BACKSLASH ? 2 : 1;
  return i + 1;
}

const TYPE_KEYWORDS = new Set(['type', 'input', 'enum', 'scalar', 'interface', 'union']);
const KEYWORDS = new Set([...TYPE_KEYWORDS, 'directive', 'schema', 'extend']);

const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57);
const QUOTE = 34, BACKSLASH = 92, HASH = 35, NEWLINE = 10;

/** Scans SDL bytes for its top-level definitions. */
export function indexSdl(b: Uint8Array): SdlIndex {
  const n = b.length;
  const begins: number[] = [];
  const types = new Map<string, number>();
  const directives: number[] = [];
  let schema = -1, eager = false, depth = 0, description = -1;
  const word = (from: number): number => {
    let j = from;
    while (j < n && isNameChar(b[j]!)) j++;
    return j;
  };
  const text = (from: number, to: number): string => Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1');
  for (let i = 0; i < n;) {
    const c = b[i]!;
    if (c === QUOTE) {
      if (depth === 0 && description < 0) description = i;
      i = skipString(b, i);
      continue;
    }
    if (c === HASH) {
      while (i < n && b[i] !== NEWLINE) i++;
      continue;
    }
    if (c === 123 || c === 40 || c === 91) depth++; // { ( [
    else if (c === 125 || c === 41 || c === 93) depth--;
    else if (depth === 0 && isNameStart(c) && (i === 0 || !isNameChar(b[i - 1]!))) {
      const end = word(i);
      const kw = text(i, end);
      i = end;
      if (!KEYWORDS.has(kw)) continue;
      const number = begins.length;
      begins.push(description >= 0 ? description : end - kw.length);
      description = -1;
      if (kw === 'extend' || kw === 'interface') eager = true;
      if (kw === 'schema') {
        schema = number;
        continue;
      }
      while (i < n && (b[i] === 32 || b[i] === NEWLINE || b[i] === 9 || b[i] === 13 || b[i] === 64)) i++; // spaces, '@'
      const nameEnd = word(i);
      const name = text(i, nameEnd);
      i = nameEnd;
      if (kw === 'directive') directives.push(number);
      // Shared: the distinct schemas of a bundle name mostly the same types.
      else if (TYPE_KEYWORDS.has(kw)) types.set(flat(name), number);
      continue;
    }
    i++;
  }
  const ranges = new Int32Array(begins.length * 2);
  begins.forEach((begin, k) => {
    ranges[2 * k] = begin;
    ranges[2 * k + 1] = k + 1 < begins.length ? begins[k + 1]! : n;
  });
  // A type reference is written `: Int`, `[Int` or `= Int` (a union member); a false hit in a
  // description only makes a type known that no field uses.
  const scalars = new Set(['Int', 'Float', 'ID'].filter((name) => [': ', '[', '= ', '| '].some((pre) => {
    const at = Buffer.from(b.buffer, b.byteOffset, n);
    for (let from = at.indexOf(pre + name); from >= 0; from = at.indexOf(pre + name, from + 1)) {
      if (!isNameChar(at[from + pre.length + name.length] ?? 0)) return true;
    }
    return false;
  })));
  return { types, ranges, directives, schema, eager, bytes: n, scalars };
}

/** An SDL text held in memory (a schema compiled in process). */
export function sdlFromText(sdl: string): SdlSource {
  const bytes = Buffer.from(sdl, 'utf8');
  const index = indexSdl(bytes);
  return {
    index,
    read: (begin, end) => bytes.subarray(begin, end),
    definition: (i) => bytes.toString('utf8', index.ranges[2 * i], index.ranges[2 * i + 1]),
    text: () => sdl,
  };
}

/**
 * An SDL file of a bundle, indexed once and then read a definition at a time: the text itself is
 * not kept (on a 1,000-table schema it is 10 MB per distinct role schema).
 */
export function sdlFromFile(path: string): SdlSource {
  if (path.endsWith('.schema.json')) return sdlFromPool(path);
  const index = indexSdl(readFileSync(path));
  const read = (begin: number, end: number): Buffer => readRange(path, begin, end);
  return {
    index,
    read,
    definition: (i) => read(index.ranges[2 * i]!, index.ranges[2 * i + 1]!).toString('utf8'),
    text: () => readFileSync(path, 'utf8'),
  };
}

/**
 * A pooled schema of a bundle (layout.ts): its text is byte ranges of the pool file joined. It is
 * indexed as that text; a read is mapped to the pool (a definition, or a member of one, never
 * spans two ranges: each range is whole definitions).
 */
function sdlFromPool(listingPath: string): SdlSource {
  const listing = JSON.parse(readFileSync(listingPath, 'utf8')) as PooledSchema;
  const pool = join(dirname(listingPath), listing.pool);
  const whole = (): Buffer => pooledBytes(listing, readFileSync(pool));
  // Where each range starts in the schema's text.
  const starts = new Int32Array(listing.ranges.length);
  for (let k = 1; k < starts.length; k++) starts[k] = starts[k - 1]! + listing.ranges[k - 1]![1] - listing.ranges[k - 1]![0];
  const index = indexPooled(listing, pool, starts);
  const read = (begin: number, end: number): Buffer => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= begin) lo = mid;
      else hi = mid - 1;
    }
    const from = listing.ranges[lo]![0] + begin - starts[lo]!;
    return readRange(pool, from, from + end - begin);
  };
  return {
    index,
    read,
    definition: (i) => read(index.ranges[2 * i]!, index.ranges[2 * i + 1]!).toString('utf8'),
    text: () => whole().toString('utf8'),
  };
}

/**
 * The index of a pooled schema's text, made range by range, each read from the pool file alone.
 * Reading the whole pool (15 MB at 1,000 tables) and joining the ranges (10 MB) for each distinct
 * schema made buffers that glibc placed in its main heap once an earlier read of that size had
 * raised its mmap threshold; freed, they stayed in the process's RSS behind later allocations
 * (6 to 56 MB of heap after the same queries, from run to run). A range is a few megabytes at
 * most, and each one's buffer is free for the next. Each range is whole definitions, so its
 * index is the schema's part with its offsets moved by where the range starts.
 */
function indexPooled(listing: PooledSchema, pool: string, starts: Int32Array): SdlIndex {
  const types = new Map<string, number>();
  const directives: number[] = [];
  const scalars = new Set<string>();
  const parts: Int32Array[] = [];
  let schema = -1, eager = false, count = 0;
  const fd = openSync(pool, 'r');
  try {
    listing.ranges.forEach(([begin, end], k) => {
      const part = indexSdl(readAt(fd, begin, end));
      const shift = starts[k]!;
      for (const [name, i] of part.types) types.set(name, count + i);
      for (const i of part.directives) directives.push(count + i);
      for (const name of part.scalars) scalars.add(name);
      if (part.schema >= 0) schema = count + part.schema;
      eager ||= part.eager;
      parts.push(part.ranges.map((x) => x + shift));
      count += part.ranges.length / 2;
    });
  } finally {
    closeSync(fd);
  }
  const ranges = new Int32Array(count * 2);
  let at = 0;
  for (const p of parts) {
    ranges.set(p, at);
    at += p.length;
  }
  const last = listing.ranges.at(-1);
  const bytes = last === undefined ? 0 : starts[starts.length - 1]! + last[1] - last[0];
  return { types, ranges, directives, schema, eager, bytes, scalars };
}

/** The whole text of a bundle's schema file (a pooled schema's ranges joined). */
export function sdlFileText(path: string): string {
  if (!path.endsWith('.schema.json')) return readFileSync(path, 'utf8');
  const listing = JSON.parse(readFileSync(path, 'utf8')) as PooledSchema;
  return pooledBytes(listing, readFileSync(join(dirname(path), listing.pool))).toString('utf8');
}

/** A pooled schema's text as bytes: its ranges of the pool joined. */
export function pooledBytes(listing: PooledSchema, pool: Buffer): Buffer {
  return Buffer.concat(listing.ranges.map(([b, e]) => pool.subarray(b, e)));
}

// The bytes of a file from `begin` to `end`.
function readRange(path: string, begin: number, end: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    return readAt(fd, begin, end);
  } finally {
    closeSync(fd);
  }
}

// The bytes of an open file from `begin` to `end`.
function readAt(fd: number, begin: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(end - begin);
  let got = 0;
  while (got < buf.length) {
    const r = readSync(fd, buf, got, buf.length - got, begin + got);
    if (r === 0) break;
    got += r;
  }
  return buf.subarray(0, got);
}
