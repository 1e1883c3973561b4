// URL and form text: splitting a URL from its query, reading query parameters as Kriti's
// `$query_params` pairs, and percent-encoding pairs for a query string or a form body.

import { escapeUri } from './kriti/index.js';

/** A query parameter; a key written without `=` has a null value. */
export type QueryPair = readonly [string, string | null];

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** The URL without its query (a fragment is dropped with it). */
export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

/** The query parameters of a URL, in order. */
export function queryPairs(url: string): QueryPair[] {
  const q = /\?([^#]*)/.exec(url)?.[1];
  if (!q) return [];
  return q.split('&').filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    return eq < 0 ? [decode(p), null] as const : [decode(p.slice(0, eq)), decode(p.slice(eq + 1))] as const;
  });
}

/** `k=v&k2` with keys and values percent-encoded (only unreserved characters left as they are). */
export function encodePairs(pairs: readonly QueryPair[]): string {
  return pairs.map(([k, v]) => (v === null ? escapeUri(k) : `${escapeUri(k)}=${escapeUri(v)}`)).join('&');
}

/** `base` with `query` as its query string (none when empty). */
export function withQuery(base: string, query: string): string {
  const q = query.startsWith('?') ? query.slice(1) : query;
  return q === '' ? base : `${base}?${q}`;
}

/** True for text that parses as an absolute URI (a scheme, then a valid URL). */
export function isAbsoluteUrl(text: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}
