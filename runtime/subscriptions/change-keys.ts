// The table keys of the change feed: what a notification's payload names, printed one way.

/** The key of a table in the feed: what a notification's payload parses to, printed the same way. */
export function tableKey(schema: string, name: string): string {
  return JSON.stringify([schema, name]);
}

/** The table key a notification names; null for a payload that is not ours. */
export function keyOfPayload(payload: string): string | null {
  try {
    const v = JSON.parse(payload) as unknown;
    return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' ? tableKey(v[0], v[1]) : null;
  } catch {
    return null;
  }
}
