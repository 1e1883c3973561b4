// Renames Hasura's vendor words to Kiln's in a metadata document: `x-hasura-` becomes `x-svc-`
// with the letter case of the original kept (X-Hasura-User-Id -> X-Svc-User-Id, as Kiln's
// conformance runner translates Hasura's own tests), and `HASURA_GRAPHQL_` becomes `SVC_GRAPHQL_`.
// Both keys and string values are renamed; each rename is counted by the kind of place it was in.

/** Where a renamed word stood, for the report. */
export type RenameKind = 'permission session variable' | 'header' | 'environment reference' | 'remote schema preset'
  | 'session variable in .env (claims maps, settings)' | 'other';

/** How many words of each kind were renamed. */
export type RenameCounts = Partial<Record<RenameKind, number>>;

const SESSION_PREFIX = /(x-)(hasura)(-)/gi;
const ENV_PREFIX = /HASURA_GRAPHQL_/g;

// The spelling of `svc` that matches how `hasura` was written (all caps, all lower, or capitalised).
function caseLike(sample: string): string {
  if (sample === sample.toUpperCase()) return 'SVC';
  if (sample === sample.toLowerCase()) return 'svc';
  return sample[0] === sample[0]!.toUpperCase() ? 'Svc' : 'svc';
}

/** One string with its vendor words renamed, and how many there were of each. */
export function renameString(s: string): { text: string; session: number; env: number } {
  let session = 0;
  let env = 0;
  const text = s
    .replace(SESSION_PREFIX, (_m, x: string, h: string, d: string) => { session++; return x + caseLike(h) + d; })
    .replace(ENV_PREFIX, () => { env++; return 'SVC_GRAPHQL_'; });
  return { text, session, env };
}

// The kind of a session-variable rename, from the keys on the way to it.
function sessionKind(path: readonly (string | number)[]): RenameKind {
  if (path.includes('headers')) return 'header';
  if (path.includes('permissions') && path.includes('remote_schemas')) return 'remote schema preset';
  if (path.some((k) => typeof k === 'string' && (k === 'permissions' || k.endsWith('_permissions')))) return 'permission session variable';
  return 'other';
}

/** Renames the vendor words of a JSON-like value, adding what it renamed to `counts`. */
export function renameVendorWords(value: unknown, counts: RenameCounts, path: readonly (string | number)[] = []): unknown {
  const add = (kind: RenameKind, n: number): void => { if (n > 0) counts[kind] = (counts[kind] ?? 0) + n; };
  const str = (s: string, at: readonly (string | number)[]): string => {
    const r = renameString(s);
    add(sessionKind(at), r.session);
    add('environment reference', r.env);
    return r.text;
  };
  if (typeof value === 'string') return str(value, path);
  if (Array.isArray(value)) return value.map((x, i) => renameVendorWords(x, counts, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [str(k, [...path, k]), renameVendorWords(x, counts, [...path, k])]));
  }
  return value;
}
