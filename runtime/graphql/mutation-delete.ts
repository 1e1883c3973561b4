// delete_<t> and delete_<t>_by_pk: DELETE on the rows the delete filter and `where` (or the
// primary key) select; the response is built from the deleted rows in the same statement, so
// relationships in `returning` still see what the rows pointed at.

import type { TableModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { Alias } from '../sql/index.js';
import { boolCond, permissionCond, whereToIr } from './bool.js';
import type { PlanContext } from './context.js';
import type { FieldSel } from './fields.js';
import { isNull, type Input } from './input.js';
import { finishStatement, responseJson, rowsOf, singleRowJson, StatementBuilder, type GuardedSql } from './mutation-output.js';
import { mutationPermsOf, writtenTableOf } from './mutation-perms.js';
import { pkIr } from './mutation-update.js';

type Path = readonly (string | number)[];

/** Plans one DELETE; `byPk` takes the primary key from the field's arguments and answers the row. */
export function planDelete(t: TableModel, f: FieldSel, args: ReadonlyMap<string, Input>, byPk: boolean, ctx: PlanContext, path: Path): GuardedSql {
  const perm = mutationPermsOf(ctx, t).delete;
  if (!perm) throw new ApiError('validation-failed', `no delete permission on table "${t.name}"`, 400, path);
  const a = new Alias(t.name);
  const where = args.get('where');
  const selector = byPk
    ? pkIr(t, args, ctx, [...path, 'args'])
    : where && !isNull(where, ctx) ? whereToIr(where, t, ctx, [...path, 'args', 'where']) : { kind: 'true' as const };
  const b = new StatementBuilder();
  const cte = b.cte(t.name, { kind: 'delete', ...writtenTableOf(ctx, t), row: a,
    permission: permissionCond(ctx, t.id, 'deleteFilter', a), selector: boolCond(selector, a, ctx) });
  const rows = rowsOf(t, cte);
  const json = byPk ? singleRowJson(t, f, rows, ctx, path) : responseJson(t, f, [cte], rows, ctx, path);
  return finishStatement(b, json, ctx);
}
