// Kriti's lexer (reference/kriti.md §2). Strings are templates, so the lexer keeps a stack of
// modes: code, an object's braces, a `{{ }}` block, a string, and the bare string text of a
// string-only template (url, header values, query params, form fields). `}}` closes a `{{` block
// only when one is open, so `{"a": {"b": 1}}` still closes two objects.

import { KritiFailure, type Span } from './errors.js';

/** Punctuation and operator tokens. */
export type Punct =
  | '{{' | '}}' | '{' | '}' | '[' | ']' | '(' | ')' | '.' | ',' | ':' | '?' | '??' | '==' | '!='
  | '>' | '<' | '>=' | '<=' | '&&' | '||' | ':=' | '_';

/** Reserved words. */
export type Keyword = 'true' | 'false' | 'null' | 'if' | 'elif' | 'else' | 'end' | 'range' | 'not' | 'in';

/** One token with its source span. */
export type Token =
  | { readonly kind: 'ident'; readonly text: string; readonly span: Span }
  | { readonly kind: 'keyword'; readonly text: Keyword; readonly span: Span }
  | { readonly kind: 'number'; readonly text: string; readonly value: number; readonly span: Span }
  | { readonly kind: 'quoted'; readonly text: string; readonly value: string; readonly span: Span }
  | { readonly kind: 'string-begin'; readonly text: string; readonly span: Span }
  | { readonly kind: 'string-text'; readonly text: string; readonly value: string; readonly span: Span }
  | { readonly kind: 'string-end'; readonly text: string; readonly span: Span }
  | { readonly kind: 'punct'; readonly text: Punct; readonly span: Span }
  | { readonly kind: 'eof'; readonly text: ''; readonly span: Span };

const KEYWORDS = new Set<string>(['true', 'false', 'null', 'if', 'elif', 'else', 'end', 'range', 'not', 'in']);
const TWO_CHAR: readonly Punct[] = ['??', '==', '!=', '>=', '<=', '&&', '||', ':='];
const ONE_CHAR = new Set<string>(['[', ']', '(', ')', '.', ',', ':', '?', '>', '<']);
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '{': '{' };

type Mode = 'code' | 'object' | 'block' | 'string' | 'bare-string';

/** Splits a template into tokens; `bareString` lexes the whole text as the inside of a string. */
export function lex(source: string, bareString = false): Token[] {
  return new Lexer(source, bareString).run();
}

class Lexer {
  private pos = 0;
  private readonly modes: Mode[];
  private readonly out: Token[] = [];

  constructor(private readonly src: string, bareString: boolean) {
    this.modes = [bareString ? 'bare-string' : 'code'];
    if (bareString) this.out.push({ kind: 'string-begin', text: '', span: { start: 0, end: 0 } });
  }

  run(): Token[] {
    while (this.pos < this.src.length) {
      const mode = this.modes[this.modes.length - 1]!;
      if (mode === 'string' || mode === 'bare-string') this.stringPiece(mode);
      else this.codeToken();
    }
    const mode = this.modes[this.modes.length - 1]!;
    if (mode === 'string') throw new KritiFailure('Lex Error', 'Unterminated string literal.', { start: this.src.length, end: this.src.length });
    if (mode === 'bare-string') this.out.push({ kind: 'string-end', text: '', span: { start: this.pos, end: this.pos } });
    this.out.push({ kind: 'eof', text: '', span: { start: this.src.length, end: this.src.length } });
    return this.out;
  }

  private top(): Mode {
    return this.modes[this.modes.length - 1]!;
  }

  private punct(text: Punct, length: number): void {
    this.out.push({ kind: 'punct', text, span: { start: this.pos, end: this.pos + length } });
    this.pos += length;
  }

  private codeToken(): void {
    const s = this.src;
    const c = s[this.pos]!;
    if (/\s/.test(c)) {
      this.pos++;
      return;
    }
    if (c === '#') {
      while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
      return;
    }
    const two = s.slice(this.pos, this.pos + 2);
    if (two === '{{') {
      this.modes.push('block');
      this.punct('{{', 2);
      return;
    }
    if (c === '{') {
      this.modes.push('object');
      this.punct('{', 1);
      return;
    }
    if (c === '}') {
      this.closeBrace(two === '}}');
      return;
    }
    if (c === '"') {
      this.modes.push('string');
      this.out.push({ kind: 'string-begin', text: '"', span: { start: this.pos, end: this.pos + 1 } });
      this.pos++;
      return;
    }
    if (c === "'") {
      this.quoted();
      return;
    }
    const op = TWO_CHAR.find((p) => p === two);
    if (op) {
      this.punct(op, 2);
      return;
    }
    if (ONE_CHAR.has(c)) {
      this.punct(c as Punct, 1);
      return;
    }
    if (this.number()) return;
    if (this.word()) return;
    throw new KritiFailure('Lex Error', `Unexpected character '${c}'.`, { start: this.pos, end: this.pos + 1 });
  }

  /** `}` closes an object when one is innermost; `}}` closes a `{{` block when one is innermost. */
  private closeBrace(double: boolean): void {
    const mode = this.top();
    if (mode === 'object') {
      this.modes.pop();
      this.punct('}', 1);
    } else if (mode === 'block' && double) {
      this.modes.pop();
      this.punct('}}', 2);
    } else {
      this.punct(double ? '}}' : '}', double ? 2 : 1);
    }
  }

  private quoted(): void {
    const start = this.pos;
    let i = start + 1;
    let value = '';
    while (i < this.src.length && this.src[i] !== "'") {
      if (this.src[i] === '\\' && i + 1 < this.src.length) i++;
      value += this.src[i];
      i++;
    }
    if (i >= this.src.length) throw new KritiFailure('Lex Error', 'Unterminated string literal.', { start, end: i });
    this.pos = i + 1;
    this.out.push({ kind: 'quoted', text: this.src.slice(start, this.pos), value, span: { start, end: this.pos } });
  }

  private number(): boolean {
    const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.src.slice(this.pos));
    if (!m) return false;
    const text = m[0];
    this.out.push({ kind: 'number', text, value: Number(text), span: { start: this.pos, end: this.pos + text.length } });
    this.pos += text.length;
    return true;
  }

  /** Identifiers (`$body`, `x-svc-role`, a bare `$`), keywords and the lone `_`. */
  private word(): boolean {
    const m = /^(\$?[A-Za-z][A-Za-z0-9_$-]*|\$|_)/u.exec(this.src.slice(this.pos));
    if (!m) return false;
    const text = m[0];
    const span = { start: this.pos, end: this.pos + text.length };
    this.pos += text.length;
    if (text === '_') this.out.push({ kind: 'punct', text: '_', span });
    else if (KEYWORDS.has(text)) this.out.push({ kind: 'keyword', text: text as Keyword, span });
    else this.out.push({ kind: 'ident', text, span });
    return true;
  }

  /** The text of a string up to its end, an escape-free `{{`, or the end of input. */
  private stringPiece(mode: 'string' | 'bare-string'): void {
    const s = this.src;
    const start = this.pos;
    let value = '';
    while (this.pos < s.length) {
      const c = s[this.pos]!;
      if (c === '"' && mode === 'string') break;
      if (c === '{' && s[this.pos + 1] === '{') break;
      if (c === '\\' && this.pos + 1 < s.length) {
        value += this.escape();
        continue;
      }
      value += c;
      this.pos++;
    }
    if (this.pos > start) this.out.push({ kind: 'string-text', text: s.slice(start, this.pos), value, span: { start, end: this.pos } });
    if (this.pos >= s.length) return;
    if (s[this.pos] === '"') {
      this.modes.pop();
      this.out.push({ kind: 'string-end', text: '"', span: { start: this.pos, end: this.pos + 1 } });
      this.pos++;
      return;
    }
    this.modes.push('block');
    this.punct('{{', 2);
  }

  /** One escape sequence; `\/` and unknown escapes stay as written (reference/kriti.md §2). */
  private escape(): string {
    const next = this.src[this.pos + 1]!;
    const simple = ESCAPES[next];
    if (simple !== undefined) {
      this.pos += 2;
      return simple;
    }
    if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.pos + 2, this.pos + 6))) {
      const code = parseInt(this.src.slice(this.pos + 2, this.pos + 6), 16);
      this.pos += 6;
      return String.fromCharCode(code);
    }
    this.pos += 2;
    return `\\${next}`;
  }
}
