// Precompiled conditions (DESIGN.md "the bundle"): a role's permission predicate rendered once, at
// compile time, for its source's dialect: SQL text with typed slots for what only a statement or a
// request gives (the alias of the row it guards, aliases of the rows it reads inside, session
// values and its own literals as parameters). A renderer completes a template by filling the slots
// in: the aliases named and the values numbered as parameters of the statement that holds it, so the
// completed text is the compile-time text with those names and numbers written in.

import { Alias, aliasRef, join, param, raw, session, type Sql } from './fragment.js';
import type { Dialect } from './dialect.js';
import type { Cond, FunctionSource, Source, SqlTemplate, TableSource, TemplateSlot } from './ir/index.js';

/**
 * Renders `cond` (a condition on the row at `row`, with `root` for root references) in `dialect`
 * and cuts it into text and slots. Session values and literals become slots; a variable cannot be
 * in a template (a permission names none).
 */
export function makeTemplate(cond: Cond, row: Alias, root: Alias, dialect: Dialect): SqlTemplate {
  return cutTemplate(dialect.render.cond(cond, { dialect, hints: { valueSensitive: false } }), dialect, row, root);
}

// The variable that marks where a function source's arguments go (no GraphQL variable has this name).
const ARGUMENTS = '\u0000arguments';

/**
 * A root field's source (a table or view, or a function with no arguments yet) rendered in
 * `dialect`: the FROM item's text, with an `arguments` slot where a call's arguments go.
 */
export function makeSourceTemplate(from: TableSource | FunctionSource, dialect: Dialect): SqlTemplate {
  const marked: Source = from.kind === 'function'
    ? { ...from, call: { ...from.call, args: [{ name: null, value: { kind: 'param', value: { kind: 'variable', name: ARGUMENTS, path: [] }, type: null } }] } }
    : from;
  return cutTemplate(dialect.render.source(marked), dialect, null, null);
}

// A fragment cut into text and slots: the aliases `row` and `root` and the rows it reads, session
// values and literals, and the arguments mark.
function cutTemplate(fragment: Sql, dialect: Dialect, row: Alias | null, root: Alias | null): SqlTemplate {
  const text: string[] = [''];
  const slots: TemplateSlot[] = [];
  const inner = new Map<Alias, number>();
  const slot = (s: TemplateSlot): void => { slots.push(s); text.push(''); };
  const walk = (s: Sql): void => {
    switch (s.kind) {
      case 'raw': text[text.length - 1] += s.text; return;
      case 'ident': text[text.length - 1] += s.parts.map((p) => dialect.quoteIdent(p)).join('.'); return;
      case 'key': text[text.length - 1] += dialect.keyLiteral(s.name); return;
      case 'alias': {
        if (s.alias === row) return slot({ kind: 'row' });
        if (s.alias === root) return slot({ kind: 'root' });
        let index = inner.get(s.alias);
        if (index === undefined) inner.set(s.alias, (index = inner.size));
        return slot({ kind: 'alias', index, hint: s.alias.hint });
      }
      case 'param': {
        const src = s.source;
        if (src.kind === 'variable' && src.name === ARGUMENTS) return slot({ kind: 'arguments' });
        if (src.kind === 'variable') throw new Error(`assertion failed: a template holds no variable ($${src.name})`);
        return slot(src.kind === 'session' ? { kind: 'session', name: src.name, type: s.type } : { kind: 'literal', value: src.value, type: s.type });
      }
      case 'seq': for (const it of s.items) walk(it); return;
    }
  };
  walk(fragment);
  return { dialect: dialect.name, text, slots };
}

/** What completes a template's slots: the rows it guards (a condition), the call's arguments (a source). */
export interface TemplateFill {
  readonly row?: Alias;
  readonly root?: Alias;
  readonly args?: Sql;
}

/**
 * A template completed: its text as constant fragments, its slots as the aliases and arguments of
 * `fill`, fresh aliases for the rows it reads (named by the statement, in order of use) and
 * parameters. `dialect` is the renderer's own: a template of another dialect is refused.
 */
export function templateSql(t: SqlTemplate, fill: TemplateFill, dialect: Dialect['name']): Sql {
  if (t.dialect !== dialect) throw new Error(`assertion failed: a ${t.dialect} template rendered as ${dialect}`);
  const inner = new Map<number, Alias>();
  const items: Sql[] = [];
  t.slots.forEach((s, i) => {
    if (t.text[i]) items.push(raw(t.text[i]!));
    items.push(slotFragment(s, fill, inner));
  });
  if (t.text[t.slots.length]) items.push(raw(t.text[t.slots.length]!));
  return join(items, '');
}

function slotFragment(s: TemplateSlot, fill: TemplateFill, inner: Map<number, Alias>): Sql {
  const given = (v: Sql | Alias | undefined): Sql | Alias => {
    if (v === undefined) throw new Error(`assertion failed: nothing fills the ${s.kind} slot of a template`);
    return v;
  };
  switch (s.kind) {
    case 'row': return aliasRef(given(fill.row) as Alias);
    case 'root': return aliasRef(given(fill.root) as Alias);
    case 'alias': {
      let a = inner.get(s.index);
      if (!a) inner.set(s.index, (a = new Alias(s.hint)));
      return aliasRef(a);
    }
    case 'session': return session(s.name, s.type);
    case 'literal': return param(s.value, s.type);
    case 'arguments': return given(fill.args) as Sql;
  }
}

/** A template as a reviewer reads it: each slot named in braces (`{row}`, `{session x-svc-user-id :: int4}`). */
export function templateText(t: SqlTemplate): string {
  const name = (s: TemplateSlot): string => {
    const type = 'type' in s && s.type ? ` :: ${s.type}` : '';
    switch (s.kind) {
      case 'row': return '{row}';
      case 'root': return '{root}';
      case 'alias': return `{alias ${s.hint} #${s.index + 1}}`;
      case 'session': return `{session ${s.name}${type}}`;
      case 'literal': return `{value ${JSON.stringify(s.value)}${type}}`;
      case 'arguments': return '{arguments}';
    }
  };
  return t.text.map((part, i) => (i < t.slots.length ? part + name(t.slots[i]!) : part)).join('');
}
