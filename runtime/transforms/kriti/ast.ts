// The syntax tree of a Kriti template. Every node keeps its source span for error positions.

import type { Span } from './errors.js';

/** Binary operators; they do not chain (reference/kriti.md §3). */
export type BinaryOp = '==' | '!=' | '>' | '<' | '>=' | '<=' | '&&' | '||' | 'in' | '??';

/** One step of a path: `.name` / `['name']`, or `[expr]`. */
export type Step =
  | { readonly kind: 'field'; readonly name: string; readonly span: Span }
  | { readonly kind: 'index'; readonly index: Expr; readonly span: Span };

/** One piece of a string template: literal text or an interpolated expression. */
export type StringPart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'expr'; readonly expr: Expr };

/** A Kriti expression. */
export type Expr =
  | { readonly kind: 'null'; readonly span: Span }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly span: Span }
  | { readonly kind: 'number'; readonly value: number; readonly span: Span }
  | { readonly kind: 'string'; readonly parts: readonly StringPart[]; readonly span: Span }
  | { readonly kind: 'array'; readonly items: readonly Expr[]; readonly span: Span }
  | { readonly kind: 'object'; readonly fields: readonly (readonly [string, Expr])[]; readonly span: Span }
  | { readonly kind: 'variable'; readonly name: string; readonly span: Span }
  /** `base.a[0]`: every step must succeed; `text` is the path as written (for Invalid Path). */
  | { readonly kind: 'path'; readonly base: Expr; readonly steps: readonly Step[]; readonly text: string; readonly span: Span }
  /** `base?.a[0]`: a failing base counts as null, and a failing step gives null. */
  | { readonly kind: 'optional'; readonly base: Expr; readonly steps: readonly Step[]; readonly span: Span }
  | { readonly kind: 'call'; readonly name: string; readonly nameSpan: Span; readonly arg: Expr; readonly span: Span }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr; readonly span: Span }
  | { readonly kind: 'if'; readonly branches: readonly { readonly cond: Expr; readonly body: Expr }[]; readonly otherwise: Expr; readonly span: Span }
  | { readonly kind: 'range'; readonly index: string | null; readonly item: string; readonly list: Expr; readonly body: Expr; readonly span: Span };
