// Relationships and computed fields of one table entry.

import {
  compact, has, listOf, mapOf, nullable, oneOf, optional, qualified, readName, readObject,
  readString, required, type Obj, type Path, type Read, type Issues,
} from './reader.js';
import type { ComputedField, QualifiedTable, Relationship } from './types.js';

type Using = Relationship['using'];
type ForeignKey = NonNullable<Using['foreign_key_constraint_on']>;
type Manual = NonNullable<Using['manual_configuration']>;

const readColumns: Read<readonly string[]> = (v, path, is) => {
  const cols = listOf(readName)(v, path, is);
  if (cols !== undefined && cols.length === 0) return is.fail(path, 'expected at least one column');
  return cols;
};

// `column` or `columns`: a name or a list of names either way (Hasura's parseColumns).
const readColumnOrColumns: Read<readonly string[]> = (v, path, is) => {
  if (typeof v === 'string') {
    const n = readName(v, path, is);
    return n === undefined ? undefined : [n];
  }
  if (Array.isArray(v)) return readColumns(v, path, is);
  return is.fail(path, 'Expected string or array');
};

/**
 * `{table, column}` or `{table, columns}`: the columns of the other table that point here. The
 * messages are Hasura v2's (RQL/Types/Relationships.hs, the FromJSON of ArrRelUsingFKeyOn and
 * ObjRelUsingChoice).
 */
function remoteColumns(defaultSchema: string | null): Read<ForeignKey> {
  return (v, path, is) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return is.fail(path, 'Expecting object { table, columns }.');
    const o = v as Obj;
    const table = required(o, 'table', path, is, qualified(defaultSchema));
    if (has(o, 'column') === has(o, 'columns')) return is.fail(path, "expected exactly one of 'column' or 'columns'");
    const key = has(o, 'column') ? 'column' : 'columns';
    const cols = optional(o, key, path, is, readColumnOrColumns);
    if (table === undefined || cols === undefined) return undefined;
    // Kept as given: one name as `column`, a list as `columns`.
    if (key === 'column' && typeof o['column'] === 'string') return compact({ table, column: cols[0]! });
    return compact({ table, columns: cols });
  };
}

/** Object relationships name local column(s), or the remote side like array relationships do. */
function foreignKey(type: 'object' | 'array', defaultSchema: string | null): Read<ForeignKey> {
  return (v, path, is) => {
    if (type === 'object' && typeof v === 'string') return readName(v, path, is);
    if (type === 'object' && Array.isArray(v)) return readColumns(v, path, is);
    if (type === 'object' && (v === null || typeof v !== 'object')) return is.fail(path, 'Expected string or array');
    return remoteColumns(defaultSchema)(v, path, is);
  };
}

function manualConfiguration(defaultSchema: string | null): Read<Manual> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const remote_table = required(o, 'remote_table', path, is, qualified(defaultSchema));
    const column_mapping = required(o, 'column_mapping', path, is, mapOf(readName));
    const insertion_order = nullable(o, 'insertion_order', path, is, oneOf(['before_parent', 'after_parent'] as const));
    if (column_mapping !== undefined && Object.keys(column_mapping).length === 0) {
      is.fail([...path, 'column_mapping'], 'expected at least one column in column_mapping');
    }
    if (remote_table === undefined || column_mapping === undefined) return undefined;
    return compact({ remote_table, column_mapping, insertion_order });
  };
}

function using(type: 'object' | 'array', defaultSchema: string | null): Read<Using> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    if (has(o, 'foreign_key_constraint_on') === has(o, 'manual_configuration')) {
      return is.fail(path, 'expecting exactly one of the keys "foreign_key_constraint_on", "manual_configuration"');
    }
    const fk = optional(o, 'foreign_key_constraint_on', path, is, foreignKey(type, defaultSchema));
    const manual = optional(o, 'manual_configuration', path, is, manualConfiguration(defaultSchema));
    if (fk !== undefined) return { foreign_key_constraint_on: fk };
    if (manual !== undefined) return { manual_configuration: manual };
    return undefined;
  };
}

/** One entry of `object_relationships` or `array_relationships`. */
export function relationship(type: 'object' | 'array', defaultSchema: string | null): Read<Relationship> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const name = required(o, 'name', path, is, readName);
    const u = required(o, 'using', path, is, using(type, defaultSchema));
    const comment = nullable(o, 'comment', path, is, readString);
    if (name === undefined || u === undefined) return undefined;
    return compact({ name, using: u, comment });
  };
}

function computedDefinition(defaultSchema: string | null): Read<ComputedField['definition']> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const fn: QualifiedTable | undefined = required(o, 'function', path, is, qualified(defaultSchema));
    const table_argument = nullable(o, 'table_argument', path, is, readName);
    const session_argument = nullable(o, 'session_argument', path, is, readName);
    if (fn === undefined) return undefined;
    return compact({ function: fn, table_argument, session_argument });
  };
}

/** One entry of `computed_fields`. */
export function computedField(defaultSchema: string | null): Read<ComputedField> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const name = required(o, 'name', path, is, readName);
    const definition = required(o, 'definition', path, is, computedDefinition(defaultSchema));
    const comment = nullable(o, 'comment', path, is, readString);
    if (name === undefined || definition === undefined) return undefined;
    return compact({ name, definition, comment });
  };
}

/**
 * Relationship names share one namespace per table (object and array alike), and computed fields
 * live beside them: a second use of a name is `already-exists` at its `name` key.
 */
export function checkFieldNames(o: Obj, path: Path, table: string, is: Issues): void {
  const seen = new Map<string, string>();
  for (const key of ['object_relationships', 'array_relationships', 'computed_fields'] as const) {
    const raw = Object.hasOwn(o, key) ? o[key] : undefined;
    const arr = Array.isArray(raw) ? raw : [];
    arr.forEach((el: unknown, i) => {
      const name = typeof el === 'object' && el !== null && !Array.isArray(el) ? (el as Obj)['name'] : undefined;
      if (typeof name !== 'string' || !Object.hasOwn(el as Obj, 'name')) return;
      const what = key === 'computed_fields' ? 'computed field' : 'relationship';
      if (seen.has(name)) {
        is.fail([...path, key, i, 'name'], `${what} with name ${JSON.stringify(name)} already exists on table ${JSON.stringify(table)}`, 'already-exists');
      } else seen.set(name, key);
    });
  }
}
