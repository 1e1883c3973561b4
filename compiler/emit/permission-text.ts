// Permission predicates as people read them (report.html, `kiln diff`): Hasura's operators, the
// GraphQL field names, relationships by name, session values as their header names.

import type { BoolIr, BundleModel, MutationTemplate, PresetSlot, RootTemplate, TableId, ValueIr, WriteTemplate } from '../../runtime/bundle/index.js';
import { templateText, type SqlTemplate } from '../../runtime/sql/index.js';

const OPS: { readonly [op: string]: string } = {
  _eq: '=', _neq: '!=', _gt: '>', _gte: '>=', _lt: '<', _lte: '<=', _in: 'in', _nin: 'not in',
  _like: 'like', _nlike: 'not like', _ilike: 'ilike', _nilike: 'not ilike', _similar: 'similar to', _nsimilar: 'not similar to',
  _regex: '~', _nregex: '!~', _iregex: '~*', _niregex: '!~*', _ceq: '=', _cneq: '!=', _cgt: '>', _cgte: '>=', _clt: '<', _clte: '<=',
  _contains: 'contains', _contained_in: 'contained in', _has_key: 'has key', _has_keys_any: 'has any key of', _has_keys_all: 'has all keys of',
};

/** A filter or check on rows of `table`, as one line of text (`all rows` for no condition). */
export function filterText(model: BundleModel, table: TableId, ir: BoolIr): string {
  return ir.kind === 'true' ? 'all rows' : text(model, table, ir, false);
}

function text(model: BundleModel, table: TableId, ir: BoolIr, nested: boolean): string {
  const wrap = (s: string): string => (nested ? `(${s})` : s);
  switch (ir.kind) {
    case 'true': return 'true';
    case 'and': return ir.items.length === 0 ? 'true' : ir.items.length === 1 ? text(model, table, ir.items[0]!, nested) : wrap(ir.items.map((i) => text(model, table, i, true)).join(' AND '));
    case 'or': return ir.items.length === 0 ? 'false' : ir.items.length === 1 ? text(model, table, ir.items[0]!, nested) : wrap(ir.items.map((i) => text(model, table, i, true)).join(' OR '));
    case 'not': return `NOT ${text(model, table, ir.item, true)}`;
    case 'column': return compare(fieldOf(model, table, ir.column), ir.op, ir.value, model, table);
    case 'computed': return compare(`${ir.field}()`, ir.op, ir.value, model, table);
    case 'computed_table': return `${ir.field}{ ${text(model, ir.target, ir.where, false)} }`;
    case 'relationship': {
      const rel = model.tables[table]?.relationships.find((r) => r.target === ir.target && JSON.stringify(r.mapping) === JSON.stringify(ir.mapping));
      return `${rel?.name ?? tableLabel(model, ir.target)}{ ${text(model, ir.target, ir.where, false)} }`;
    }
    case 'exists': return `exists ${tableLabel(model, ir.table)}{ ${text(model, ir.table, ir.where, false)} }`;
  }
}

function compare(left: string, op: string, v: ValueIr, model: BundleModel, table: TableId): string {
  if (op === '_is_null') return v.kind === 'literal' ? `${left} is ${v.value === true ? '' : 'not '}null` : `${left} is null = ${value(v, model, table)}`;
  if (op.startsWith('_cast_text')) return compare(`${left}::text`, op.slice('_cast_text'.length), v, model, table);
  return `${left} ${OPS[op] ?? op} ${value(v, model, table)}`;
}

function value(v: ValueIr, model: BundleModel, table: TableId): string {
  switch (v.kind) {
    case 'literal': return JSON.stringify(v.value);
    case 'session': return headerName(v.name);
    case 'variable': return `$${v.name}${v.path.map((p) => `.${p}`).join('')}`;
    case 'column': return v.root ? `$.${fieldOf(model, table, v.column)}` : fieldOf(model, table, v.column);
  }
}

// `x-svc-user-id` -> `X-Svc-User-Id`, as the metadata and the headers spell it.
function headerName(name: string): string {
  return name.split('-').map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w)).join('-');
}

function fieldOf(model: BundleModel, table: TableId, column: string): string {
  return model.tables[table]?.columns.find((c) => c.name === column)?.field ?? column;
}

/** `schema.name` of a table (with `source:` when the bundle has several sources). */
export function tableLabel(model: BundleModel, id: TableId): string {
  const t = model.tables[id];
  if (!t) return id;
  return model.sources.length > 1 ? `${t.source}:${t.schema}.${t.name}` : `${t.schema}.${t.name}`;
}

/**
 * A root field's template as a reviewer reads it, two lines: source and filter; columns, row limit
 * (with `shown.limit`) row limit and (with `shown.aggregations`) aggregation switch, slots in braces.
 * A SQL file shows the limit and the switch where its statement uses them (not on a by-key read;
 * the switch on aggregate fields): other files stay the same text for roles that differ in them
 * alone, and are stored once.
 */
export function rootTemplateLines(t: RootTemplate, shown: { readonly limit: boolean; readonly aggregations: boolean } = { limit: true, aggregations: true }): readonly [string, string] {
  return [`from: ${templateText(t.source)}; filter: ${t.filter ? templateText(t.filter) : 'none (every row)'}`,
    [`columns: ${t.columns.join(', ')}`, ...(shown.limit ? [`row limit: ${t.limit ?? 'none'}`] : []),
      ...(shown.aggregations ? [`aggregations: ${t.aggregations ? 'yes' : 'no'}`] : [])].join('; ')];
}


/**
 * A mutation root field's template as a reviewer reads it, one line a part: the written table with
 * the columns and presets (an insert's or an update's; the update permission an insert's
 * `on_conflict` applies on a line of its own), the filter and check, the columns `returning` may
 * read, and whether the permission is backend only. A function's as a query function root's (its
 * call, the filter, columns and row limit its rows are read with). Slots in braces.
 */
export function mutationTemplateLines(t: MutationTemplate): string[] {
  if (t.function !== undefined) {
    return t.returning ? [...rootTemplateLines({ ...t.returning, source: t.target }, { limit: true, aggregations: false })] : [`from: ${templateText(t.target)}`];
  }
  const cond = (c: SqlTemplate | null | undefined): string => (c ? templateText(c) : 'none (every row)');
  const write = (w: WriteTemplate): string => {
    const presets = Object.entries(w.presets).map(([column, slot]) => `${column} = ${presetText(slot)}`);
    return `columns: ${w.columns.join(', ') || 'none'}${presets.length > 0 ? `; presets: ${presets.join(', ')}` : ''}`;
  };
  const lines: string[] = [];
  const target = templateText(t.target);
  if (t.insert) {
    lines.push(`insert into: ${target}; ${write(t.insert)}`, `check: ${cond(t.insert.check)}`);
    if (t.update) lines.push(`on conflict: update ${write(t.update)}; filter: ${cond(t.update.filter)}; check: ${cond(t.update.check)}`);
  } else if (t.update) {
    lines.push(`update: ${target}; ${write(t.update)}`, `filter: ${cond(t.update.filter)}; check: ${cond(t.update.check)}`);
  } else if (t.delete) {
    lines.push(`delete from: ${target}; filter: ${cond(t.delete.filter)}`);
  }
  lines.push(`returning columns: ${t.returning ? t.returning.columns.join(', ') : 'the role\'s select permission'}${t.backendOnly ? '; backend only' : ''}`);
  return lines;
}

// A preset's slot as templateText names slots.
function presetText(s: PresetSlot): string {
  return templateText({ dialect: 'postgres', text: ['', ''], slots: [s] });
}
