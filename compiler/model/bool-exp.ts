import type { BoolIr, Json, TableModel, ValueIr } from '../../runtime/bundle/index.js';

export interface BoolExpContext {
  readonly tables: ReadonlyMap<string, TableModel>;
  readonly source: string;
}

const COLUMN_OPS = new Set(['_eq', '_neq', '_ne', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_is_null', '_like', '_nlike',
  '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_nregex', '_iregex', '_niregex', '_contains', '_contained_in',
  '_has_key', '_has_keys_any', '_has_keys_all', '_ceq', '_cne', '_cneq', '_cgt', '_cgte', '_clt', '_clte',
  '_st_contains', '_st_intersects', '_st_within', '_st_equals', '_st_touches', '_st_crosses', '_st_overlaps', '_st_d_within',
  '_st_3d_intersects', '_st_3d_d_within',
  '_ancestor', '_descendant', '_matches']);

/** Permission filter JSON (`{"author_id": {"_eq": "X-Svc-User-Id"}}`) to BoolIr, or a reason it does not fit. */
export function resolveBoolExp(exp: Json | undefined, table: TableModel, ctx: BoolExpContext, path = '$'): BoolIr | string {
  if (exp === undefined || exp === null) return { kind: 'true' };
  if (typeof exp !== 'object' || Array.isArray(exp)) return `${path}: expected an object for a boolean expression`;
  const items: BoolIr[] = [];
  for (const [rawKey, value] of Object.entries(exp)) {
    const key = rawKey.startsWith('$') ? `_${rawKey.slice(1)}` : rawKey;
    const r = resolveKey(key, value, table, ctx, `${path}.${rawKey}`);
    if (typeof r === 'string') return r;
    items.push(r);
  }
  return items.length === 1 ? items[0]! : items.length === 0 ? { kind: 'true' } : { kind: 'and', items };
}

function resolveKey(key: string, value: Json, table: TableModel, ctx: BoolExpContext, path: string): BoolIr | string {
  if (key === '_and' || key === '_or') {
    const list = Array.isArray(value) ? value : [value];
    const items: BoolIr[] = [];
    for (const [i, v] of list.entries()) {
      const r = resolveBoolExp(v, table, ctx, `${path}[${i}]`);
      if (typeof r === 'string') return r;
      items.push(r);
    }
    return { kind: key === '_and' ? 'and' : 'or', items };
  }
  if (key === '_not') {
    const r = resolveBoolExp(value, table, ctx, path);
    return typeof r === 'string' ? r : { kind: 'not', item: r };
  }
  if (key === '_exists') {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return `${path}: expected {_table, _where}`;
    const t = value['_table'];
    const qt = typeof t === 'string' ? { schema: 'public', name: t } : (t as { schema?: string; name?: string } | undefined);
    const target = qt?.name ? ctx.tables.get(`${ctx.source}:${qt.schema ?? 'public'}.${qt.name}`) : undefined;
    if (!target) return `${path}._table: table ${JSON.stringify(t)} is not tracked`;
    const where = resolveBoolExp(value['_where'] ?? {}, target, ctx, `${path}._where`);
    return typeof where === 'string' ? where : { kind: 'exists', table: target.id, where };
  }
  const rel = table.relationships.find((r) => r.name === key);
  if (rel) {
    const target = ctx.tables.get(rel.target)!;
    const where = resolveBoolExp(value, target, ctx, path);
    return typeof where === 'string' ? where : { kind: 'relationship', target: rel.target, mapping: rel.mapping, where };
  }
  const column = table.columns.find((c) => c.name === key);
  const needsArgs = column ? undefined : table.computedFields.find((c) => c.name === key && c.args.some((x) => !x.hasDefault));
  if (needsArgs) return `${path}: computed field "${key}" takes input arguments, which a boolean expression cannot give`;
  const rows = column ? undefined : table.computedFields.find((c) => c.name === key && c.returns.kind === 'table');
  if (rows && rows.returns.kind === 'table') {
    // A computed field returning rows filters like an array relationship: some row matches.
    const target = ctx.tables.get(rows.returns.table)!;
    const where = resolveBoolExp(value, target, ctx, path);
    return typeof where === 'string' ? where : { kind: 'computed_table', table: table.id, field: rows.name, target: target.id, where };
  }
  const computed = column ? undefined : table.computedFields.find((c) => c.name === key && c.returns.kind === 'scalar');
  if (!column && !computed) return `${path}: no such column exists: "${key}"`;
  const ops = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [['_eq', value] as [string, Json]];
  const items: BoolIr[] = [];
  for (const [rawOp, v] of ops) {
    const op = rawOp.startsWith('$') ? `_${rawOp.slice(1)}` : rawOp === '_ne' ? '_neq' : rawOp === '_cne' ? '_cneq' : rawOp;
    if (!COLUMN_OPS.has(op)) return `${path}: unknown operator "${rawOp}"`;
    const val = resolveValue(op, v, table, `${path}.${rawOp}`);
    if (typeof val === 'string') return val;
    if (column) items.push({ kind: 'column', column: column.name, type: column.type, op, value: val });
    else if (computed!.returns.kind === 'scalar') items.push({ kind: 'computed', field: computed!.name, function: computed!.function, type: computed!.returns.type, op, value: val });
  }
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function resolveValue(op: string, v: Json, table: TableModel, path: string): ValueIr | string {
  if (op.startsWith('_c') && op !== '_contains' && op !== '_contained_in') {
    if (typeof v === 'string') return table.columns.some((c) => c.name === v) ? { kind: 'column', column: v, root: false } : `${path}: no such column exists: "${v}"`;
    if (Array.isArray(v) && v.length === 2 && v[0] === '$' && typeof v[1] === 'string') return { kind: 'column', column: v[1], root: true };
    return `${path}: expected a column name`;
  }
  if (typeof v === 'string' && /^x-svc-/i.test(v)) return { kind: 'session', name: v.toLowerCase() };
  return { kind: 'literal', value: v };
}

/** Every session variable a predicate reads (lower-case), for the SQL file headers. */
export function sessionVariablesOf(ir: BoolIr, acc = new Set<string>()): Set<string> {
  switch (ir.kind) {
    case 'and': case 'or': for (const i of ir.items) sessionVariablesOf(i, acc); break;
    case 'not': sessionVariablesOf(ir.item, acc); break;
    case 'relationship': case 'exists': case 'computed_table': sessionVariablesOf(ir.where, acc); break;
    case 'column': case 'computed': if (ir.value.kind === 'session') acc.add(ir.value.name); break;
    default: break;
  }
  return acc;
}
