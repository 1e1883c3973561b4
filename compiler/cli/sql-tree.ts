// A statement as nested parenthesis groups of tokens: just enough structure for `kiln check` to
// find each table reference, the WHERE clause at its level and the conjuncts of that clause.
// Only the SQL the runtime prints is read (PostgreSQL or T-SQL spelling, keywords upper case).

import { closingQuote } from '../../runtime/sql/index.js';

/** One token; a group holds the tokens between a pair of parentheses. */
export type Token =
  | { readonly kind: 'ident'; readonly name: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'word'; readonly text: string }
  | { readonly kind: 'param'; readonly index: number }
  | { readonly kind: 'punct'; readonly text: string }
  | Group;

export interface Group {
  readonly kind: 'group';
  readonly tokens: Token[];
  readonly parent: Group | null;
}

const WORD = /[A-Za-z0-9_]/;
const PUNCT = /[<>=!~*@?|&#+\-/%^:]/;

/**
 * Tokenizes `text` into a tree of groups (`tsql`: T-SQL's `[name]`, `N'text'` and `@pN` too). Live-query statements read parameters as columns of
 * the per-cohort relation (`"_subs"."p1"` is the statement's `$2`): those become params too.
 */
export function parseSqlTree(text: string, opts: { readonly tsql?: boolean } = {}): Group {
  const tsql = opts.tsql === true;
  const root: Group = { kind: 'group', tokens: [], parent: null };
  let cur = root;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '-' && text[i + 1] === '-') { while (i < text.length && text[i] !== '\n') i++; continue; }
    // T-SQL: `[name]` (a `]` doubled inside), `N'text'`, `@pN`.
    if (tsql && ch === '[') {
      let j = i + 1;
      let name = '';
      while (j < text.length) {
        if (text[j] === ']') { if (text[j + 1] === ']') { name += ']'; j += 2; continue; } break; }
        name += text[j]; j++;
      }
      cur.tokens.push({ kind: 'ident', name });
      i = j + 1;
      continue;
    }
    if (tsql && ch === 'N' && text[i + 1] === "'" && !WORD.test(text[i - 1] ?? ' ')) { i++; continue; }
    if (tsql && ch === '@' && text[i + 1] === 'p' && /\d/.test(text[i + 2] ?? '')) {
      let j = i + 2;
      while (j < text.length && /\d/.test(text[j]!)) j++;
      cur.tokens.push({ kind: 'param', index: Number(text.slice(i + 2, j)) });
      i = j;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = closingQuote(text, i, ch);
      const body = text.slice(i + 1, end - 1).split(ch + ch).join(ch);
      cur.tokens.push(ch === '"' ? { kind: 'ident', name: body } : { kind: 'string', text: body });
      i = end;
      continue;
    }
    if (ch === '(') { const g: Group = { kind: 'group', tokens: [], parent: cur }; cur.tokens.push(g); cur = g; i++; continue; }
    if (ch === ')') { cur = cur.parent ?? cur; i++; continue; }
    if (ch === '$' && /\d/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /\d/.test(text[j]!)) j++;
      cur.tokens.push({ kind: 'param', index: Number(text.slice(i + 1, j)) });
      i = j;
      continue;
    }
    if (WORD.test(ch)) {
      let j = i;
      while (j < text.length && WORD.test(text[j]!)) j++;
      cur.tokens.push({ kind: 'word', text: text.slice(i, j) });
      i = j;
      continue;
    }
    if (PUNCT.test(ch)) {
      let j = i;
      while (j < text.length && PUNCT.test(text[j]!)) j++;
      cur.tokens.push({ kind: 'punct', text: text.slice(i, j) });
      i = j;
      continue;
    }
    cur.tokens.push({ kind: 'punct', text: ch });
    i++;
  }
  cohortParams(root);
  return root;
}

// `"_subs"."pN"` -> param N+1 (multiplexed live queries: $1 is the cohort id array).
function cohortParams(g: Group): void {
  const t = g.tokens;
  for (let i = 0; i < t.length; i++) {
    const a = t[i]!;
    if (a.kind === 'group') { cohortParams(a); continue; }
    const b = t[i + 1];
    const c = t[i + 2];
    if (a.kind === 'ident' && a.name === '_subs' && b?.kind === 'punct' && b.text === '.' && c?.kind === 'ident' && /^p\d+$/.test(c.name)) {
      t.splice(i, 3, { kind: 'param', index: Number(c.name.slice(1)) + 1 });
    }
  }
}

/** True when `t` is the keyword `kw` (any case). */
export function isWord(t: Token | undefined, kw: string): boolean {
  return t?.kind === 'word' && t.text.toUpperCase() === kw;
}

/** True when `t` is the punctuation `p`. */
export function isPunct(t: Token | undefined, p: string): boolean {
  return t?.kind === 'punct' && t.text === p;
}

/** Every group inside `g` (itself included), depth first. */
export function* groupsOf(g: Group): Generator<Group> {
  yield g;
  for (const t of g.tokens) if (t.kind === 'group') yield* groupsOf(t);
}

/** Printed aliases look like `_article_1` (runtime/sql compile: hint and first-use number). */
export function isAliasName(name: string): boolean {
  return /^_[A-Za-z0-9_]*_\d+$/.test(name);
}

/** How a parameter reads in canonical text: what it is bound to (`session x-svc-user-id`), not its number. */
export type ParamNames = (index: number) => string;

/**
 * Canonical text of a token list: one space between tokens, parameters by what they hold, and
 * aliases renamed by first appearance (`main` is @0), so the same predicate printed inside a
 * bigger statement and on its own compare equal.
 */
export function canonical(tokens: readonly Token[], main: string | null, params: ParamNames): string {
  const names = new Map<string, string>();
  if (main !== null) names.set(main, '@0');
  const out: string[] = [];
  const walk = (list: readonly Token[]): void => {
    list.forEach((t, i) => {
      switch (t.kind) {
        case 'group': out.push('('); walk(t.tokens); out.push(')'); return;
        case 'ident': {
          const qualified = isPunct(list[i - 1], '.');
          if (!qualified && isAliasName(t.name)) {
            if (!names.has(t.name)) names.set(t.name, `@${names.size}`);
            out.push(names.get(t.name)!);
          } else {
            out.push(JSON.stringify(t.name));
          }
          return;
        }
        case 'string': out.push(`s${JSON.stringify(t.text)}`); return;
        case 'word': out.push(t.text.toUpperCase()); return;
        case 'param': out.push(`$[${params(t.index)}]`); return;
        case 'punct': out.push(t.text); return;
      }
    });
  };
  walk(tokens);
  return out.join(' ');
}

/**
 * The conjuncts of a boolean expression: wrapping parentheses dropped, split at AND where the
 * level has no OR (AND binds tighter) and no CASE (whose WHEN may hold an AND of its own).
 */
export function conjuncts(tokens: readonly Token[]): Token[][] {
  let t = tokens;
  while (t.length === 1 && t[0]!.kind === 'group') t = t[0]!.tokens;
  if (t.some((x) => isWord(x, 'OR') || isWord(x, 'CASE'))) return [[...t]];
  const parts: Token[][] = [[]];
  for (const x of t) {
    if (isWord(x, 'AND')) parts.push([]);
    else parts[parts.length - 1]!.push(x);
  }
  return parts.length === 1 ? [parts[0]!] : parts.flatMap((p) => conjuncts(p));
}
