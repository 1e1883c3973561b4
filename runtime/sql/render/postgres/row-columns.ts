// The columns of one row that a fragment reads, found in the fragment itself: what the renderer
// wrote is what PostgreSQL will resolve, so nothing that reads the row can be missed.

import type { Alias, Sql } from '../../fragment.js';

/**
 * The columns of `row` that `s` reads, in order of first use, when every reference to `row` in it
 * is a column (`row.col`, as `exprSql` writes one); null when the row is read in any other way (a
 * whole-row reference such as `fn(row)` or `row IS NULL`, a precompiled template's text after the
 * alias, `row.*`), as then only the whole row is safe.
 */
export function columnsRead(s: Sql, row: Alias): readonly string[] | null {
  const leaves = flatten(s, []);
  const columns = new Set<string>();
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i]!;
    if (leaf.kind !== 'alias' || leaf.alias !== row) continue;
    const dot = leaves[i + 1];
    const name = leaves[i + 2];
    if (dot?.kind !== 'raw' || dot.text !== '.' || name?.kind !== 'ident' || name.parts.length !== 1) return null;
    columns.add(name.parts[0]!);
  }
  return [...columns];
}

// The leaves in print order; empty text printed nothing and is left out, so `a` `` `.` still reads as `a.`.
function flatten(s: Sql, out: Sql[]): Sql[] {
  if (s.kind === 'seq') for (const it of s.items) flatten(it, out);
  else if (s.kind !== 'raw' || s.text !== '') out.push(s);
  return out;
}
