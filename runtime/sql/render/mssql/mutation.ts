// SQL Server: a mutation statement as one T-SQL batch. Each write part captures the rows it wrote
// with `OUTPUT INSERTED.*` (`DELETED.*`) into a temporary table shaped like its table (made empty
// by SELECT .. INTO .. UNION ALL, which drops the IDENTITY property); an upsert is a MERGE that
// also outputs `$action`. The batch ends with the single value `<failed guard number>:<json>`, as
// PostgreSQL's statement answers, and drops its temporary tables (a rollback drops them too).

import { aliasRef, ident, join, raw, sql, type Sql } from '../../fragment.js';
import type { RenderContext } from '../../dialect.js';
import type { Assignment, Conflict, Guard, MutationJson, MutationStatement, QualifiedName, UpdateOp, Write, WriteBody, WriteExpr, WrittenTable } from '../../ir/index.js';
import { templateSql } from '../../template.js';
import { columnList, condSql, conjunction, exprSql, sourceSql, unreachable, unsupported } from './scalar.js';
import { jsonSql, keySql } from './select.js';
import { writeTable, withWriteTables } from './write-tables.js';

const OBJECT = raw(' FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES');
const SOURCE = ident('__kiln_src');
const ACTION = ident('__kiln_action');

/** The batch of one mutation root field (or one entry of update_many). */
export function mutationSql(m: MutationStatement, rc: RenderContext): Sql {
  return withWriteTables(m.writes.map((w) => w.name), () => {
    const status = m.guards.length === 0 ? raw(`N'0:'`)
      : sql`CASE ${join(m.guards.map((g, i) => sql`WHEN NOT (${guardSql(g)}) THEN ${raw(`N'${i + 1}:'`)}`), ' ')} ELSE N'0:' END`;
    return batch(m, sql`SELECT ${status} + ISNULL(${mutationJson(m.result, rc)}, N'null') AS [data]`);
  });
}

/** A batch of writes without guards whose single value is the response JSON (the v1 API's writes). */
export function mutationValueSql(m: MutationStatement, rc: RenderContext): Sql {
  if (m.guards.length) throw new Error('assertion failed: a guarded write answers its status too');
  return withWriteTables(m.writes.map((w) => w.name), () => batch(m, sql`SELECT ISNULL(${mutationJson(m.result, rc)}, N'null') AS [data]`));
}

function batch(m: MutationStatement, result: Sql): Sql {
  const tables = m.writes.map((w) => writeTable(w.name));
  const steps = [raw('SET NOCOUNT ON'), ...tables.map((t) => sql`DROP TABLE IF EXISTS ${t}`), ...m.writes.flatMap(writeSteps), result,
    ...tables.map((t) => sql`DROP TABLE ${t}`)];
  return join(steps, ';\n');
}

// The temporary table of a write part, then the write that fills it.
function writeSteps(w: Write): Sql[] {
  const into = writeTable(w.name);
  const b = w.body;
  switch (b.kind) {
    case 'none': return [shapeOf(ident(b.table.schema, b.table.name), into)];
    case 'union': {
      const parts = join(b.parts.map((p) => sql`SELECT ${columnList(b.columns)} FROM ${writeTable(p)}`), ' UNION ALL ');
      return [sql`SELECT ${columnList(b.columns)} INTO ${into} FROM (${parts}) AS [u]`];
    }
    case 'delete':
      return [shapeOf(writtenSql(b), into),
        sql`DELETE ${aliasRef(b.row)} OUTPUT DELETED.* INTO ${into} FROM ${writtenSql(b)} AS ${aliasRef(b.row)} WHERE ${conjunction([b.permission, b.selector])}`];
    case 'update':
      return [shapeOf(writtenSql(b), into),
        sql`UPDATE ${aliasRef(b.row)} SET ${assignments(b.set)} OUTPUT INSERTED.* INTO ${into} FROM ${writtenSql(b)} AS ${aliasRef(b.row)} WHERE ${conjunction([b.permission, b.selector])}`];
    case 'insert': return identityInsert(b, b.conflict ? mergeSteps(b, b.conflict, into) : [shapeOf(writtenSql(b), into), insertSql(b, into)]);
    // The PostgreSQL planner alone reads after its writes in a later statement (graphql/mutation-output.ts).
    case 'restored': return unsupported('rows of an earlier statement');
    default: return unreachable(b);
  }
}

// An insert that gives an IDENTITY column its value runs under IDENTITY_INSERT, as Hasura's
// MSSQL backend does (the planner marks it from the catalog).
function identityInsert(b: Extract<WriteBody, { kind: 'insert' }>, steps: Sql[]): Sql[] {
  if (!b.identityInsert) return steps;
  const table = writtenSql(b);
  return [sql`SET IDENTITY_INSERT ${table} ON`, ...steps, sql`SET IDENTITY_INSERT ${table} OFF`];
}

// The table a write names: its template's (the bundle's rendered target) when it has one.
function writtenSql(b: { readonly table: QualifiedName } & WrittenTable): Sql {
  return b.template ? templateSql(b.template, {}, 'mssql') : ident(b.table.schema, b.table.name);
}

// An empty table with the columns (and types) of table `t`, without its IDENTITY property.
function shapeOf(t: Sql, into: Sql): Sql {
  return sql`SELECT * INTO ${into} FROM ${t} WHERE 1 = 0 UNION ALL SELECT * FROM ${t} WHERE 1 = 0`;
}

function insertSql(b: Extract<WriteBody, { kind: 'insert' }>, into: Sql): Sql {
  const target = sql`INSERT INTO ${writtenSql(b)}`;
  const output = sql` OUTPUT INSERTED.* INTO ${into}`;
  if (b.columns.length === 0 && b.rows.length > 1) {
    return sql`${target} (${ident(b.firstColumn)})${output} VALUES ${join(b.rows.map(() => raw('(DEFAULT)')), ', ')}`;
  }
  if (b.columns.length === 0) return sql`${target}${output} DEFAULT VALUES`;
  return sql`${target} (${columnList(b.columns)})${output} VALUES ${join(b.rows.map((r) => sql`(${join(r.map(writeExprSql), ', ')})`), ', ')}`;
}

// An upsert: MERGE of the rows on the conflict columns; matched rows are updated where the role's
// update filter and the request's `where` hold (or left alone: DO NOTHING), the others inserted.
function mergeSteps(b: Extract<WriteBody, { kind: 'insert' }>, c: Conflict, into: Sql): Sql[] {
  if (c.target === null || c.target.kind !== 'columns') return unsupported('an upsert on a named constraint');
  if (b.columns.length === 0) return unsupported('an upsert of rows with no column');
  const on = join(c.target.columns.map((col) => sql`${aliasRef(b.target)}.${ident(col)} = ${SOURCE}.${ident(col)}`), ' AND ');
  const rows = join(b.rows.map((r) => sql`(${join(r.map(writeExprSql), ', ')})`), ', ');
  const filters = [...(c.update?.permission ? [c.update.permission] : []), ...(c.update?.where ? [c.update.where] : [])]
    .filter((f) => f.kind !== 'true' && f.kind !== 'no_condition');
  const matched = c.update === null ? raw('')
    : sql` WHEN MATCHED${filters.length ? sql` AND ${conjunction(filters)}` : raw('')} THEN UPDATE SET ${assignments(c.update.set)}`;
  const insert = sql` WHEN NOT MATCHED THEN INSERT (${columnList(b.columns)}) VALUES (${join(b.columns.map((col) => sql`${SOURCE}.${ident(col)}`), ', ')})`;
  return [
    shapeOf(writtenSql(b), into),
    sql`ALTER TABLE ${into} ADD ${ACTION} nvarchar(10) NULL`,
    sql`MERGE INTO ${writtenSql(b)} WITH (HOLDLOCK) AS ${aliasRef(b.target)} USING (VALUES ${rows}) AS ${SOURCE} (${columnList(b.columns)}) ON ${on}${matched}${insert} OUTPUT INSERTED.*, $action INTO ${into}`,
  ];
}

function assignments(set: readonly Assignment[]): Sql {
  return join(set.map((a) => sql`${ident(a.column)} = ${writeExprSql(a.value)}`), ', ');
}

const OPS: { readonly [op in UpdateOp]?: (col: Sql, v: Sql) => Sql } = {
  inc: (col, v) => sql`${col} + ${v}`,
  mul: (col, v) => sql`${col} * ${v}`,
};

function writeExprSql(e: WriteExpr): Sql {
  switch (e.kind) {
    case 'written_value': return sql`(SELECT ${ident(e.column)} FROM ${writeTable(e.write)})`;
    case 'excluded': return sql`${SOURCE}.${ident(e.column)}`;
    case 'update_op': {
      const op = OPS[e.op];
      return op ? op(writeExprSql(e.current), exprSql(e.value)) : unsupported(`the update operator "_${e.op}"`);
    }
    case 'default': return raw('DEFAULT');
    default: return exprSql(e);
  }
}

function guardSql(g: Guard): Sql {
  switch (g.kind) {
    case 'one_row': return sql`(SELECT COUNT(*) FROM ${writeTable(g.write)}) = 1`;
    case 'all_rows': return sql`NOT EXISTS (SELECT 1 FROM ${sourceSql(g.rows)} AS ${aliasRef(g.row)} WHERE NOT (${condSql(g.check)}))`;
    default: return unreachable(g);
  }
}

function mutationJson(v: MutationJson, rc: RenderContext): Sql {
  switch (v.kind) {
    case 'affected': return sql`CAST(${join(v.writes.map((w) => sql`(SELECT COUNT(*) FROM ${writeTable(w)})`), ' + ')} AS nvarchar(20))`;
    case 'returning': {
      const cols = join(v.shape.fields.map((f) => sql`${jsonSql(f.value, rc)} AS ${ident(f.key)}`), ', ');
      if (v.single) return sql`(SELECT TOP (1) ${cols} FROM ${sourceSql(v.rows)} AS ${aliasRef(v.row)}${OBJECT})`;
      return sql`ISNULL((SELECT ${cols} FROM ${sourceSql(v.rows)} AS ${aliasRef(v.row)} FOR JSON PATH, INCLUDE_NULL_VALUES), N'[]')`;
    }
    case 'response': {
      const fields = v.fields.map((f) => sql`${fieldValue(f.value, rc)} AS ${ident(f.key)}`);
      return sql`(SELECT ${join(fields, ', ')}${OBJECT})`;
    }
    case 'list': case 'one': case 'aggregate': case 'object': return jsonSql(v, rc);
    default: return unsupported(`a mutation answering a bare ${v.kind}`);
  }
}

// A field of the response object: a count as a number, nested JSON through JSON_QUERY.
function fieldValue(v: MutationJson, rc: RenderContext): Sql {
  switch (v.kind) {
    case 'affected': return join(v.writes.map((w) => sql`(SELECT COUNT(*) FROM ${writeTable(w)})`), ' + ');
    case 'returning': case 'response': return sql`JSON_QUERY(${mutationJson(v, rc)})`;
    case 'kept_rows': return unsupported('rows kept for a later statement');
    default: return jsonSql(v, rc);
  }
}

export { keySql };
