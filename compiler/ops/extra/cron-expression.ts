// A five-field cron expression (minute hour day-of-month month day-of-week), as cron triggers
// take it. Checked with croner, the library the workers schedule with, so an expression that is
// accepted here is one the workers can run; the messages name the field at fault.

import { Cron } from 'croner';

const FIELDS: readonly string[] = ['minute', 'hour', 'day of month', 'month', 'day of week'];

function parses(pattern: string): boolean {
  try {
    new Cron(pattern, { mode: '5-part', timezone: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

/** The problem with an expression, or undefined when it is valid. */
export function cronProblem(expr: string): string | undefined {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return `expected 5 fields, but found ${fields.length}`;
  // Each field alone (the others `*`), so the message can say which one is wrong.
  for (const [i, f] of fields.entries()) {
    if (!parses(fields.map((x, j) => (j === i ? x : '*')).join(' '))) return `invalid ${FIELDS[i]} field: ${f}`;
  }
  return parses(fields.join(' ')) ? undefined : `invalid cron expression: ${expr}`;
}
