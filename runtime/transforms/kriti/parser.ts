// Kriti's parser (reference/kriti.md §3). Outside `{{ }}` a template is JSON extended with
// string templates and `{{ }}` blocks, and a bare path is a parse error: the v2 engine Kiln
// follows answers `$body.hello }}` with "Unexpected token '$body'." (corpus:
// v1/metadata/test_webhook_transform_bad_parse). Inside `{{ }}` come paths, calls, operators.
// Calls are written `f(e)` or, as that engine's tests do, `f e` (corpus: ..._custom_functions).

import type { BinaryOp, Expr, Step, StringPart } from './ast.js';
import { KritiFailure, type Span } from './errors.js';
import { lex, type Punct, type Token } from './lexer.js';

const BINARY = new Set<string>(['==', '!=', '>', '<', '>=', '<=', '&&', '||', '??']);

/** Parses a full template (a body template). Throws KritiFailure. */
export function parseTemplateExpr(source: string): Expr {
  const p = new Parser(source, lex(source));
  const e = p.value(true);
  p.expectEnd();
  return e;
}

/** Parses a string-only template: the whole text is the inside of a string. Throws KritiFailure. */
export function parseStringTemplateExpr(source: string): Expr {
  const p = new Parser(source, lex(source, true));
  const e = p.value(true);
  p.expectEnd();
  return e;
}

function unexpected(t: Token): KritiFailure {
  if (t.kind === 'eof') return new KritiFailure('Parse Error', 'Unexpected end of input.', t.span);
  return new KritiFailure('Parse Error', `Unexpected token '${t.text}'.`, t.span);
}

function join(a: Span, b: Span): Span {
  return { start: a.start, end: b.end };
}

class Parser {
  private pos = 0;

  constructor(private readonly source: string, private readonly tokens: readonly Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }

  private isPunct(p: Punct, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'punct' && t.text === p;
  }

  private isKeyword(k: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'keyword' && t.text === k;
  }

  private expect(p: Punct): Token {
    if (!this.isPunct(p)) throw unexpected(this.peek());
    return this.next();
  }

  private expectKeyword(k: string): Token {
    if (!this.isKeyword(k)) throw unexpected(this.peek());
    return this.next();
  }

  expectEnd(): void {
    if (this.peek().kind !== 'eof') throw unexpected(this.peek());
  }

  /** A value: JSON, a string template or a `{{ }}` block; `bare` forbids paths and calls. */
  value(bare: boolean): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.next();
        return { kind: 'number', value: t.value, span: t.span };
      case 'string-begin':
        return this.stringTemplate();
      case 'keyword':
        if (t.text === 'null') return (this.next(), { kind: 'null', span: t.span });
        if (t.text === 'true' || t.text === 'false') return (this.next(), { kind: 'boolean', value: t.text === 'true', span: t.span });
        break;
      case 'punct':
        if (t.text === '[') return this.array(bare);
        if (t.text === '{') return this.object(bare);
        if (t.text === '{{') return this.block(bare);
        break;
      default:
        break;
    }
    if (bare) throw unexpected(t);
    return this.expr();
  }

  private stringTemplate(): Expr {
    const begin = this.next();
    const parts: StringPart[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'string-end') {
        this.next();
        return { kind: 'string', parts, span: join(begin.span, t.span) };
      }
      if (t.kind === 'string-text') {
        this.next();
        parts.push({ kind: 'text', text: t.value });
      } else if (this.isPunct('{{')) {
        this.next();
        parts.push({ kind: 'expr', expr: this.expr() });
        this.expect('}}');
      } else {
        throw unexpected(t);
      }
    }
  }

  private array(bare: boolean): Expr {
    const open = this.next();
    const items: Expr[] = [];
    if (!this.isPunct(']')) {
      items.push(this.value(bare));
      while (this.isPunct(',')) {
        this.next();
        items.push(this.value(bare));
      }
    }
    const close = this.expect(']');
    return { kind: 'array', items, span: join(open.span, close.span) };
  }

  private object(bare: boolean): Expr {
    const open = this.next();
    const fields: (readonly [string, Expr])[] = [];
    if (!this.isPunct('}')) {
      fields.push(this.field(bare));
      while (this.isPunct(',')) {
        this.next();
        fields.push(this.field(bare));
      }
    }
    const close = this.expect('}');
    return { kind: 'object', fields, span: join(open.span, close.span) };
  }

  /** `"key": value`; keys are plain string literals, never interpolated. */
  private field(bare: boolean): readonly [string, Expr] {
    const begin = this.peek();
    if (begin.kind !== 'string-begin') throw unexpected(begin);
    this.next();
    let key = '';
    while (this.peek().kind === 'string-text') {
      const t = this.next();
      if (t.kind === 'string-text') key += t.value;
    }
    if (this.peek().kind !== 'string-end') throw unexpected(this.peek());
    this.next();
    this.expect(':');
    return [key, this.value(bare)];
  }

  /** `{{ if }}`, `{{ range }}` or `{{ expr }}`. */
  private block(bare: boolean): Expr {
    if (this.isKeyword('if', 1)) return this.ifBlock(bare);
    if (this.isKeyword('range', 1)) return this.rangeBlock(bare);
    this.next();
    const e = this.expr();
    this.expect('}}');
    return e;
  }

  private ifBlock(bare: boolean): Expr {
    const open = this.next();
    this.next();
    const branches: { cond: Expr; body: Expr }[] = [];
    let cond = this.expr();
    this.expect('}}');
    branches.push({ cond, body: this.value(bare) });
    for (;;) {
      this.expect('{{');
      if (this.isKeyword('elif')) {
        this.next();
        cond = this.expr();
        this.expect('}}');
        branches.push({ cond, body: this.value(bare) });
        continue;
      }
      this.expectKeyword('else');
      this.expect('}}');
      const otherwise = this.value(bare);
      const close = this.endBlock();
      return { kind: 'if', branches, otherwise, span: join(open.span, close) };
    }
  }

  private rangeBlock(bare: boolean): Expr {
    const open = this.next();
    this.next();
    const first = this.next();
    let index: string | null;
    if (first.kind === 'ident') index = first.text;
    else if (first.kind === 'punct' && first.text === '_') index = null;
    else throw unexpected(first);
    this.expect(',');
    const item = this.next();
    if (item.kind !== 'ident') throw unexpected(item);
    this.expect(':=');
    const list = this.expr();
    this.expect('}}');
    const body = this.value(bare);
    const close = this.endBlock();
    return { kind: 'range', index, item: item.text, list, body, span: join(open.span, close) };
  }

  /** `{{ end }}`; returns its span. */
  private endBlock(): Span {
    const open = this.expect('{{');
    this.expectKeyword('end');
    const close = this.expect('}}');
    return join(open.span, close.span);
  }

  /** `not e`, or an operand with at most one binary operator. */
  expr(): Expr {
    if (this.isKeyword('not')) {
      const t = this.next();
      const arg = this.expr();
      return { kind: 'call', name: 'not', nameSpan: t.span, arg, span: join(t.span, arg.span) };
    }
    const left = this.operand();
    const op = this.binaryOp();
    if (!op) return left;
    this.next();
    const right = this.operand();
    return { kind: 'binary', op, left, right, span: join(left.span, right.span) };
  }

  private binaryOp(): BinaryOp | null {
    const t = this.peek();
    if (t.kind === 'punct' && BINARY.has(t.text)) return t.text as BinaryOp;
    if (t.kind === 'keyword' && t.text === 'in') return 'in';
    return null;
  }

  /** A call (`f(e)`, `f e`) or an atom. A call is not an atom: no path may follow it. */
  private operand(): Expr {
    const t = this.peek();
    if (t.kind === 'ident' && !t.text.startsWith('$') && this.startsArgument(this.peek(1))) {
      this.next();
      const arg = this.isPunct('(') ? this.parenthesised() : this.atom();
      return { kind: 'call', name: t.text, nameSpan: t.span, arg, span: join(t.span, arg.span) };
    }
    return this.atom();
  }

  private startsArgument(t: Token): boolean {
    if (t.kind === 'ident' || t.kind === 'number' || t.kind === 'string-begin') return true;
    if (t.kind === 'keyword') return t.text === 'true' || t.text === 'false' || t.text === 'null';
    return t.kind === 'punct' && (t.text === '(' || t.text === '{' || t.text === '{{');
  }

  /** `( e )`; the span is the inner expression's (a Function Error points at the argument). */
  private parenthesised(): Expr {
    this.expect('(');
    const e = this.expr();
    this.expect(')');
    return e;
  }

  private atom(): Expr {
    const t = this.peek();
    let base: Expr;
    if (t.kind === 'ident') {
      this.next();
      base = { kind: 'variable', name: t.text, span: t.span };
    } else if (this.isPunct('(')) {
      base = this.parenthesised();
    } else if (this.isPunct('{{')) {
      base = this.block(false);
    } else {
      base = this.value(true);
      if (base.kind === 'array' || base.kind === 'object') return base;
    }
    return this.postfix(base);
  }

  /** `.name`, `['name']`, `[expr]` and `?` after an atom. */
  private postfix(base: Expr): Expr {
    const steps: Step[] = [];
    let optional: { base: Expr } | null = null;
    let end = base.span;
    for (;;) {
      if (this.isPunct('.')) {
        this.next();
        const name = this.next();
        if (name.kind !== 'ident' && name.kind !== 'keyword') throw unexpected(name);
        steps.push({ kind: 'field', name: name.text, span: name.span });
        end = name.span;
      } else if (this.isPunct('[')) {
        const open = this.next();
        const inner = this.peek();
        let step: Step;
        if (inner.kind === 'quoted') {
          this.next();
          step = { kind: 'field', name: inner.value, span: open.span };
        } else {
          step = { kind: 'index', index: this.expr(), span: open.span };
        }
        const close = this.expect(']');
        steps.push({ ...step, span: join(open.span, close.span) });
        end = close.span;
      } else if (this.isPunct('?')) {
        const q = this.next();
        end = q.span;
        if (!optional) {
          optional = { base: this.wrapPath(base, steps.splice(0)) };
        }
      } else {
        break;
      }
    }
    const span = join(base.span, end);
    if (optional) return { kind: 'optional', base: optional.base, steps, span };
    return this.wrapPath(base, steps, span);
  }

  private wrapPath(base: Expr, steps: readonly Step[], span?: Span): Expr {
    if (steps.length === 0) return base;
    const s = span ?? join(base.span, steps[steps.length - 1]!.span);
    return { kind: 'path', base, steps, text: this.source.slice(s.start, s.end), span: s };
  }
}
