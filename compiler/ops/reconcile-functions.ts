// What a run_sql may not do to a tracked function, as Hasura v2 refuses it after the statement:
// overload it (a second function with the same schema and name), or make it VOLATILE (a
// CREATE OR REPLACE keeps the function, so the same signature before and after is the same
// function). Both fail the whole run_sql with 400 `not-supported` at `$.args`.

import { ApiError } from '../../runtime/errors/index.js';
import type { IntrospectedFunction, Introspection } from '../introspect/index.js';
import type { QualifiedFunction, Source } from '../metadata/index.js';
import { qualifiedText } from '../model/index.js';
import { quoted } from './document.js';

function overloadsOf(db: Introspection, f: QualifiedFunction): readonly IntrospectedFunction[] {
  return db.functions.filter((x) => x.schema === f.schema && x.name === f.name);
}

const countOf = (list: readonly IntrospectedFunction[]): number => Math.max(list.length, ...list.map((x) => x.overloads));

const signature = (f: IntrospectedFunction): string => JSON.stringify(f.args.map((a) => [a.typeSchema, a.type]));

function overloaded(tracked: readonly QualifiedFunction[], before: Introspection | null, after: Introspection): QualifiedFunction[] {
  // A function that was overloaded already is reported as inconsistent by the model; only a
  // statement that adds an overload is refused here, so that later statements still run.
  return tracked.filter((f) => {
    const now = countOf(overloadsOf(after, f));
    return now > 1 && (before === null || countOf(overloadsOf(before, f)) < now);
  });
}

function madeVolatile(tracked: readonly QualifiedFunction[], before: Introspection | null, after: Introspection): QualifiedFunction | undefined {
  if (!before) return undefined;
  return tracked.find((f) => {
    const then = overloadsOf(before, f);
    const now = overloadsOf(after, f);
    if (then.length !== 1 || now.length !== 1 || signature(then[0]!) !== signature(now[0]!)) return false;
    return then[0]!.volatility !== 'volatile' && now[0]!.volatility === 'volatile';
  });
}

/** Throws when the change overloads a tracked function of `source` or makes one VOLATILE. */
export function checkTrackedFunctions(source: Source, before: Introspection | null, after: Introspection): void {
  const tracked = (source.functions ?? []).map((f) => f.function);
  if (tracked.length === 0) return;
  const clashes = overloaded(tracked, before, after);
  if (clashes.length > 0) {
    throw new ApiError('not-supported', `the following tracked function(s) cannot be overloaded: ${clashes.map(qualifiedText).join(', ')}`, 400, ['args']);
  }
  const volatile = madeVolatile(tracked, before, after);
  if (volatile) {
    throw new ApiError('not-supported', `type of function ${quoted(volatile)} is altered to "VOLATILE" which is not supported now`, 400, ['args']);
  }
}
