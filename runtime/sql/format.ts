// Lays compiled SQL out for a person to read: the bundle's .sql files and explain's `sql` use it.

import type { CompiledSql } from './compile.js';

/**
 * Lays a statement out for reading: each sub-SELECT on its own line, indented by nesting, and the
 * main clauses of each query on their own lines. Only whitespace outside quotes changes.
 */
export function formatSql(text: string): string {
  const out: string[] = [];
  let depth = 0;
  let i = 0;
  const newline = (): void => { out.push('\n' + '  '.repeat(depth)); };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      const end = closingQuote(text, i, ch);
      out.push(text.slice(i, end));
      i = end;
      continue;
    }
    if (ch === '(') {
      depth++;
      out.push(ch);
      if (text.startsWith('SELECT ', i + 1)) newline();
      i++;
      continue;
    }
    if (ch === ')') { depth = Math.max(0, depth - 1); out.push(ch); i++; continue; }
    const kw = /^ (FROM|WHERE|ORDER BY|LIMIT|OFFSET) /.exec(text.slice(i, i + 12));
    if (kw) { newline(); out.push(kw[1]!); i += kw[0].length - 1; continue; }
    out.push(ch);
    i++;
  }
  return out.join('').replace(/[ \t]+\n/g, '\n');
}

/** The index just after the quote that closes the one at `start` (a doubled quote is part of the text). */
export function closingQuote(text: string, start: number, q: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === q) {
      if (text[i + 1] === q) { i += 2; continue; }
      return i + 1;
    }
    i++;
  }
  return text.length;
}

/**
 * The header naming each parameter of a statement (a variable, a session value or a constant);
 * with `values`, each line of a variable or session value also shows the value bound (as JSON, so it stays on one line). `first`
 * numbers the first parameter (a statement that wraps another shifts them).
 */
export function paramHeader(sql: Pick<CompiledSql, 'params'>, values?: readonly unknown[], first = 1,
  placeholder: (index: number) => string = (i) => `$${i}`): string[] {
  return sql.params.map((p, i) => {
    const src = p.source;
    const what = src.kind === 'session' ? (src.name === '*' ? 'session (all x-svc-* values as json)' : `session ${src.name}`)
      : src.kind === 'variable' ? `variable $${src.name}${src.path.map((k) => `.${k}`).join('')}` : `constant ${JSON.stringify(src.value)}`;
    const bound = values && src.kind !== 'value' ? ` = ${JSON.stringify(values[i] ?? null)}` : '';
    return `-- ${placeholder(i + first)} = ${what}${p.type ? ` :: ${p.type}` : ''}${bound}`;
  });
}
