// The temporary table that holds the rows of each write part of a mutation batch: `#kiln_w<n>`,
// numbered in write order so the same statement always prints the same text. Set for the time a
// batch renders, so that row sources reading written rows (scalar.ts) find their table.

import type { Alias } from '../../fragment.js';
import { ident, type Sql } from '../../fragment.js';

let current: Map<Alias, string> | null = null;

/** Renders `fn` with the write parts' tables named. */
export function withWriteTables<T>(writes: readonly Alias[], fn: () => T): T {
  const outer = current;
  current = new Map(writes.map((w, i) => [w, `#kiln_w${i + 1}`]));
  try {
    return fn();
  } finally {
    current = outer;
  }
}

/** The temporary table of a write part. */
export function writeTable(write: Alias): Sql {
  const name = current?.get(write);
  if (name === undefined) throw new Error('assertion failed: a written row source outside its mutation batch');
  return ident(name);
}
