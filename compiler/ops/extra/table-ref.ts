// A table name in args: a string (schema `public`) or `{schema?, name}`.

import type { JsonPath } from '../../../runtime/errors/index.js';
import type { QualifiedTable } from '../../metadata/index.js';
import { asName, isObject, parseFailed, Reader } from './args.js';

export function readTable(v: unknown, path: JsonPath): QualifiedTable {
  if (typeof v === 'string') return { schema: 'public', name: asName(v, path) };
  if (!isObject(v)) throw parseFailed(path, 'expecting a string or an object for a table name');
  const r = new Reader(v, path);
  const name = r.name('name');
  return { schema: r.optName('schema') ?? 'public', name };
}
