// `if_matched` of an insert on an MSSQL source (Hasura's MSSQL upsert argument, in place of
// `on_conflict`): rows whose `match_columns` equal an existing row's update that row's
// `update_columns` (with the update permission's presets) where the update permission's filter
// and the client's `where` hold; the others are inserted. Rendered as a MERGE.

import type { TableModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { boolCond, permissionCond, whereToIr } from './bool.js';
import type { PlanContext } from './context.js';
import { entriesOf, isNull, itemsOf, valueOf, type Input } from './input.js';
import type { ConflictPlan } from './mutation-conflict.js';
import { mutationPermsOf } from './mutation-perms.js';

type Path = readonly (string | number)[];

export function ifMatchedClause(t: TableModel, input: Input, ctx: PlanContext, path: Path): ConflictPlan {
  if (ctx.dialect.can.upsert !== 'merge') throw new ApiError('not-supported', `"if_matched" is not supported on a ${ctx.dialect.name} source`, 400, path);
  const update = mutationPermsOf(ctx, t).update;
  if (!update) throw new ApiError('validation-failed', `"if_matched" is not allowed for table "${t.name}"`, 400, path);
  const entries = new Map(entriesOf(input, ctx, path));
  const columnsAt = (key: string, allowed: readonly string[]) => {
    const given = entries.get(key);
    const fields = given && !isNull(given, ctx) ? itemsOf(given, ctx).map((i) => String(valueOf(i, ctx))) : [];
    return fields.map((field) => {
      const c = t.columns.find((x) => x.field === field);
      if (!c || !allowed.includes(c.name)) throw new ApiError('validation-failed', 'erroneous column name', 400, [...path, key]);
      return c;
    });
  };
  const match = columnsAt('match_columns', t.columns.map((c) => c.name));
  if (match.length === 0) throw new ApiError('validation-failed', '"match_columns" must name at least one column', 400, [...path, 'match_columns']);
  const columns = columnsAt('update_columns', update.columns);
  const whereInput = entries.get('where');
  const where = whereInput && !isNull(whereInput, ctx) ? whereToIr(whereInput, t, ctx, [...path, 'where']) : null;
  const target = { kind: 'columns' as const, columns: match.map((c) => c.name) };
  if (columns.length === 0) return { conflict: () => ({ target, update: null }), updateChecked: false };
  return {
    conflict: (a) => ({ target, update: {
      set: [...columns.filter((c) => !update.presets.has(c.name)).map((c) => ({ column: c.name, value: { kind: 'excluded' as const, column: c.name } })),
        ...[...update.presets].map(([name, value]) => ({ column: name, value }))],
      permission: permissionCond(ctx, t.id, 'updateFilter', a),
      where: where ? boolCond(where, a, ctx) : null,
    } }),
    updateChecked: update.checked,
  };
}
