// The four permission lists of a table entry. Select permissions are modelled; insert, update and
// delete bodies are checked key by key and then kept as raw JSON. The keys Hasura's FromJSON
// instances read with `.:` are required, in the order it reads them (RQL/Types/Permission.hs:
// SelPerm columns, filter; InsPerm check; UpdPerm columns, filter; DelPerm filter): a body
// without its row filter or check is refused, never read as "every row".

import {
  checkUnique, compact, has, kindOf, listOf, nullable, oneOf, optional, readBool, readJson, readName, readNat,
  readObject, readRawObject, readString, required, stringAt, type Issues, type Obj, type Path, type Read,
} from './reader.js';
import type { Json, Permission, SelectPermission, TableEntry } from './types.js';

type Columns = readonly string[] | '*';

/** `"*"` or a list of column names. */
const readColumns: Read<Columns> = (v, path, is) => {
  if (v === '*') return '*';
  if (Array.isArray(v)) return listOf(readName)(v, path, is);
  return is.fail(path, `parsing PermColSpec failed, expected "*" or an array of column names, but encountered ${kindOf(v)}`);
};

const ROOT_FIELDS = ['select', 'select_by_pk', 'select_aggregate', 'select_stream'] as const;
const readRootFields = listOf(oneOf(ROOT_FIELDS));

const selectBody: Read<SelectPermission> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  const columns = required(o, 'columns', path, is, readColumns);
  const filter = required(o, 'filter', path, is, readRawObject);
  const rest = {
    computed_fields: optional(o, 'computed_fields', path, is, listOf(readName)),
    filter,
    limit: nullable(o, 'limit', path, is, readNat),
    allow_aggregations: optional(o, 'allow_aggregations', path, is, readBool),
    query_root_fields: nullable(o, 'query_root_fields', path, is, readRootFields),
    subscription_root_fields: nullable(o, 'subscription_root_fields', path, is, readRootFields),
  };
  return columns === undefined || filter === undefined ? undefined : compact({ columns, ...rest });
};

/** What each key of an insert/update/delete permission must hold. */
const RAW_KEYS: { readonly [key: string]: Read<unknown> } = {
  columns: readColumns,
  check: readRawObject,
  filter: readRawObject,
  set: readRawObject,
  backend_only: readBool,
  validate_input: readRawObject,
};

/** An insert, update or delete body: `mandatory` keys must be there, every key must hold its kind. */
function rawBody(keys: readonly string[], mandatory: readonly string[]): Read<Json> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    let ok = true;
    for (const key of keys) {
      const read = RAW_KEYS[key];
      if (read === undefined) continue;
      if (mandatory.includes(key) ? required(o, key, path, is, read) === undefined : has(o, key) && read(o[key], [...path, key], is) === undefined) ok = false;
    }
    const json = readJson(o, path, is);
    return ok ? json : undefined;
  };
}

function permission<P>(body: Read<P>): Read<Permission<P>> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const role = required(o, 'role', path, is, readName);
    const perm = required(o, 'permission', path, is, body);
    const comment = nullable(o, 'comment', path, is, readString);
    if (role === undefined || perm === undefined) return undefined;
    return compact({ role, permission: perm, comment });
  };
}

type PermissionLists = Pick<TableEntry, 'select_permissions' | 'insert_permissions' | 'update_permissions' | 'delete_permissions'>;

const KINDS = [
  ['select', selectBody],
  ['insert', rawBody(['check', 'set', 'columns', 'backend_only', 'validate_input'], ['check'])],
  ['update', rawBody(['columns', 'set', 'filter', 'check', 'backend_only', 'validate_input'], ['columns', 'filter'])],
  ['delete', rawBody(['filter', 'backend_only', 'validate_input'], ['filter'])],
] as const;

/** Reads the four permission lists of a table entry and reports a role defined twice in one list. */
export function readPermissionLists(o: Obj, path: Path, table: string, is: Issues): PermissionLists {
  const out: Record<string, unknown> = {};
  for (const [kind, body] of KINDS) {
    const key = `${kind}_permissions`;
    out[key] = optional(o, key, path, is, listOf(permission<unknown>(body as Read<unknown>)));
    checkUnique(o[key], [...path, key], (el) => stringAt(el, 'role'), ['role'],
      (role) => `${kind} permission already defined on table ${JSON.stringify(table)} with role ${JSON.stringify(role)}`, is);
  }
  return out as PermissionLists;
}
