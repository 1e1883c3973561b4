// Remote relationships in a table's selection: the planner puts a placeholder where the field's
// value goes (an object holding the join columns of the row and the site's number), and notes the
// site; once the SQL has run, remote-joins.ts replaces every placeholder of a site with one call.

import type { RemoteRelationshipModel, TableModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Alias, JsonValue } from '../sql/index.js';
import type { PlanContext } from './context.js';
import { computedCall } from './call.js';
import { scalarOutput, type FieldSel } from './fields.js';

/** The key that marks a placeholder object in the SQL's JSON. */
export const JOIN_MARK = '__kiln_join';

/** One remote relationship field of a query: what the placeholders of number `id` stand for. */
export interface RemoteJoinSite {
  readonly id: number;
  readonly table: TableModel;
  readonly relationship: RemoteRelationshipModel;
  readonly field: FieldSel;
}

/** The placeholder value of a remote relationship field, and its site noted in the context. */
export function remoteJoinPlaceholder(t: TableModel, a: Alias, rel: RemoteRelationshipModel, f: FieldSel, ctx: PlanContext,
  path: readonly (string | number)[]): JsonValue {
  const sites = ctx.remoteJoins;
  if (!sites) throw new ApiError('not-supported', `remote relationship "${f.name}" cannot be used here (subscriptions and mutations do not support remote relationships yet)`, 400, path);
  const id = sites.length;
  sites.push({ id, table: t, relationship: rel, field: f });
  const columns = rel.kind === 'source' ? rel.mapping.map(([c]) => c) : rel.lhsColumns;
  return {
    kind: 'object',
    fields: [
      { key: JOIN_MARK, value: { kind: 'name', name: `j${id}` } },
      ...columns.map((c) => {
        const col = t.columns.find((x) => x.name === c);
        if (col) return { key: c, value: { kind: 'scalar', expr: { kind: 'column', row: a, column: c }, output: scalarOutput(col, ctx) } as const };
        // A scalar computed field as join field: its call on the row (the session too, if it takes it).
        const cf = t.computedFields.find((x) => x.name === c)!;
        const output = scalarOutput(cf.returns.kind === 'scalar' ? cf.returns : { scalar: 'String' }, ctx);
        return { key: c, value: { kind: 'scalar', expr: computedCall(cf, a, undefined, ctx, path), output } as const };
      }),
    ],
  };
}
