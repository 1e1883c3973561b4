// Strict keys: every object of a metadata document may hold only the keys its kind has. A key
// nobody knows is refused (`parse-failed`) with its path and the nearest known key, instead of being
// dropped: a `tabels` for `tables` would otherwise replace the metadata with one that has no table.
// A key Hasura takes but Kiln does not implement is refused with a message that says so.
//
// Hasura v2 itself ignores unknown keys (aeson's default); Kiln refuses them on purpose (issue 15).
// Its parse errors are `parse-failed`, so an unknown key is one too; a key known but not
// implemented is `not-supported`, the code Kiln gives every feature it does not have.
//
// The shapes of the modelled objects are typed against compiler/metadata/types.ts (`shape<T>` wants
// exactly the keys of T), so a key added to a type cannot be forgotten here and no key can be
// accepted here that the type does not carry. The sections the parser keeps as raw JSON (actions,
// remote schemas, cron triggers...) have their shapes in strict-sections.ts.

import { type JsonPath, unknownKeyError, ApiError } from '../../runtime/errors/index.js';

/** What a value must look like, as far as its keys go (values themselves are the readers' job). */
export type Shape =
  | 'any'
  | ObjectShape
  | { readonly list: Shape }
  | { readonly map: Shape }
  | { readonly pick: (value: unknown) => Shape }
  | NotImplemented;

/** A key Hasura knows and Kiln refuses, with the reason it gives. */
export interface NotImplemented { readonly notImplemented: string }

/** An object kind: its name in messages, and the shape under each of its keys. */
export interface ObjectShape {
  readonly what: string;
  readonly keys: { readonly [key: string]: Shape };
}

/** A kind whose keys are exactly those of `T`: the compiler refuses a missing or an extra one. */
export function shape<T>(what: string, keys: { readonly [K in keyof Required<T>]: Shape }): ObjectShape {
  return { what, keys: keys as { readonly [key: string]: Shape } };
}

/** A kind whose keys are only listed here (parts the parser keeps as raw JSON). */
export function rawShape(what: string, keys: { readonly [key: string]: Shape }): ObjectShape {
  return { what, keys };
}

/** A key refused because Kiln does not implement what it asks for. */
export function notImplemented(reason: string): NotImplemented {
  return { notImplemented: reason };
}

/** The same kind, with keys Hasura takes that Kiln refuses (each with its reason). */
export function refusing(kind: ObjectShape, reasons: { readonly [key: string]: string }): ObjectShape {
  const extra = Object.fromEntries(Object.entries(reasons).map(([k, r]) => [k, notImplemented(r)]));
  return { what: kind.what, keys: { ...kind.keys, ...extra } };
}

export const list = (of: Shape): Shape => ({ list: of });
export const map = (of: Shape): Shape => ({ map: of });
export const pick = (choose: (value: unknown) => Shape): Shape => ({ pick: choose });

function isObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value being checked: its shape, and where it is (its parent and its key there; the root has neither). */
interface Visit {
  readonly v: unknown;
  readonly s: Shape;
  readonly up: Visit | null;
  readonly key: string | number | null;
}

function isNotImplemented(s: Shape): s is NotImplemented {
  return typeof s === 'object' && 'notImplemented' in s;
}

/**
 * Every key of `value` (and below) that its shape does not have: unknown keys as `parse-failed`,
 * keys not implemented as `not-supported`, each at its path. Values of the wrong JSON kind are
 * passed over (the readers report them). Iterative, so deep documents cannot overflow the stack.
 */
export function checkKeys(value: unknown, root: Shape, path: JsonPath): ApiError[] {
  const out: ApiError[] = [];
  // A value's path is its parent's and its own key, made into an array only for an error: at
  // 1,000 tables x 20 roles a path array per value was a fifth of reading the document.
  const stack: Visit[] = [{ v: value, s: root, up: null, key: null }];
  const pathOf = (at: Visit | null, key?: string): JsonPath => {
    const keys: (string | number)[] = key === undefined ? [] : [key];
    for (let x = at; x !== null && x.up !== null; x = x.up) keys.push(x.key!);
    return [...path, ...keys.reverse()];
  };
  while (stack.length > 0) {
    const at = stack.pop()!;
    const { v, s } = at;
    if (s === 'any' || isNotImplemented(s)) continue;
    if ('pick' in s) { stack.push({ v, s: s.pick(v), up: at.up, key: at.key }); continue; }
    if ('list' in s) {
      if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], s: s.list, up: at, key: i });
      continue;
    }
    if (!isObject(v)) continue;
    if ('map' in s) {
      for (const k of Object.keys(v).reverse()) stack.push({ v: v[k], s: s.map, up: at, key: k });
      continue;
    }
    const found: Visit[] = [];
    for (const k of Object.keys(v)) {
      const sub = Object.hasOwn(s.keys, k) ? s.keys[k]! : undefined;
      if (sub === undefined) out.push(unknownKeyError(pathOf(at, k), s.what, Object.keys(s.keys).filter((x) => !isNotImplemented(s.keys[x]!))));
      else if (isNotImplemented(sub)) {
        // null stands for absent (aeson's `.:?`), so an explicit null asks for nothing.
        if (v[k] !== null) out.push(new ApiError('not-supported', `${JSON.stringify(k)} in ${s.what} is not implemented by Kiln: ${sub.notImplemented}`, 400, pathOf(at, k)));
      } else found.push({ v: v[k], s: sub, up: at, key: k });
    }
    for (let i = found.length - 1; i >= 0; i--) stack.push(found[i]!);
  }
  return out;
}
