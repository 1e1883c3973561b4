// Relationships from an action's output to tables (reference/actions.md §5): all of them are read in
// one statement per source. Each relationship field the selection reaches (a "site": one field of
// one object selection) is planned once, as the engine plans a relationship, under the role's select
// permission (filter, columns, limit), with the mapped columns equal to key slots. The output
// objects are the rows of the relation a live query reads its subscribers' values from
// (runtime/sql LiveQuery): one row per distinct set of an object's key values, sent as arrays, so the
// statement's text is the same for one output object as for ten thousand and no object costs a
// subquery of its own; requests that ask the same statement in the same turn of the event loop
// share one run (runCohorts). A row the role may not see reads as null (or is missing from the
// array). Dialects that cannot multiplex get one JSON field per object instead, still in one statement.

import type { Json, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { argsOf, bindParams, listSelect, objectSelect, relationshipAggregateSelect, tableSource, type JoinCond, type PlanContext } from '../graphql/index.js';
import { compileSql, multiplexParams, multiplexValue, subscriberCohort, type CompiledSql, type JsonField, type MultiplexedSql } from '../sql/index.js';
import type { PendingRelationship } from './output.js';

/** One relationship field of one object selection, and the objects that asked for it. */
interface Site {
  readonly first: PendingRelationship;
  readonly index: number;
  readonly pending: PendingRelationship[];
}

/** The statement of one source's relationships. */
export type RelationshipStatement =
  | { readonly kind: 'multiplexed'; readonly source: string; readonly sql: MultiplexedSql; readonly sites: readonly Site[] }
  | { readonly kind: 'single'; readonly source: string; readonly sql: CompiledSql };

// The variable a site's key column is bound from (a name no GraphQL variable can have).
const keyVariable = (site: number, column: number): string => `kiln:key:${site}:${column}`;

function sitesOf(pending: readonly PendingRelationship[]): Site[] {
  const byNode = new Map<unknown, Map<unknown, Site>>();
  const sites: Site[] = [];
  for (const p of pending) {
    let inner = byNode.get(p.field.node);
    if (!inner) byNode.set(p.field.node, inner = new Map());
    let site = inner.get(p.relationship);
    if (!site) {
      site = { first: p, index: sites.length, pending: [] };
      inner.set(p.relationship, site);
      sites.push(site);
    }
    site.pending.push(p);
  }
  return sites;
}

// The select of one relationship field whose mapped columns equal `value(i)` (column i of the mapping).
function relationshipField(p: PendingRelationship, key: string, ctx: PlanContext, value: (i: number, column: string) => JoinCondValue): JsonField {
  const t = ctx.model.tables[p.relationship.target]!;
  const path = ['selectionSet', p.field.key];
  const on: JoinCond[] = [(b) => p.relationship.mapping.map(([, column], i) => ({
    kind: 'equals' as const,
    left: { kind: 'column' as const, row: b, column },
    right: { kind: 'param' as const, value: value(i, column), type: t.columns.find((c) => c.name === column)?.type ?? null },
  }))];
  const select = p.relationship.kind === 'object'
    ? objectSelect(t, tableSource(t), p.field, ctx, path, on)
    : p.field.name !== p.relationship.name
      ? relationshipAggregateSelect(t, tableSource(t), p.field, ctx, path, on)
      : listSelect(t, tableSource(t), argsOf(p.field.node), p.field, ctx, path, on);
  return { key, value: select };
}

type JoinCondValue = { readonly kind: 'literal'; readonly value: unknown } | { readonly kind: 'variable'; readonly name: string; readonly path: readonly (string | number)[] };

/** The statement that reads the relationships pending on one source, or null when there is none. */
export function relationshipStatement(pending: readonly PendingRelationship[], ctx: PlanContext): RelationshipStatement | null {
  if (pending.length === 0) return null;
  const source = ctx.model.tables[pending[0]!.relationship.target]!.source;
  if (ctx.dialect.can.multiplexing) {
    const sites = sitesOf(pending);
    const fields = sites.map((s) => relationshipField(s.first, `s${s.index}`, ctx, (i) => ({ kind: 'variable', name: keyVariable(s.index, i), path: [] })));
    const sql = ctx.dialect.render.live({ kind: 'live', source, cohort: subscriberCohort, fields }, ctx);
    return { kind: 'multiplexed', source, sql, sites };
  }
  const fields = pending.map((p, i) => relationshipField(p, `r${i}`, ctx, (c) => ({ kind: 'literal', value: p.values[c]![1] })));
  return { kind: 'single', source, sql: compileSql(ctx.dialect.render.statement(fields, ctx), ctx.dialect) };
}

/** Runs the statement of each source (session values bound as parameters) and writes each relationship's value into its object. */
export async function fillRelationships(pending: readonly PendingRelationship[], ctx: PlanContext, session: Session, driverFor: (source: string) => Driver): Promise<void> {
  const bySource = new Map<string, PendingRelationship[]>();
  for (const p of pending) {
    const source = ctx.model.tables[p.relationship.target]!.source;
    bySource.set(source, [...(bySource.get(source) ?? []), p]);
  }
  await Promise.all([...bySource.values()].map(async (group) => {
    const st = relationshipStatement(group, ctx);
    if (!st) return;
    const driver = driverFor(st.source);
    if (st.kind === 'single') {
      const text = await driver.queryText(st.sql.text, bindParams(st.sql.params, ctx.variables, session));
      const values = JSON.parse(text) as { [k: string]: Json };
      group.forEach((p, i) => { p.target[p.key] = values[`r${i}`] ?? empty(p); });
      return;
    }
    await fillMultiplexed(st.sql, st.sites, ctx, session, driver);
  }));
}

const empty = (p: PendingRelationship): Json => (p.relationship.kind === 'array' && p.field.name === p.relationship.name ? [] : null);

// One cohort per output object (objects with equal keys share one): its key values for every site
// it asks for; a key left null (another selection's site, or a null field) matches no row.
async function fillMultiplexed(sql: MultiplexedSql, sites: readonly Site[], ctx: PlanContext, session: Session, driver: Driver): Promise<void> {
  const byObject = new Map<object, { site: Site; p: PendingRelationship }[]>();
  for (const site of sites) {
    for (const p of site.pending) {
      const list = byObject.get(p.target);
      if (list) list.push({ site, p }); else byObject.set(p.target, [{ site, p }]);
    }
  }
  const cohorts: (string | null)[][] = [];
  const cohortOf = new Map<object, number>();
  const byKey = new Map<string, number>();
  for (const [object, asked] of byObject) {
    const keys: { [k: string]: unknown } = {};
    for (const { site, p } of asked) p.values.forEach(([, v], i) => { keys[keyVariable(site.index, i)] = v ?? null; });
    const values = bindParams(sql.slots, { ...ctx.variables, ...keys }, session).map(multiplexValue);
    const key = JSON.stringify(values);
    let id = byKey.get(key);
    if (id === undefined) {
      id = cohorts.length;
      byKey.set(key, id);
      cohorts.push(values);
    }
    cohortOf.set(object, id);
  }
  const results = await runCohorts(driver, sql, cohorts);
  for (const [object, asked] of byObject) {
    const result = results[cohortOf.get(object)!];
    for (const { site, p } of asked) p.target[p.key] = result?.[`s${site.index}`] ?? empty(p);
  }
}

type CohortResult = { readonly [k: string]: Json } | undefined;

// Requests whose relationship statements have the same text on the same driver in one turn of the
// event loop (the action result subscriptions polled together, concurrent requests asking the same)
// share one run of it: their cohorts are rows of one relation. A batch that fails is run again
// request by request, so one request's bad keys fail only that request.
interface Waiting {
  readonly cohorts: readonly (readonly (string | null)[])[];
  resolve(r: CohortResult[]): void;
  reject(e: unknown): void;
}

const batches = new WeakMap<Driver, Map<string, Waiting[]>>();

function runCohorts(driver: Driver, sql: MultiplexedSql, cohorts: readonly (readonly (string | null)[])[]): Promise<CohortResult[]> {
  return new Promise((resolve, reject) => {
    let byText = batches.get(driver);
    if (!byText) batches.set(driver, byText = new Map());
    let waiting = byText.get(sql.text);
    if (!waiting) {
      const list: Waiting[] = waiting = [];
      byText.set(sql.text, list);
      setImmediate(() => {
        byText!.delete(sql.text);
        void flush(driver, sql, list);
      });
    }
    waiting.push({ cohorts, resolve, reject });
  });
}

async function flush(driver: Driver, sql: MultiplexedSql, waiting: readonly Waiting[]): Promise<void> {
  try {
    const all = await runOnce(driver, sql, waiting.flatMap((w) => w.cohorts));
    let at = 0;
    for (const w of waiting) { w.resolve(all.slice(at, at + w.cohorts.length)); at += w.cohorts.length; }
  } catch (e) {
    if (waiting.length === 1) { waiting[0]!.reject(e); return; }
    await Promise.all(waiting.map(async (w) => {
      try { w.resolve(await runOnce(driver, sql, w.cohorts)); } catch (err) { w.reject(err); }
    }));
  }
}

// One statement for these cohorts (equal ones sent once); each cohort's result, in order.
async function runOnce(driver: Driver, sql: MultiplexedSql, cohorts: readonly (readonly (string | null)[])[]): Promise<CohortResult[]> {
  const ids: number[] = [];
  const sent: { id: number; values: readonly (string | null)[] }[] = [];
  const byKey = new Map<string, number>();
  for (const values of cohorts) {
    const key = JSON.stringify(values);
    let id = byKey.get(key);
    if (id === undefined) {
      id = sent.length;
      byKey.set(key, id);
      sent.push({ id, values });
    }
    ids.push(id);
  }
  const rows = (await driver.query(sql.text, multiplexParams(sent, sql.slots.length))).rows;
  const results = new Map<number, { [k: string]: Json }>();
  for (const row of rows) results.set(Number(row[0]), JSON.parse(String(row[1])) as { [k: string]: Json });
  return ids.map((id) => results.get(id));
}
