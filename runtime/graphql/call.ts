// Function calls of the plan: root functions and computed fields, with the row, the session and
// the user's arguments each where the function declares them.

import type { ComputedFieldModel } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { Alias, CallArg, CallExpr, Expr } from '../sql/index.js';
import type { PlanContext } from './context.js';
import { entriesOf, isNull, leafExpr, type Input } from './input.js';

type Path = readonly (string | number)[];

// The name the model gives an argument the function declares without one (compiler/model userArgs).
const UNNAMED_ARG = /^arg_\d+$/;

/**
 * The argument list of a function call: `fixed` (the row of a computed field, at `rowPosition`),
 * the session (at `sessionArg`) and the user's `args`. The row and the session have no name to
 * pass them by, so every argument up to the last of them goes by position, the rest by name.
 * (Putting the row and session first broke functions whose table or session argument is not first.)
 */
export function functionArgs(fnArgs: ComputedFieldModel['args'], sessionArg: number | null, argsInput: Input | undefined,
  ctx: PlanContext, path: Path, fixed: Expr | null, rowPosition = 0): CallArg[] {
  const given = new Map(argsInput && !isNull(argsInput, ctx) ? entriesOf(argsInput, ctx, [...path, 'args', 'args']) : []);
  const own = new Map<number, Expr>();
  if (fixed) own.set(rowPosition, fixed);
  if (sessionArg !== null) own.set(sessionArg, { kind: 'session_json' });
  // As Hasura does: the longest run of leading arguments that have a value goes by position
  // (unnamed `arg_N` ones can go no other way), the rest by name.
  let lastPositional = Math.max(-1, ...own.keys());
  for (let i = lastPositional + 1; ; i++) {
    const arg = fnArgs.find((a) => a.position === i);
    if (!own.has(i) && !(arg && given.has(arg.name))) break;
    lastPositional = i;
  }
  const out: CallArg[] = [];
  for (let i = 0; i <= lastPositional; i++) {
    const mine = own.get(i);
    const arg = fnArgs.find((a) => a.position === i);
    const v = arg ? given.get(arg.name) : undefined;
    if (mine) out.push({ name: null, value: mine });
    else if (arg && v) out.push({ name: null, value: leafExpr(v, arg.type, ctx) });
    else throw new ApiError('not-supported', 'Only last set of positional arguments can be omitted', 400, [...path, 'args', 'args']);
  }
  for (const arg of [...fnArgs].sort((x, y) => x.position - y.position)) {
    if (arg.position <= lastPositional) continue;
    const v = given.get(arg.name);
    if (!v) {
      if (!arg.hasDefault) throw new ApiError('not-supported', 'Non default arguments cannot be omitted', 400, [...path, 'args', 'args']);
      continue;
    }
    if (UNNAMED_ARG.test(arg.name)) throw new ApiError('not-supported', 'Only last set of positional arguments can be omitted', 400, [...path, 'args', 'args']);
    out.push({ name: arg.name, value: leafExpr(v, arg.type, ctx) });
  }
  return out;
}

/** `fn(<row of a>, session, args...)`: the call of a computed field on the row at alias `a`. */
export function computedCall(cf: ComputedFieldModel, a: Alias, argsInput: Input | undefined, ctx: PlanContext, path: Path): CallExpr {
  const args = functionArgs(cf.args, cf.sessionArgument, argsInput, ctx, path, { kind: 'row', row: a }, cf.tableArgument);
  return { kind: 'call', fn: cf.function, args };
}
