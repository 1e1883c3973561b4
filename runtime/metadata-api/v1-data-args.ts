// What the /v1/query operations the runtime runs itself (run_sql, the v1 data operations) read
// beyond the shared argument reader (runtime/errors, aeson's wording): the loose object type
// their readers pass around, and a table name as /v1/query takes it.

import { asString, isObject, mismatch, optional, requiredField, type JsonPath } from '../errors/index.js';

export type Obj = { readonly [key: string]: unknown };

/** A table name: `"author"` (schema public) or `{schema?, name}`. */
export interface TableName {
  readonly schema: string;
  readonly name: string;
}

export function readTableName(v: unknown, path: JsonPath): TableName {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (!isObject(v)) throw mismatch(path, 'QualifiedTable', 'String or Object', v);
  const name = requiredField(v, 'name', path, asString);
  const schema = optional(v, 'schema', path, asString) ?? 'public';
  return { schema, name };
}
