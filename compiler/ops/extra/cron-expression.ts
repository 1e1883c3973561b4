// A five-field cron expression (minute hour day-of-month month day-of-week), as cron triggers
// take it. Each field is `*` or a comma list of `n`, `a-b`, with an optional `/step`.

const FIELDS: readonly { readonly name: string; readonly min: number; readonly max: number }[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
];

function number(s: string): number | undefined {
  return /^\d{1,2}$/.test(s) ? Number(s) : undefined;
}

function validPart(part: string, min: number, max: number): boolean {
  const [range, step, ...rest] = part.split('/');
  if (rest.length > 0 || range === undefined) return false;
  if (step !== undefined && !(number(step) !== undefined && (number(step) as number) > 0)) return false;
  if (range === '*') return true;
  const [a, b, ...more] = range.split('-');
  if (more.length > 0 || a === undefined) return false;
  const lo = number(a);
  const hi = b === undefined ? lo : number(b);
  return lo !== undefined && hi !== undefined && lo >= min && hi <= max && lo <= hi;
}

/** The problem with an expression, or undefined when it is valid. */
export function cronProblem(expr: string): string | undefined {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return `expected 5 fields, but found ${fields.length}`;
  for (const [i, f] of fields.entries()) {
    const spec = FIELDS[i];
    if (spec === undefined) continue;
    if (!f.split(',').every((p) => validPart(p, spec.min, spec.max))) return `invalid ${spec.name} field: ${f}`;
  }
  return undefined;
}
