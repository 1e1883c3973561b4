// A precompiled condition of the query IR: a predicate already rendered for one dialect, with
// slots (runtime/sql/template.ts makes and completes them).

/** What fills one slot of a template. */
export type TemplateSlot =
  /** The alias of the row the predicate is on. */
  | { readonly kind: 'row' }
  /** The alias of the root row (`["$", column]` references); the row itself outside nested filters. */
  | { readonly kind: 'root' }
  /** A row the predicate reads itself (EXISTS over a relationship); `index` tells its uses apart, `hint` names it. */
  | { readonly kind: 'alias'; readonly index: number; readonly hint: string }
  /** A session value (`x-svc-user-id`; `*` all of them as a JSON object), bound as a parameter of `type`. */
  | { readonly kind: 'session'; readonly name: string; readonly type: string | null }
  /** A value of the predicate itself, bound as a parameter of `type` (never written into the text). */
  | { readonly kind: 'literal'; readonly value: unknown; readonly type: string | null }
  /** The request's arguments of a function call (a root field's source: `"public"."search"({arguments})`). */
  | { readonly kind: 'arguments' };

/** A predicate (or a root field's source) as its dialect's text: `text[i]`, slot `i`, `text[i + 1]`, …; `text` has one more item than `slots`. */
export interface SqlTemplate {
  /** The dialect it is written in (a source's `dialect`). */
  readonly dialect: 'postgres' | 'mssql' | 'bigquery';
  readonly text: readonly string[];
  readonly slots: readonly TemplateSlot[];
}
