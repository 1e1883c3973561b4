// REST endpoint URL templates (`users/:id/posts`): the checks Hasura makes when it builds its
// endpoint trie. Each returns the reason Hasura reports, or undefined.

export type Segment = { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'variable'; readonly name: string };

export function segments(url: string): Segment[] {
  return url.split('/').map((s) => (s.startsWith(':') ? { kind: 'variable', name: s.slice(1) } : { kind: 'literal', text: s }));
}

/** Empty segments, a bare `:` or a trailing slash. */
export function invalidSegments(url: string): string | undefined {
  const bad = url.split('/').some((s) => s === '' || s === ':');
  return bad ? `Empty segments or unnamed variables are not allowed: ${url}` : undefined;
}

/** The same variable twice. */
export function duplicateVariables(url: string): string | undefined {
  const names = segments(url).flatMap((s) => (s.kind === 'variable' ? [s.name] : []));
  return new Set(names).size !== names.length ? `Duplicate variables found in endpoint path: ${url}` : undefined;
}

/** True when some request path could match both templates (a variable matches any literal). */
export function overlaps(a: string, b: string): boolean {
  const sa = segments(a);
  const sb = segments(b);
  if (sa.length !== sb.length) return false;
  return sa.every((x, i) => {
    const y = sb[i] as Segment;
    return x.kind === 'variable' || y.kind === 'variable' || x.text === y.text;
  });
}
