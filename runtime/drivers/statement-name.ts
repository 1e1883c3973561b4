import { createHash } from 'node:crypto';

// Hashing is cheap, but a hot plan runs the same text many times: remember the last few names.
const MAX_REMEMBERED = 2000;
const names = new Map<string, string>();

/**
 * The prepared-statement name for a statement text: a hash of the text, so two different
 * texts never share a name on one connection (pg refuses that) and the same text always
 * reuses its statement. 33 characters, well under PostgreSQL's 63-byte identifier limit.
 */
export function statementName(text: string): string {
  const known = names.get(text);
  if (known !== undefined) return known;
  const name = 'k' + createHash('sha256').update(text).digest('hex').slice(0, 32);
  if (names.size >= MAX_REMEMBERED) names.clear();
  names.set(text, name);
  return name;
}
