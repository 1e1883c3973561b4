// What a run_sql may not do to a tracked function, as Hasura v2 refuses it after the statement:
// overload it (a second function with the same schema and name), or make it VOLATILE (a
// CREATE OR REPLACE keeps the function, so the same signature before and after is the same
// function). Both fail the whole run_sql with 400 `not-supported` at `$.args`.
// The function of a computed field is held to the same two rules, in other words (Hasura's
// `processComputedFieldDiff` of the table the field belongs to): "The function "f" associated
// with computed field"c" of table "t" is being overloaded" (Hasura writes no space before the
// field's name) and "The type of function "f" associated with computed field "c" of table "t" is
// being altered to "VOLATILE"". Tracked functions are checked first, then each table's fields.

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

/** Throws when the change overloads the function of a computed field of `source`, or makes it VOLATILE. */
export function checkComputedFieldFunctions(source: Source, before: Introspection | null, after: Introspection): void {
  for (const entry of source.tables) {
    for (const cf of entry.computed_fields ?? []) {
      const fn = cf.definition.function;
      const where = `associated with computed field`;
      if (overloaded([fn], before, after).length > 0) {
        throw new ApiError('not-supported', `The function ${quoted(fn)} ${where}${JSON.stringify(cf.name)} of table ${quoted(entry.table)} is being overloaded`, 400, ['args']);
      }
      if (madeVolatile([fn], before, after)) {
        throw new ApiError('not-supported', `The type of function ${quoted(fn)} ${where} ${JSON.stringify(cf.name)} of table ${quoted(entry.table)} is being altered to "VOLATILE"`, 400, ['args']);
      }
    }
  }
}

/**
 * A computed field's function that a run_sql dropped and created again with other arguments is,
 * for Hasura, another function (it follows functions by oid): the field goes with the old one.
 * Without `cascade` that is refused like any drop, naming the field and the permissions that
 * list it ("cannot drop due to the following dependent objects : ..."); with `cascade` the fields
 * leave the document (and the dependency judge then drops the permissions that listed them).
 * Kiln has no oids: one function of that name before and one after, with other argument types,
 * is taken as a replacement.
 */
export function dropReplacedComputedFields(source: Source, before: Introspection | null, after: Introspection, cascade: boolean): Source {
  if (!before) return source;
  const replaced = (fn: QualifiedFunction): boolean => {
    const then = overloadsOf(before, fn);
    const now = overloadsOf(after, fn);
    return then.length === 1 && now.length === 1 && signature(then[0]!) !== signature(now[0]!);
  };
  const gone = source.tables.flatMap((e) => (e.computed_fields ?? []).filter((cf) => replaced(cf.definition.function)).map((cf) => ({ entry: e, cf })));
  if (gone.length === 0) return source;
  if (!cascade) {
    const inSource = ` in source ${JSON.stringify(source.name)}`;
    const labels = gone.flatMap(({ entry, cf }) => [
      `computed field ${qualifiedText(entry.table)}.${cf.name}${inSource}`,
      ...(entry.select_permissions ?? []).filter((p) => (p.permission.computed_fields ?? []).includes(cf.name))
        .map((p) => `permission ${qualifiedText(entry.table)}.${p.role}.select${inSource}`),
    ]);
    throw new ApiError('dependency-error', `cannot drop due to the following dependent objects : ${[...new Set(labels)].sort().join(', ')}`, 400, ['args']);
  }
  return {
    ...source,
    tables: source.tables.map((e) => {
      const kept = (e.computed_fields ?? []).filter((cf) => !gone.some((g) => g.cf === cf));
      if (kept.length === (e.computed_fields ?? []).length) return e;
      const { computed_fields: _dropped, ...rest } = e;
      return kept.length > 0 ? { ...rest, computed_fields: kept } : rest;
    }),
  };
}
