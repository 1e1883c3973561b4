// A text as the changes that turn another text into it: how a large bundle stores a statement
// that differs from another of the same table in a few places (a role's filter, a row limit, the
// parameter lines of its header). Myers' O(ND) difference over tokens (word, space and punctuation
// runs), given up past a bound on the number of changes: a text that far from its base is stored
// whole, so a long search would be wasted.

/** One change: at `at` (a UTF-16 offset of the base text), `remove` code units replaced by `insert`. */
export type TextEdit = readonly [at: number, remove: number, insert: string];

/** Texts cut into tokens once, each token numbered (equal tokens, equal numbers) for fast comparison. */
export class TokenTable {
  private readonly ids = new Map<string, number>();

  /** The token numbers of a text and where each token ends. */
  tokens(text: string): { readonly ids: Int32Array; readonly ends: Int32Array } {
    const found = text.match(/\s+|\w+|[^\w\s]+/g) ?? [];
    const ids = new Int32Array(found.length);
    const ends = new Int32Array(found.length);
    let end = 0;
    for (let i = 0; i < found.length; i++) {
      const t = found[i]!;
      let id = this.ids.get(t);
      if (id === undefined) this.ids.set(t, (id = this.ids.size));
      ids[i] = id;
      ends[i] = end += t.length;
    }
    return { ids, ends };
  }
}

type Tokens = ReturnType<TokenTable['tokens']>;

/**
 * The edits that turn `base` into `text` (both cut by the same TokenTable), or null when they
 * differ in more than `maxChanges` tokens inserted or removed.
 */
export function textDelta(base: string, baseTokens: Tokens, text: string, textTokens: Tokens, maxChanges: number): TextEdit[] | null {
  const a = baseTokens.ids;
  const b = textTokens.ids;
  const runs = matchingRuns(a, b, maxChanges);
  if (runs === null) return null;
  const startOf = (t: Tokens, i: number): number => (i === 0 ? 0 : t.ends[i - 1]!);
  const edits: TextEdit[] = [];
  let pa = 0;
  let pb = 0;
  for (const [ra, rb, len] of [...runs, [a.length, b.length, 0] as const]) {
    if (ra > pa || rb > pb) {
      const at = startOf(baseTokens, pa);
      edits.push([at, startOf(baseTokens, ra) - at, text.slice(startOf(textTokens, pb), startOf(textTokens, rb))]);
    }
    pa = ra + len;
    pb = rb + len;
  }
  return edits;
}

/** The text the edits make of `base` (edits in order of `at`, as textDelta gives them). */
export function applyDelta(base: string, edits: readonly TextEdit[]): string {
  let out = '';
  let from = 0;
  for (const [at, remove, insert] of edits) {
    out += base.slice(from, at) + insert;
    from = at + remove;
  }
  return out + base.slice(from);
}

// The runs of equal tokens ([index in a, index in b, length], in order) of a shortest edit
// script, or null past maxChanges insertions and removals. The common beginning and end are
// matched first; Myers' search runs on what is between.
function matchingRuns(a: Int32Array, b: Int32Array, maxChanges: number): [number, number, number][] | null {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.subarray(head, a.length - tail), b.subarray(head, b.length - tail), maxChanges);
  if (middle === null) return null;
  const runs: [number, number, number][] = head > 0 ? [[0, 0, head]] : [];
  for (const [x, y, len] of middle) runs.push([x + head, y + head, len]);
  if (tail > 0) runs.push([a.length - tail, b.length - tail, tail]);
  return runs;
}

// Myers' greedy forward search over the tokens between the common beginning and end.
function myers(a: Int32Array, b: Int32Array, maxChanges: number): [number, number, number][] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(maxChanges, n + m);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // Before step d, the diagonals -d-1 .. d+1 it reads (kept for the way back; index k + d + 1).
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number): [number, number, number][] {
  const runs: [number, number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d]!;
    const off = d + 1;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[off + prevK]!;
    const prevY = prevX - prevK;
    // The move from (prevX, prevY) was one step right or down, then a diagonal run to (x, y).
    const startX = prevK === k + 1 ? prevX : prevX + 1;
    if (x > startX) runs.push([startX, startX - k, x - startX]);
    x = prevX;
    y = prevY;
  }
  if (x > 0) runs.push([0, 0, x]);
  return runs.reverse();
}
