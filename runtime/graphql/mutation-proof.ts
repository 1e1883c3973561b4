// The proof on the IR for mutations: every write carries the role's permission (an update's and
// a delete's filter on the rows it may touch, an upsert's update filter on the conflicting row,
// the insert and update checks as guards on every row written) and every read in the statement
// carries the role's select permission (permission-proof.ts). No SQL is parsed.

import type { BundleModel, BoolIr, PermissionRule, TableId } from '../bundle/index.js';
import { readsOfMutation, type Alias, type Cond, type Guard, type MutationStatement, type QualifiedName } from '../sql/index.js';
import type { PlanContext } from './context.js';
import { planMutation } from './mutation-plan.js';
import { isRoleRule, readGaps } from './permission-proof.js';
import type { PlanInput } from './plan.js';

/** What is wrong with the writes and reads of a mutation statement for the role `ctx.role` (empty: all guarded). */
export function mutationGaps(m: MutationStatement, ctx: PlanContext): string[] {
  const gaps: string[] = [];
  // The insert or update check must be a guard on every row the write part returned (`only` those inserted/updated by an upsert).
  const checked = (table: TableId, write: Alias, only: 'inserted' | 'updated' | null, check: BoolIr, rule: PermissionRule): boolean => check.kind === 'true'
    || m.guards.some((g: Guard) => g.kind === 'all_rows' && g.rows.kind === 'written' && g.rows.write === write && g.rows.only === only && isRoleRule(g.check, table, rule, g.row, ctx));
  const same = (found: Cond | null, table: TableId, rule: PermissionRule, row: Alias): boolean => found !== null && isRoleRule(found, table, rule, row, ctx);
  for (const { name, body } of m.writes) {
    if (body.kind === 'none' || body.kind === 'union') continue;
    const table = tableOf(ctx.model, body.table);
    if (table === null) { gaps.push(`${body.table.schema}.${body.table.name}: a write of a table the model does not know`); continue; }
    const perms = ctx.model.mutations?.[ctx.role]?.[table] ?? {};
    const gap = (what: string): void => { gaps.push(`${table}: ${what}`); };
    switch (body.kind) {
      case 'insert': {
        if (!perms.insert) { gap(`role "${ctx.role}" has no insert permission`); break; }
        const upsert = body.conflict !== null;
        if (!checked(table, name, upsert ? 'inserted' : null, perms.insert.check, 'insertCheck')) gap('an inserted row is not checked by the insert check');
        const update = body.conflict?.update;
        if (!update) break;
        if (!perms.update) { gap(`role "${ctx.role}" has no update permission (upsert)`); break; }
        if (!same(update.permission, table, 'updateFilter', body.target)) gap('the upsert\'s update is not filtered by the role\'s update filter');
        if (!checked(table, name, 'updated', perms.update.check, 'updateCheck')) gap('a row the upsert updated is not checked by the update check');
        break;
      }
      case 'update':
        if (!perms.update) { gap(`role "${ctx.role}" has no update permission`); break; }
        if (!same(body.permission, table, 'updateFilter', body.row)) gap('the update is not filtered by the role\'s update filter');
        if (body.set.length > 0 && !checked(table, name, null, perms.update.check, 'updateCheck')) gap('an updated row is not checked by the update check');
        break;
      case 'delete':
        if (!perms.delete) { gap(`role "${ctx.role}" has no delete permission`); break; }
        if (!same(body.permission, table, 'deleteFilter', body.row)) gap('the delete is not filtered by the role\'s delete filter');
        break;
    }
  }
  return [...gaps, ...readGaps(readsOfMutation(m), ctx)];
}

/** Plans a mutation operation as the runtime does and proves every statement on its IR. */
export function proveMutation(input: PlanInput): { readonly statements: number; readonly gaps: readonly string[] } {
  const plan = planMutation(input);
  const ctx: PlanContext = { ...input, fragments: new Map(), hints: { valueSensitive: false } };
  const statements = plan.fields.flatMap((f) => (f.kind === 'sql' ? f.statements : []));
  const gaps = statements.flatMap((s) => (s.ir ? mutationGaps(s.ir, ctx) : ['a statement without its IR']));
  return { statements: statements.length, gaps };
}

function tableOf(model: BundleModel, q: QualifiedName): TableId | null {
  return Object.values(model.tables).find((t) => t.schema === q.schema && t.name === q.name)?.id ?? null;
}
