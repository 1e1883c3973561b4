/** What a Cache-Control value says about reuse. */
export interface CacheControl {
  /** `no-cache`, `no-store` or `must-revalidate` is present. */
  readonly revalidate: boolean;
  /** `max-age`, else `s-maxage`, in seconds, when one parses. */
  readonly maxAge: number | null;
}

/** Parses a Cache-Control header value (directives are case-insensitive, comma-separated). */
export function parseCacheControl(value: string): CacheControl {
  let revalidate = false;
  let maxAge: number | null = null;
  let sMaxAge: number | null = null;
  for (const part of value.split(',')) {
    const [rawName, ...rest] = part.split('=');
    const name = (rawName ?? '').trim().toLowerCase();
    const arg = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (name === 'no-cache' || name === 'no-store' || name === 'must-revalidate') revalidate = true;
    else if (name === 'max-age' && /^\d+$/.test(arg)) maxAge = Number(arg);
    else if (name === 's-maxage' && /^\d+$/.test(arg)) sMaxAge = Number(arg);
  }
  return { revalidate, maxAge: maxAge ?? sMaxAge };
}

/** Parses an HTTP date (`Mon, 30 Mar 2020 13:25:18 GMT`) to epoch milliseconds, or null. */
export function parseHttpDate(value: string): number | null {
  const v = value.trim();
  // IMF-fixdate, the format Hasura parses (`%a, %d %b %Y %T GMT`).
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v)) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}
