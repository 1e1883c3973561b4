// The refusal of a key that the receiver does not know, shared by the metadata parser (compiler)
// and the metadata API's own operations (runtime), so both word it alike: the path of the key,
// and the nearest known key when one is close enough to be a slip of the hand.

import { ApiError, type JsonPath } from './api-error.js';

/** Edit distance with transpositions (optimal string alignment): `nmae` is one slip from `name`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known key nearest to `key`, when it is near: at most a third of the key's length apart (at
 * least 1, at most 3), so `tabels` finds `tables` and `x` finds nothing; else a known key that the
 * key cuts short or runs past (`allow_inconsistent`, 4 letters at least). Ties go to the first known.
 */
export function nearestKey(key: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const k of known) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  if (best !== undefined) return best;
  const lower = key.toLowerCase();
  for (const k of known) {
    const other = k.toLowerCase();
    if (Math.min(lower.length, other.length) >= 4 && (other.startsWith(lower) || lower.startsWith(other))) return k;
  }
  return undefined;
}

/** The message for an unknown key: where it is, what it may have meant, what is allowed. */
export function unknownKeyMessage(key: string, what: string, known: readonly string[]): string {
  const near = nearestKey(key, known);
  const hint = near === undefined ? '' : `; did you mean ${JSON.stringify(near)}?`;
  const list = known.length === 0 ? 'it takes no keys' : `expected one of ${[...known].sort().join(', ')}`;
  return `unknown key ${JSON.stringify(key)} in ${what}${hint} (${list})`;
}

/** `parse-failed` at `path` (which ends with the key) for a key that `what` does not have. */
export function unknownKeyError(path: JsonPath, what: string, known: readonly string[]): ApiError {
  const key = String(path[path.length - 1]);
  return new ApiError('parse-failed', unknownKeyMessage(key, what, known), 400, path);
}
