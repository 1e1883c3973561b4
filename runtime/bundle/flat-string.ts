// Strings a long-lived structure keeps (type names, descriptions) as strings of their own.

/**
 * `s` as a flat string shared by every equal one: the internalized copy V8 makes of a property
 * key. A name or description parsed out of a larger text is a slice that keeps that whole text
 * alive (graphql-js takes token values as slices of the source), and equal texts parsed apart are
 * separate strings; this copy is neither, and V8's string table does not keep it alive.
 */
export function flat<T extends string | undefined>(s: T): T {
  if (s === undefined) return s;
  for (const key in { [s]: 0 }) return key as T;
  return s;
}
