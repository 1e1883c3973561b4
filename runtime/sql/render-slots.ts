// What every dialect's renderer writes the same way: a value slot as a parameter (the dialect's
// placeholder and type are applied when the fragments are compiled), and the end of a switch.

import { param, session, variable, type Sql } from './fragment.js';
import type { Slot } from './ir/index.js';

/** A value slot as a parameter of `type`. */
export function slotSql(slot: Slot, type: string | null): Sql {
  switch (slot.kind) {
    case 'literal': return param(slot.value, type);
    case 'variable': return variable(slot.name, slot.path, type, slot.shown === true);
    case 'session': return session(slot.name, type);
    default: return unreachable(slot);
  }
}

/** The exhaustiveness check ending every switch over an IR union. */
export function unreachable(x: never): never {
  throw new Error(`assertion failed: unknown IR node ${JSON.stringify(x)}`);
}
