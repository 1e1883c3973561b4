// `kiln check`, part (b): a static proof that each table a role's SQL reads or writes carries
// that role's permission predicate. The predicate is printed again from the model with the
// runtime's own lowering (one SQL writer), then looked for as conjuncts of the WHERE clause at
// the reference's level. Parameters compare by what they are bound to (the file's `-- $n = ...`
// header), aliases by position, so `$3` bound to a client variable never passes for a session value.

import type { BoolIr, BundleModel, TableId } from '../../runtime/bundle/index.js';
import { lowerBool, restAfterParent, type PlanContext } from '../../runtime/graphql/index.js';
import { Alias, compileSql } from '../../runtime/sql/index.js';
import { paramHeader, tableDialect } from '../sql/index.js';
import { canonical, conjuncts, groupsOf, isPunct, isWord, parseSqlTree, type Group, type ParamNames, type Token } from './sql-tree.js';

/** What a statement does to a table. */
export type Operation = 'select' | 'insert' | 'update' | 'delete';

/** One reference to a table in one statement, and whether the role's predicate guards it. */
export interface ReferenceProof {
  readonly table: TableId;
  readonly operation: Operation;
  readonly problem: string | null;
}

type Need = 'select' | 'update' | 'delete' | 'insert-check' | 'update-check';

const MAIN = new Alias('kiln_main');
const MAIN_NAME = '_kiln_main_1';
const CLAUSE_END = new Set(['ORDER', 'LIMIT', 'OFFSET', 'GROUP', 'HAVING', 'RETURNING', 'UNION', 'INTERSECT', 'EXCEPT', 'WINDOW', 'FETCH', 'FOR', 'OPTION', 'OUTPUT', 'THEN']);

/** Proves the SQL files of one bundle model; caches each role's rendered predicates. */
export class FilterProver {
  private readonly tables = new Map<string, TableId>();
  private readonly functions = new Map<string, TableId>();
  private readonly cache = new Map<string, readonly string[] | null>();

  constructor(private readonly model: BundleModel) {
    for (const t of Object.values(model.tables)) {
      this.tables.set(key(t.schema, t.name), t.id);
      for (const cf of t.computedFields) if (cf.returns.kind === 'table') this.functions.set(key(cf.function.schema, cf.function.name), cf.returns.table);
    }
    for (const f of Object.values(model.functions)) this.functions.set(key(f.schema, f.name), f.returns);
  }

  /** Every table reference of a file of statements (each after its own `-- $n = ...` header) run as `role`. */
  proveFile(role: string, text: string): ReferenceProof[] {
    return splitStatements(text).flatMap((statement) => {
      // The runtime's T-SQL always builds its JSON with FOR JSON; PostgreSQL's never says it.
      const root = parseSqlTree(statement, { tsql: /\bFOR JSON\b/.test(statement) });
      const header = headerParams(statement);
      const c: FileContext = { prover: this, role, root, exempt: new Set(), out: [], rows: new Map(),
        params: (n) => header.get(n) ?? `unknown $${n}` };
      walk(root, c);
      return c.out;
    });
  }

  /** The canonical conjuncts of a role's predicate on a table (@0 the table's alias); null: no such permission. */
  expected(role: string, table: TableId, need: Need): readonly string[] | null {
    const k = `${role}\u0000${table}\u0000${need}`;
    if (!this.cache.has(k)) this.cache.set(k, this.render(role, table, need));
    return this.cache.get(k)!;
  }

  lookup(schema: string, name: string, call: boolean): TableId | undefined {
    return (call ? this.functions : this.tables).get(key(schema, name));
  }

  /**
   * The canonical conjuncts left of a role's select filter on rows of `table` tied by `pairs`
   * (parent column, their column) to a row of `parent` that passed its own filter; null: the
   * parent proves nothing of it (runtime/graphql/bool.ts, filterAfterParent).
   */
  expectedAfterParent(role: string, table: TableId, parent: TableId, pairs: readonly (readonly [string, string])[]): readonly string[] | null {
    const rest = restAfterParent(this.model, role, table, parent, pairs);
    if (rest === null) return null;
    return rest.length === 0 ? [] : this.render(role, table, 'select', rest.length === 1 ? rest[0]! : { kind: 'and', items: rest });
  }

  private render(role: string, table: TableId, need: Need, only?: BoolIr): readonly string[] | null {
    const ir = only ?? predicateOf(this.model, role, table, need);
    if (!ir) return null;
    const dialect = tableDialect(this.model, table);
    const ctx: PlanContext = { model: this.model, role, dialect, stringifyNumeric: this.model.options.stringifyNumeric,
      fragments: new Map(), hints: { valueSensitive: false }, variables: {}, structural: new Set() };
    const compiled = compileSql(lowerBool(ir, MAIN, ctx), dialect);
    const names = headerParams(paramHeader(compiled).join('\n'));
    const root = parseSqlTree(compiled.text, { tsql: dialect.name === 'mssql' });
    return conjuncts(root.tokens).map((t) => canonical(t, MAIN_NAME, (n) => names.get(n) ?? `unknown $${n}`)).filter((s) => s !== 'TRUE' && s !== '1 = 1');
  }
}

function key(schema: string, name: string): string {
  return `${schema}\u0000${name}`;
}

function predicateOf(model: BundleModel, role: string, table: TableId, need: Need): BoolIr | null {
  const w = model.mutations?.[role]?.[table];
  switch (need) {
    case 'select': return model.select[role]?.[table]?.filter ?? null;
    case 'update': return w?.update?.filter ?? null;
    case 'delete': return w?.delete?.filter ?? null;
    case 'insert-check': return w?.insert?.check ?? null;
    case 'update-check': return w?.update?.check ?? null;
  }
}

// A file may hold several statements (a persisted query on two sources, a mutation's fields):
// each starts with its comment header, which numbers its own parameters from $1.
function splitStatements(text: string): string[] {
  const out: string[][] = [[]];
  let inBody = false;
  for (const line of text.split('\n')) {
    const comment = line.startsWith('--');
    if (comment && inBody) { out.push([]); inBody = false; }
    if (!comment && line.trim()) inBody = true;
    out[out.length - 1]!.push(line);
  }
  return out.map((lines) => lines.join('\n'));
}

/** `-- $n = what :: type` header lines -> n -> what (a live query's `, one per cohort` dropped). */
export function headerParams(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n')) {
    const m = /^-- (?:\$|@p)(\d+) = (.*)$/.exec(line);
    if (!m) continue;
    let what = m[2]!;
    const cast = what.lastIndexOf(' :: ');
    if (cast >= 0) what = what.slice(0, cast);
    out.set(Number(m[1]), what.replace(/, one per cohort.*$/, ''));
  }
  return out;
}

interface FileContext {
  readonly prover: FilterProver;
  readonly role: string;
  readonly root: Group;
  readonly params: ParamNames;
  /** Tokens inside a matched permission predicate: its own relationship subqueries read unfiltered (Hasura v2). */
  readonly exempt: Set<Token>;
  /** Aliases of the rows read from a table itself whose select filter was found, outer levels first. */
  readonly rows: Map<string, TableId>;
  readonly out: ReferenceProof[];
}

// Outer levels first: a predicate matched at one level exempts the subqueries inside it.
function walk(g: Group, c: FileContext): void {
  g.tokens.forEach((tok, i) => {
    if (c.exempt.has(tok)) return;
    const proof = referenceAt(g, i, c);
    if (proof) c.out.push(proof);
  });
  for (const tok of g.tokens) if (tok.kind === 'group' && !c.exempt.has(tok)) walk(tok, c);
}

function referenceAt(g: Group, i: number, c: FileContext): ReferenceProof | null {
  const t = g.tokens;
  const s = t[i];
  const n = t[i + 2];
  if (s?.kind !== 'ident' || !isPunct(t[i + 1], '.') || n?.kind !== 'ident' || isPunct(t[i - 1], '.') || isPunct(t[i - 1], '::')) return null;
  // T-SQL's `SET IDENTITY_INSERT t ON|OFF` names a table without reading or writing it.
  if (isWord(t[i - 1], 'IDENTITY_INSERT') && isWord(t[i - 2], 'SET')) return null;
  const call = t[i + 3]?.kind === 'group' && !isWord(t[i - 1], 'INTO');
  const table = c.prover.lookup(s.name, n.name, call);
  const prev = t[i - 1];
  if (!table) {
    // A schema-qualified name the model does not know, used as a table: no permission covers it.
    const asTable = !call && (isWord(prev, 'FROM') || isWord(prev, 'JOIN') || isWord(prev, 'INTO') || isWord(prev, 'UPDATE'));
    return asTable ? { table: `?${s.name}.${n.name}`, operation: 'select', problem: 'a table the bundle does not track' } : null;
  }
  let next = i + (call ? 4 : 3);
  let alias: string | null = null;
  if (isWord(t[next], 'AS') && t[next + 1]?.kind === 'ident') { alias = (t[next + 1] as { name: string }).name; next += 2; }
  // T-SQL: `MERGE INTO t WITH (HOLDLOCK) AS a`.
  if (isWord(t[next], 'WITH') && t[next + 1]?.kind === 'group' && isWord(t[next + 2], 'AS') && t[next + 3]?.kind === 'ident') {
    alias = (t[next + 3] as { name: string }).name; next += 4;
  }
  const at: Site = { g, index: i, after: next, alias, table, call };
  if (isWord(prev, 'FROM') && isWord(t[i - 2], 'DELETE')) return filtered(at, 'delete', 'delete', c);
  // T-SQL: `DELETE a OUTPUT .. FROM t AS a WHERE ..`, `UPDATE a SET .. OUTPUT .. FROM t AS a WHERE ..`.
  const verb = isWord(prev, 'FROM') ? statementVerb(t, i) : null;
  if (verb === 'DELETE') return filtered(at, 'delete', 'delete', c);
  if (verb === 'UPDATE') return updated(at, c);
  if (isWord(prev, 'FROM') || isWord(prev, 'JOIN')) return filtered(at, 'select', 'select', c);
  if (isWord(prev, 'UPDATE') && !call) return updated(at, c);
  if (isWord(prev, 'INTO') && !call) return inserted(at, c);
  return { table, operation: 'select', problem: `used outside FROM/JOIN/INTO/UPDATE (after "${describe(prev)}")` };
}

// The first word of the statement holding token `i` (statements of a batch end at `;`).
function statementVerb(t: readonly Token[], i: number): string | null {
  let k = i;
  while (k > 0 && !isPunct(t[k - 1], ';')) k--;
  const first = t[k];
  return first?.kind === 'word' ? first.text.toUpperCase() : null;
}

interface Site {
  readonly g: Group;
  readonly index: number;
  /** Index of the token after the name (and its alias). */
  readonly after: number;
  readonly alias: string | null;
  readonly table: TableId;
  /** A function's rows, not the table's own. */
  readonly call: boolean;
}

function describe(t: Token | undefined): string {
  if (!t) return 'start';
  return t.kind === 'word' || t.kind === 'punct' ? t.text : t.kind;
}

function filtered(at: Site, operation: Operation, need: Need, c: FileContext): ReferenceProof {
  const ok = (): ReferenceProof => {
    if (operation === 'select' && at.alias !== null && !at.call) c.rows.set(at.alias, at.table);
    return { table: at.table, operation, problem: null };
  };
  const where = clauseAfter(at.g.tokens, at.after, 'WHERE');
  if (where && vacuous(where, c)) return ok();
  const expected = c.prover.expected(c.role, at.table, need);
  if (!expected) return { table: at.table, operation, problem: `role has no ${operation} permission on the table` };
  if (expected.length === 0) return ok();
  if (at.alias !== null && where && matchWhere(where, at.alias, expected, c)) return ok();
  if (operation === 'select' && derived(at.g, expected, c)) return ok();
  if (operation === 'select' && at.alias !== null && where && afterParent(where, at.alias, at.table, c)) return ok();
  return { table: at.table, operation, problem: `the ${need} filter is not a conjunct of the WHERE clause at this level` };
}

// Rows tied by `alias.col = parent.col` conjuncts to a parent row read from its table under its
// proved filter carry the part of their filter the parent does not prove.
function afterParent(where: readonly Token[], alias: string, table: TableId, c: FileContext): boolean {
  const pairs = new Map<string, [string, string][]>();
  for (const t of conjuncts(where)) {
    const [a, dot1, col, eq, p, dot2, pcol] = t;
    if (t.length !== 7 || a?.kind !== 'ident' || a.name !== alias || !isPunct(dot1, '.') || col?.kind !== 'ident' || !isPunct(eq, '=')
      || p?.kind !== 'ident' || !c.rows.has(p.name) || !isPunct(dot2, '.') || pcol?.kind !== 'ident') continue;
    const list = pairs.get(p.name) ?? [];
    list.push([pcol.name, col.name]);
    pairs.set(p.name, list);
  }
  for (const [parent, list] of pairs) {
    const rest = c.prover.expectedAfterParent(c.role, table, c.rows.get(parent)!, list);
    if (rest !== null && (rest.length === 0 || matchWhere(where, alias, rest, c))) return true;
  }
  return false;
}

function updated(at: Site, c: FileContext): ReferenceProof {
  const first = filtered(at, 'update', 'update', c);
  if (first.problem) return first;
  const check = c.prover.expected(c.role, at.table, 'update-check') ?? [];
  if (!guarded(at.g, check, [''], c, at)) return { ...first, problem: 'the update check is not evaluated on the updated rows' };
  return first;
}

function inserted(at: Site, c: FileContext): ReferenceProof {
  const done = (problem: string | null): ReferenceProof => ({ table: at.table, operation: 'insert', problem });
  const check = c.prover.expected(c.role, at.table, 'insert-check');
  if (!check) return done('role has no insert permission on the table');
  const t = at.g.tokens;
  if (isWord(t[at.index - 2], 'MERGE')) return merged(at, check, c);
  const doAt = t.findIndex((x, k) => k >= at.after && isWord(x, 'DO') && isWord(t[k + 1], 'UPDATE'));
  if (!guarded(at.g, check, doAt < 0 ? [''] : ['"__kiln_inserted"'], c, at)) return done('the insert check is not evaluated on the inserted rows');
  if (doAt < 0) return done(null);
  // An upsert updates existing rows: they must pass the update filter, and the updated rows its check.
  const filter = c.prover.expected(c.role, at.table, 'update');
  if (!filter) return done('ON CONFLICT DO UPDATE without an update permission');
  const where = clauseAfter(t, doAt + 2, 'WHERE');
  if (filter.length && !(at.alias !== null && where && matchWhere(where, at.alias, filter, c))) return done('ON CONFLICT DO UPDATE lacks the update filter');
  const updateCheck = c.prover.expected(c.role, at.table, 'update-check') ?? [];
  return done(guarded(at.g, updateCheck, ['NOT "__kiln_inserted"'], c) ? null : 'the update check is not evaluated on the upserted rows');
}

// T-SQL's upsert: `MERGE INTO t .. AS a USING .. WHEN MATCHED AND <update filter> THEN UPDATE ..
// WHEN NOT MATCHED THEN INSERT .. OUTPUT INSERTED.*, $action INTO [#w]`: the inserted rows pass the
// insert check, the matched rows the update filter, the updated rows the update check.
function merged(at: Site, check: readonly string[], c: FileContext): ReferenceProof {
  const done = (problem: string | null): ReferenceProof => ({ table: at.table, operation: 'insert', problem });
  const t = at.g.tokens;
  if (!guarded(at.g, check, ['"__kiln_action" = s"INSERT"'], c, at)) return done('the insert check is not evaluated on the inserted rows');
  const matched = t.findIndex((x, k) => k >= at.after && isWord(x, 'WHEN') && isWord(t[k + 1], 'MATCHED'));
  if (matched < 0 || isPunct(t.slice(at.after, matched).find((x) => isPunct(x, ';')), ';')) return done(null);
  const filter = c.prover.expected(c.role, at.table, 'update');
  if (!filter) return done('MERGE WHEN MATCHED without an update permission');
  const where = clauseAfter(t, matched + 2, 'AND');
  if (filter.length && !(at.alias !== null && where && isWord(t[matched + 2], 'AND') && matchWhere(where, at.alias, filter, c))) return done('MERGE WHEN MATCHED lacks the update filter');
  const updateCheck = c.prover.expected(c.role, at.table, 'update-check') ?? [];
  return done(guarded(at.g, updateCheck, ['"__kiln_action" = s"UPDATE"'], c, at) ? null : 'the update check is not evaluated on the upserted rows');
}

/** The tokens of clause `kw` (WHERE) after `from` at this level, or null when the statement has none. */
function clauseAfter(t: readonly Token[], from: number, kw: string): Token[] | null {
  for (let k = from; k < t.length; k++) {
    const x = t[k]!;
    if (isPunct(x, ';') || (x.kind === 'word' && CLAUSE_END.has(x.text.toUpperCase()))) return null;
    if (!isWord(x, kw)) continue;
    let end = k + 1;
    while (end < t.length && !isPunct(t[end], ';') && !(t[end]!.kind === 'word' && CLAUSE_END.has((t[end] as { text: string }).text.toUpperCase()))) end++;
    return t.slice(k + 1, end);
  }
  return null;
}

// `WHERE false` (T-SQL `WHERE 1 = 0`) reads no row, whatever the permission.
function vacuous(where: readonly Token[], c: FileContext): boolean {
  return conjuncts(where).some((t) => { const x = canonical(t, null, c.params); return x === 'FALSE' || x === '1 = 0'; });
}

// Every expected conjunct is one of the WHERE's: the WHERE implies the predicate. Matched
// conjuncts are exempt from the walk (a permission's relationship subquery is not filtered).
function matchWhere(where: readonly Token[], alias: string, expected: readonly string[], c: FileContext): boolean {
  const parts = conjuncts(where).map((t) => ({ t, text: canonical(t, alias, c.params) }));
  const texts = new Set(parts.map((p) => p.text));
  if (!expected.every((e) => texts.has(e))) return false;
  for (const p of parts) if (expected.includes(p.text)) for (const x of p.t) c.exempt.add(x);
  return true;
}

// `FROM (SELECT <plain columns> FROM t ... UNION ALL ...) AS b WHERE <filter on b>`: the rows of
// t reach the outer query only through b, whose columns are t's own (no expression renamed in).
function derived(g: Group, expected: readonly string[], c: FileContext): boolean {
  const p = g.parent;
  if (!p) return false;
  const k = p.tokens.indexOf(g);
  const as = p.tokens[k + 2];
  if (!(isWord(p.tokens[k - 1], 'FROM') || isWord(p.tokens[k - 1], 'JOIN')) || !isWord(p.tokens[k + 1], 'AS') || as?.kind !== 'ident') return false;
  if (!plainProjection(g)) return false;
  const where = clauseAfter(p.tokens, k + 3, 'WHERE');
  if (where && matchWhere(where, as.name, expected, c)) return true;
  return derived(p, expected, c);
}

function plainProjection(g: Group): boolean {
  let inList = false;
  for (const x of g.tokens) {
    if (isWord(x, 'SELECT')) { inList = true; continue; }
    if (isWord(x, 'FROM')) { inList = false; continue; }
    if (!inList) continue;
    const plain = x.kind === 'ident' || isPunct(x, '.') || isPunct(x, ',') || isPunct(x, '*') || isWord(x, 'DISTINCT');
    if (!plain) return false;
  }
  return true;
}

// A write's check: `(SELECT bool_and(<check on r>) FROM (SELECT ... FROM "<cte>" [WHERE w]) AS r)`
// somewhere in the statement, over the CTE the write (in group `g`) defines.
function guarded(g: Group, expected: readonly string[], rowFilters: readonly string[], c: FileContext, at?: Site): boolean {
  if (expected.length === 0) return true;
  if (at && g.parent === null) return guardedTsql(at, expected, rowFilters, c);
  const p = g.parent;
  const k = p ? p.tokens.indexOf(g) : -1;
  const name = p?.tokens[k - 2];
  if (!p || !isWord(p.tokens[k - 1], 'AS') || name?.kind !== 'ident') return false;
  for (const h of groupsOf(c.root)) {
    const [select, fn, arg, from, rows, as, r] = h.tokens;
    if (!isWord(select, 'SELECT') || !isWord(fn, 'BOOL_AND') || arg?.kind !== 'group' || !isWord(from, 'FROM')
      || rows?.kind !== 'group' || !isWord(as, 'AS') || r?.kind !== 'ident') continue;
    if (!readsCte(rows, name.name, rowFilters, c)) continue;
    if (matchWhere(arg.tokens, r.name, expected, c)) { c.exempt.add(arg); return true; }
  }
  return false;
}

// T-SQL: the write's statement outputs its rows `INTO [#kiln_wN]`; its check is
// `NOT EXISTS (SELECT 1 FROM (SELECT ... FROM [#kiln_wN] [WHERE w]) AS r WHERE NOT (<check on r>))`.
function guardedTsql(at: Site, expected: readonly string[], rowFilters: readonly string[], c: FileContext): boolean {
  const t = at.g.tokens;
  let table: string | null = null;
  let start = at.index;
  while (start > 0 && !isPunct(t[start - 1], ';')) start--;
  for (let k = start; k < t.length && !isPunct(t[k], ';'); k++) {
    const x = t[k + 1];
    if (isWord(t[k], 'INTO') && x?.kind === 'ident' && x.name.startsWith('#')) { table = x.name; break; }
  }
  if (table === null) return false;
  for (const h of groupsOf(c.root)) {
    const [select, one, from, rows, as, r, where, not, arg] = h.tokens;
    if (!isWord(select, 'SELECT') || !isWord(one, '1') || !isWord(from, 'FROM') || rows?.kind !== 'group' || !isWord(as, 'AS')
      || r?.kind !== 'ident' || !isWord(where, 'WHERE') || !isWord(not, 'NOT') || arg?.kind !== 'group' || h.tokens.length !== 9) continue;
    if (!readsCte(rows, table, rowFilters, c)) continue;
    if (matchWhere(arg.tokens, r.name, expected, c)) { c.exempt.add(arg); return true; }
  }
  return false;
}

function readsCte(rows: Group, cte: string, rowFilters: readonly string[], c: FileContext): boolean {
  const t = rows.tokens;
  const f = t.findIndex((x, i) => isWord(x, 'FROM') && t[i + 1]?.kind === 'ident' && (t[i + 1] as { name: string }).name === cte);
  if (f < 0 || !isWord(t[0], 'SELECT') || !plainProjection(rows)) return false;
  const rest = t.slice(f + 2);
  const filter = rest.length === 0 ? '' : isWord(rest[0], 'WHERE') ? canonical(rest.slice(1), null, c.params) : null;
  return filter !== null && rowFilters.includes(filter);
}
