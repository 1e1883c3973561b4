// The one SQL writer: an immutable fragment tree, printed by a pure function to {text, params}.
// User values only ever become parameters; names only ever go through the dialect's quoting.

/** Where a parameter's value comes from when a plan runs. */
export type ParamSource =
  | { readonly kind: 'value'; readonly value: unknown }                 // fixed at plan time
  // `shown`: a number is sent as Haskell shows it (a numeric column's value in a mutation, numeric-text.ts).
  | { readonly kind: 'variable'; readonly name: string; readonly path: readonly (string | number)[]; readonly shown?: true }
  | { readonly kind: 'session'; readonly name: string };                // x-svc-* value, bound per request

export type Sql =
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'ident'; readonly parts: readonly string[] }
  | { readonly kind: 'param'; readonly source: ParamSource; readonly type: string | null }
  | { readonly kind: 'alias'; readonly alias: Alias }
  | { readonly kind: 'key'; readonly name: string }
  | { readonly kind: 'seq'; readonly items: readonly Sql[] };

/** A table alias; printed deterministically in order of first use (`_track_1`). */
export class Alias {
  constructor(readonly hint: string) {}
}

const SQL = Symbol('sql');
type Tagged = Sql & { readonly [SQL]: true };

function mark<T extends Sql>(s: T): T {
  return Object.assign(s, { [SQL]: true as const });
}

/** True when `x` was built by this module. */
export function isSql(x: unknown): x is Sql {
  return typeof x === 'object' && x !== null && (x as Tagged)[SQL] === true;
}

/** Template tag: accepts only fragments, never plain strings. */
export function sql(strings: TemplateStringsArray, ...values: Sql[]): Sql {
  const items: Sql[] = [];
  strings.forEach((s, i) => {
    if (s) items.push(mark({ kind: 'raw', text: s }));
    if (i < values.length) {
      const v = values[i];
      if (!isSql(v)) throw new TypeError(`sql: interpolated value #${i} is not a fragment (${typeof v})`);
      items.push(v);
    }
  });
  return mark({ kind: 'seq', items });
}

/** A constant keyword or operator. Every caller passes a literal; never user input. */
export function raw(text: string): Sql {
  return mark({ kind: 'raw', text });
}

/** A quoted schema/table/column/function name. */
export function ident(...parts: string[]): Sql {
  return mark({ kind: 'ident', parts });
}

/** A request value, bound as a parameter; `type` is the Postgres type it is cast to. */
export function param(value: unknown, type: string | null = null): Sql {
  return mark({ kind: 'param', source: { kind: 'value', value }, type });
}

/** A GraphQL variable (or a part of one) bound per request. */
export function variable(name: string, path: readonly (string | number)[], type: string | null, shown = false): Sql {
  return mark({ kind: 'param', source: { kind: 'variable', name, path, ...(shown ? { shown: true as const } : {}) }, type });
}

/** A session variable slot (`x-svc-user-id`), bound per request, never inlined. */
export function session(name: string, type: string | null): Sql {
  return mark({ kind: 'param', source: { kind: 'session', name: name.toLowerCase() }, type });
}

/** A table alias fragment. */
export function aliasRef(a: Alias): Sql {
  return mark({ kind: 'alias', alias: a });
}

/** A JSON object key (a GraphQL name: response key or type name), printed as a string literal. */
export function jsonKey(name: string): Sql {
  if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) throw new TypeError(`jsonKey: not a GraphQL name: ${name}`);
  return mark({ kind: 'key', name });
}

/** Joins fragments with a constant separator. */
export function join(items: readonly Sql[], sep: string): Sql {
  const out: Sql[] = [];
  items.forEach((it, i) => {
    if (i > 0) out.push(raw(sep));
    out.push(it);
  });
  return mark({ kind: 'seq', items: out });
}

/** The empty fragment. */
export const empty: Sql = raw('');
