// Reading a saved snapshot (`kiln compile --introspection FILE`): the parsed JSON is checked against
// the Introspection shape, and the first mismatch is reported with its JSON path.
import { ApiError, type JsonPath } from '../../runtime/errors/index.js';
import type { Introspection } from './types.js';

/** A shape check: returns the problem at `path`, or null when `value` fits. */
type Check = (value: unknown, path: JsonPath) => Problem | null;
interface Problem { readonly path: JsonPath; readonly message: string }

const fail = (path: JsonPath, message: string): Problem => ({ path, message });

const str: Check = (v, p) => (typeof v === 'string' ? null : fail(p, 'expected a string'));
const bool: Check = (v, p) => (typeof v === 'boolean' ? null : fail(p, 'expected a boolean'));
const int: Check = (v, p) => (Number.isInteger(v) ? null : fail(p, 'expected an integer'));

function nullable(check: Check): Check {
  return (v, p) => (v === null ? null : check(v, p));
}

function oneOf(...options: readonly string[]): Check {
  return (v, p) => (typeof v === 'string' && options.includes(v)
    ? null
    : fail(p, `expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}`));
}

function list(item: Check): Check {
  return (v, p) => {
    if (!Array.isArray(v)) return fail(p, 'expected an array');
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], [...p, i]);
      if (problem) return problem;
    }
    return null;
  };
}

/** An object with required fields and, after `?` in the key, optional ones. Extra keys are allowed
 *  so that a snapshot from a newer Kiln with more fields still reads. */
function object(fields: Readonly<Record<string, Check>>): Check {
  return (v, p) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(p, 'expected an object');
    const record = v as Record<string, unknown>;
    for (const [spec, check] of Object.entries(fields)) {
      const optional = spec.endsWith('?');
      const key = optional ? spec.slice(0, -1) : spec;
      if (!(key in record)) {
        if (optional) continue;
        return fail([...p, key], `the key "${key}" was not present`);
      }
      const problem = check(record[key], [...p, key]);
      if (problem) return problem;
    }
    return null;
  };
}

const keyColumns = object({ name: str, columns: list(str) });

const column = object({
  name: str,
  position: int,
  type: str,
  typeSchema: str,
  typeKind: oneOf('base', 'enum', 'composite', 'domain', 'range', 'array', 'pseudo', 'multirange'),
  'elementType?': nullable(str),
  nullable: bool,
  default: nullable(str),
  generated: nullable(oneOf('always', 'by_default', 'stored', 'virtual')),
  comment: nullable(str),
});

const table = object({
  schema: str,
  name: str,
  kind: oneOf('table', 'view', 'materialized_view', 'foreign_table', 'partitioned_table'),
  comment: nullable(str),
  columns: list(column),
  primaryKey: nullable(keyColumns),
  uniqueConstraints: list(keyColumns),
  foreignKeys: list(object({ name: str, columns: list(str), refSchema: str, refTable: str, refColumns: list(str) })),
  'mutable?': object({ insertable: bool, updatable: bool, deletable: bool }),
});

const fn = object({
  schema: str,
  name: str,
  comment: nullable(str),
  volatility: oneOf('immutable', 'stable', 'volatile'),
  args: list(object({ name: nullable(str), type: str, typeSchema: str, hasDefault: bool })),
  returnType: str,
  returnTypeSchema: str,
  returnKind: oneOf('table', 'scalar', 'void', 'other'),
  returnsSet: bool,
  overloads: int,
  'variadic?': bool,
});

const type = object({
  schema: str,
  name: str,
  kind: oneOf('enum', 'composite', 'domain', 'range', 'base'),
  'enumValues?': list(str),
  'baseType?': str,
  'baseTypeSchema?': str,
});

const enumTable = object({
  schema: str,
  name: str,
  values: list(object({ value: str, comment: nullable(str) })),
});

const snapshot = object({
  dialect: oneOf('postgres', 'mssql', 'bigquery'),
  'serverVersion?': str,
  schemas: list(str),
  tables: list(table),
  functions: list(fn),
  'types?': list(type),
  enumValues: list(enumTable),
});

/** Checks that `doc` (parsed JSON) is an introspection snapshot; throws `parse-failed` at the first
 *  field that does not fit, with its path (`$.tables[2].columns[0].type`). */
export function introspectionFromJson(doc: unknown): Introspection {
  const problem = snapshot(doc, []);
  if (problem) {
    throw new ApiError('parse-failed', `not an introspection snapshot: ${problem.message}`, 400, problem.path);
  }
  return doc as Introspection;
}
