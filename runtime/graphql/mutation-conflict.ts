// `on_conflict` of an insert: ON CONFLICT ON CONSTRAINT c DO NOTHING, or DO UPDATE of the chosen
// columns (and the update permission's presets) on the rows the update permission's filter and
// the client's `where` allow. Only roles that may update get the argument (the schema sees to it).

import type { TableModel } from '../bundle/index.js';
import { typeNameOf } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Alias, Conflict } from '../sql/index.js';
import { boolCond, permissionCond, whereToIr } from './bool.js';
import type { PlanContext } from './context.js';
import { entriesOf, isNull, itemsOf, valueOf, type Input } from './input.js';
import { mutationPermsOf } from './mutation-perms.js';

type Path = readonly (string | number)[];

/** The upsert of an INSERT whose target alias is given, and the update check the updated rows must pass. */
export interface ConflictPlan {
  readonly conflict: (target: Alias) => Conflict;
  /** Whether rows it updates are checked (the update permission's check). */
  readonly updateChecked: boolean;
}

export function onConflictClause(t: TableModel, input: Input, ctx: PlanContext, path: Path): ConflictPlan {
  if (ctx.dialect.can.upsert === null) throw new ApiError('not-supported', `"on_conflict" is not supported on a ${ctx.dialect.name} source`, 400, path);
  const update = mutationPermsOf(ctx, t).update;
  if (!update) throw new ApiError('validation-failed', `"on_conflict" is not allowed for table "${t.name}"`, 400, path);
  const entries = new Map(entriesOf(input, ctx, path));
  const constraintName = entries.get('constraint');
  if (!constraintName || isNull(constraintName, ctx)) throw new ApiError('validation-failed', 'missing required field "constraint"', 400, path);
  const name = String(valueOf(constraintName, ctx));
  const constraint = t.uniqueConstraints.find((u) => u.name === name);
  if (!constraint) throw new ApiError('validation-failed', `unexpected value ${JSON.stringify(name)} for enum: '${typeNameOf(t, '_constraint')}'`, 400, [...path, 'constraint']);
  const given = entries.get('update_columns');
  const fields = given && !isNull(given, ctx) ? itemsOf(given, ctx).map((i) => String(valueOf(i, ctx))) : [];
  const columns = fields.map((field) => {
    const c = t.columns.find((x) => x.field === field);
    // `_PLACEHOLDER` stands in the enum of a role that may update no column (corpus: article_on_conflict_restricted_role).
    if (!c || !update.columns.includes(c.name)) throw new ApiError('validation-failed', 'erroneous column name', 400, path);
    return c;
  });
  const whereInput = entries.get('where');
  const where = whereInput && !isNull(whereInput, ctx) ? whereToIr(whereInput, t, ctx, [...path, 'where']) : null;
  if (columns.length === 0) return { conflict: () => ({ target: { kind: 'constraint', name: constraint.name }, update: null }), updateChecked: false };
  return {
    conflict: (a) => ({ target: { kind: 'constraint', name: constraint.name }, update: {
      set: [...columns.filter((c) => !update.presets.has(c.name)).map((c) => ({ column: c.name, value: { kind: 'excluded' as const, column: c.name } })),
        ...[...update.presets].map(([name, value]) => ({ column: name, value }))],
      permission: permissionCond(ctx, t.id, 'updateFilter', a),
      where: where ? boolCond(where, a, ctx) : null,
    } }),
    updateChecked: update.checked,
  };
}

