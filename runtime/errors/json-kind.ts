/** The JSON kind of a value as aeson spells it in "expected X, but encountered Y" messages. */
export function jsonKind(v: unknown): string {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  switch (typeof v) {
    case 'string': return 'String';
    case 'number': return 'Number';
    case 'boolean': return 'Boolean';
    case 'object': return 'Object';
    default: return 'a non-JSON value';
  }
}
