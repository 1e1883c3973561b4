// Times in webhook bodies are written as Hasura's JSON encoder writes a UTC time: ISO 8601 with a
// `Z`, the fraction only as long as it needs to be ("2024-05-01T10:00:00Z",
// "2018-09-05T07:14:21.601701Z"). The databases' sessions run in UTC (drivers/pg.ts), so a
// timestamp without time zone is already UTC.

const PG_TIME = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?|Z)?$/;

/** PostgreSQL's text of a timestamp (with or without time zone, session in UTC) as ISO 8601 UTC. */
export function isoUtc(text: string): string {
  const m = PG_TIME.exec(text);
  if (!m) return text;
  const offset = m[4];
  if (offset !== undefined && (Number(offset) !== 0 || Number(m[5] ?? 0) !== 0 || Number(m[6] ?? 0) !== 0)) {
    // Only a session in another zone gets here; JavaScript's Date keeps milliseconds, enough for that case.
    return jsIso(new Date(text));
  }
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]}T${m[2]}${fraction ? `.${fraction}` : ''}Z`;
}

/** A JavaScript time in the same form. */
export function jsIso(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, 'Z').replace(/(\.\d*?)0+Z$/, '$1Z');
}
