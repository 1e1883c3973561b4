// PostgreSQL: a mutation statement as `WITH <writes> SELECT '<n>:' || <json>`, where n is 0 when
// every guard holds, else the number of the first that failed (the engine rolls back and answers
// that guard's error), so a check costs no extra round trip.

import { Alias, aliasRef, ident, join, raw, sql, type Sql } from '../../fragment.js';
import type { RenderContext } from '../../dialect.js';
import type { Assignment, Conflict, Guard, MutationJson, MutationStatement, QualifiedName, UpdateOp, WriteBody, WriteExpr, WrittenTable } from '../../ir/index.js';
import { slotSql } from '../../render-slots.js';
import { templateSql } from '../../template.js';
import { columnList, conjunction, condSql, exprSql, sourceSql, unreachable } from './scalar.js';
import { jsonSql, keySql } from './select.js';

/** The statement of one mutation root field (or one entry of update_many). */
export function mutationSql(m: MutationStatement, rc: RenderContext): Sql {
  const withs = withSql(m);
  const status = m.guards.length === 0 ? raw(`'0:'`)
    : sql`(CASE ${join(m.guards.map((g, i) => sql`WHEN NOT coalesce(${guardSql(g)}, true) THEN ${raw(`'${i + 1}:'`)}`), ' ')} ELSE '0:' END)`;
  return sql`${withs}SELECT ${status} || coalesce((${mutationJson(m.result, rc)})::text, 'null')`;
}

/** A statement of writes with no guards whose single text value is the response JSON (the v1 API's writes). */
export function mutationValueSql(m: MutationStatement, rc: RenderContext): Sql {
  if (m.guards.length) throw new Error('assertion failed: a guarded write answers its status too');
  return sql`${withSql(m)}SELECT (${mutationJson(m.result, rc)})::text`;
}

function withSql(m: MutationStatement): Sql {
  return m.writes.length ? sql`WITH ${join(m.writes.map((w) => sql`${aliasRef(w.name)} AS (${writeSql(w.body)})`), ', ')} ` : raw('');
}

function guardSql(g: Guard): Sql {
  switch (g.kind) {
    case 'one_row': return sql`(SELECT count(*) = 1 FROM ${aliasRef(g.write)})`;
    case 'all_rows': return sql`(SELECT bool_and(${condSql(g.check)}) FROM ${sourceSql(g.rows)} AS ${aliasRef(g.row)})`;
    default: return unreachable(g);
  }
}

function writeSql(w: WriteBody): Sql {
  switch (w.kind) {
    case 'none': return sql`SELECT * FROM ${ident(w.table.schema, w.table.name)} WHERE false`;
    case 'union': return join(w.parts.map((p) => sql`SELECT ${columnList(w.columns)} FROM ${aliasRef(p)}`), ' UNION ALL ');
    case 'restored': {
      // Each item is [row text, inserted?]: the row text cast back to the table's row type.
      const k = new Alias('kept');
      const flag = w.flagged ? sql`, (${aliasRef(k)}.value->>1)::boolean AS "__kiln_inserted"` : raw('');
      return sql`SELECT (CAST(${aliasRef(k)}.value->>0 AS ${ident(w.table.schema, w.table.name)})).*${flag} FROM json_array_elements(${slotSql(w.value, 'json')}) AS ${aliasRef(k)}`;
    }
    case 'delete':
      return sql`DELETE FROM ${writtenSql(w)} AS ${aliasRef(w.row)} WHERE ${condSql(w.permission)} AND ${condSql(w.selector)} RETURNING ${aliasRef(w.row)}.*`;
    case 'update':
      return sql`UPDATE ${writtenSql(w)} AS ${aliasRef(w.row)} SET ${assignments(w.set)} WHERE ${conjunction([w.permission, w.selector])} RETURNING ${aliasRef(w.row)}.*`;
    case 'insert': {
      const insertInto = sql`INSERT INTO ${writtenSql(w)} AS ${aliasRef(w.target)}`;
      const conflict = w.conflict ? conflictSql(w.conflict) : raw('');
      const returning = w.conflict ? raw(' RETURNING *, (xmax = 0) AS "__kiln_inserted"') : raw(' RETURNING *');
      // No column given at all, several rows: the first column set to its default in each.
      if (w.columns.length === 0 && w.rows.length > 1) {
        return sql`${insertInto} (${ident(w.firstColumn)}) VALUES ${join(w.rows.map(() => raw('(DEFAULT)')), ', ')}${conflict}${returning}`;
      }
      const values = w.columns.length === 0 ? raw(' DEFAULT VALUES')
        : sql` (${columnList(w.columns)}) VALUES ${join(w.rows.map((r) => sql`(${join(r.map(writeExprSql), ', ')})`), ', ')}`;
      return sql`${insertInto}${values}${conflict}${returning}`;
    }
    default: return unreachable(w);
  }
}

// The table a write names: its template's (the bundle's rendered target) when it has one.
function writtenSql(w: { readonly table: QualifiedName } & WrittenTable): Sql {
  return w.template ? templateSql(w.template, {}, 'postgres') : ident(w.table.schema, w.table.name);
}

function conflictSql(c: Conflict): Sql {
  const on = c.target === null ? raw('')
    : c.target.kind === 'constraint' ? sql` ON CONSTRAINT ${ident(c.target.name)}` : sql` (${columnList(c.target.columns)})`;
  const target = sql` ON CONFLICT${on}`;
  if (!c.update) return sql`${target} DO NOTHING`;
  const filters = [...(c.update.permission ? [c.update.permission] : []), ...(c.update.where ? [c.update.where] : [])];
  const where = filters.length ? sql` WHERE ${conjunction(filters)}` : raw('');
  return sql`${target} DO UPDATE SET ${assignments(c.update.set)}${where}`;
}

function assignments(set: readonly Assignment[]): Sql {
  return join(set.map((a) => sql`${ident(a.column)} = ${writeExprSql(a.value)}`), ', ');
}

const OPS: { readonly [op in UpdateOp]: (col: Sql, v: Sql) => Sql } = {
  inc: (col, v) => sql`${col} + ${v}`,
  mul: (col, v) => sql`${col} * ${v}`,
  append: (col, v) => sql`${col} || ${v}`,
  prepend: (col, v) => sql`${v} || ${col}`,
  delete_key: (col, v) => sql`${col} - ${v}`,
  delete_elem: (col, v) => sql`${col} - ${v}`,
  delete_at_path: (col, v) => sql`${col} #- ${v}`,
};

function writeExprSql(e: WriteExpr): Sql {
  switch (e.kind) {
    case 'written_value': return sql`(SELECT ${ident(e.column)} FROM ${aliasRef(e.write)})`;
    case 'excluded': return sql`EXCLUDED.${ident(e.column)}`;
    case 'update_op': return OPS[e.op](writeExprSql(e.current), exprSql(e.value));
    case 'default': return raw('DEFAULT');
    default: return exprSql(e);
  }
}

function mutationJson(v: MutationJson, rc: RenderContext): Sql {
  switch (v.kind) {
    case 'affected': return join(v.writes.map((w) => sql`(SELECT count(*) FROM ${aliasRef(w)})`), ' + ');
    case 'returning': {
      const row = jsonSql(v.shape, rc);
      if (v.single) return sql`(SELECT ${row} FROM ${sourceSql(v.rows)} AS ${aliasRef(v.row)} LIMIT 1)`;
      return sql`(SELECT coalesce(${rc.dialect.jsonArrayAgg(row, null)}, ${rc.dialect.emptyJsonArray()}) FROM ${sourceSql(v.rows)} AS ${aliasRef(v.row)})`;
    }
    case 'response': return rc.dialect.jsonObject(v.fields.map((f): readonly [Sql, Sql] => [keySql(f.key), mutationJson(f.value, rc)]));
    case 'kept_rows': return sql`json_build_array(${join(v.writes.map((w) => {
      const x = new Alias('kept');
      const row = sql`CAST(ROW(${join(w.columns.map((c) => sql`${aliasRef(x)}.${ident(c)}`), ', ')}) AS ${ident(w.table.schema, w.table.name)})::text`;
      const item = w.flagged ? sql`json_build_array(${row}, ${aliasRef(x)}."__kiln_inserted")` : sql`json_build_array(${row})`;
      return sql`(SELECT coalesce(json_agg(${item}), '[]'::json) FROM ${aliasRef(w.write)} AS ${aliasRef(x)})`;
    }), ', ')})`;
    default: return jsonSql(v, rc);
  }
}
