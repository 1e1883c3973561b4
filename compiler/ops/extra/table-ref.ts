// A table name in args: a string (schema `public`) or `{schema?, name}`.

import { ArgsReader, asName, isObject, type JsonPath, parseFailed } from '../../../runtime/errors/index.js';
import type { QualifiedTable } from '../../metadata/index.js';

export function readTable(v: unknown, path: JsonPath): QualifiedTable {
  if (typeof v === 'string') return { schema: 'public', name: asName(v, path) };
  if (!isObject(v)) throw parseFailed(path, 'expecting a string or an object for a table name');
  const r = new ArgsReader(v, path);
  const name = r.name('name');
  return { schema: r.optName('schema') ?? 'public', name };
}
