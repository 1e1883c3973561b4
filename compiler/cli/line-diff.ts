// A short unified diff of two texts, line by line: hunks with no context, for `kiln diff` to show
// what changed in a statement without printing the whole file.

/** `@@ -a,n +b,m @@` hunks of changed lines only, cut after `limit` lines. */
export function unifiedDiff(before: string, after: string, limit = 12): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const ops = editScript(a, b);
  const out: string[] = [];
  let changed = 0;
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === 'same') { i++; continue; }
    const start = i;
    while (i < ops.length && ops[i]!.kind !== 'same') i++;
    const hunk = ops.slice(start, i);
    const dels = hunk.filter((o) => o.kind === 'del');
    const adds = hunk.filter((o) => o.kind === 'add');
    const aStart = dels[0]?.a ?? hunk[0]!.a;
    const bStart = adds[0]?.b ?? hunk[0]!.b;
    out.push(`@@ -${aStart + (dels.length ? 1 : 0)},${dels.length} +${bStart + (adds.length ? 1 : 0)},${adds.length} @@`);
    for (const o of [...dels, ...adds]) {
      changed++;
      if (changed <= limit) out.push(o.kind === 'del' ? `-${a[o.a]}` : `+${b[o.b]}`);
    }
  }
  if (changed > limit) out.push(`... ${changed - limit} more changed line(s)`);
  return out;
}

interface Op {
  readonly kind: 'same' | 'del' | 'add';
  /** Index in `a` (for `add`: the position it is inserted at). */
  readonly a: number;
  readonly b: number;
}

// Longest common subsequence by dynamic programming; statement files are small.
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push({ kind: 'same', a: i++, b: j++ }); continue; }
    if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ kind: 'add', a: i, b: j++ });
    else ops.push({ kind: 'del', a: i++, b: j });
  }
  return ops;
}
