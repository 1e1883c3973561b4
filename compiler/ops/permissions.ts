// Select, insert, update and delete permissions: create, drop, comment. Insert, update and delete
// permissions are stored (and what they name is checked by the model) though not served yet.

import { ApiError } from '../../runtime/errors/index.js';
import type { Json, Permission, TableEntry } from '../metadata/index.js';
import { permissionObjectName, type PermissionKind } from '../model/index.js';
import { argsObject, commentAt, has, nameAt, readTablePart, sourceOf, tableAt, type Obj } from './args.js';
import { quoted, replaceTable, requireTable } from './document.js';
import type { OpHandler } from './types.js';

type ListKey = 'select_permissions' | 'insert_permissions' | 'update_permissions' | 'delete_permissions';

function listKey(kind: PermissionKind): ListKey {
  return `${kind}_permissions`;
}

function permissionsOf(entry: TableEntry, kind: PermissionKind): readonly Permission<unknown>[] {
  return (entry[listKey(kind)] ?? []) as readonly Permission<unknown>[];
}

const CONNECTIVES: { readonly [k: string]: string } = { $and: '_and', $or: '_or', $not: '_not', $exists: '_exists' };

/**
 * `/v1/query` spells the connectives `$and`, `$or`, `$not`; the document stores them as `_and`...
 * (what a column is compared with is kept as written: the model reads `$eq` too).
 */
export function normalizeConnectives(exp: Json): Json {
  if (Array.isArray(exp)) return exp.map(normalizeConnectives);
  if (exp === null || typeof exp !== 'object') return exp;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(exp)) {
    const key = CONNECTIVES[k] ?? k;
    if (key === '_and' || key === '_or' || key === '_not') out[key] = normalizeConnectives(v);
    else if (key === '_exists' && v && typeof v === 'object' && !Array.isArray(v)) {
      out[key] = { ...v, ...(has(v, '_where') ? { _where: normalizeConnectives(v['_where']!) } : {}) };
    } else out[key] = v;
  }
  return out;
}

function normalizeBody(body: Json): Json {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: { [k: string]: Json } = { ...body };
  for (const key of ['filter', 'check']) if (has(body, key)) out[key] = normalizeConnectives(body[key]!);
  return out;
}

function alreadyDefined(kind: PermissionKind, table: string, role: string): ApiError {
  return new ApiError('already-exists', `${kind} permission already defined on table ${table} with role ${JSON.stringify(role)}`, 400, ['args']);
}

function notDefined(kind: PermissionKind, table: string, role: string): ApiError {
  return new ApiError('permission-denied', `${kind} permission on ${table} for role ${JSON.stringify(role)} does not exist`, 400, ['args']);
}

function createPermission(kind: PermissionKind): OpHandler {
  return (input) => {
    const o = argsObject(input.args);
    const table = tableAt(o, 'table');
    const role = nameAt(o, 'role');
    const sourceName = sourceOf(input, o);
    if (!has(o, 'permission')) throw new ApiError('parse-failed', "the key 'permission' was not present", 400, ['args']);
    const raw: Obj = {
      role, permission: input.api === 'query' ? normalizeBody(o['permission']!) : o['permission']!,
      ...(has(o, 'comment') ? { comment: o['comment']! } : {}),
    };
    const key = listKey(kind);
    const perm = (readTablePart(table, key, raw, ['args'])[key] as readonly Permission<unknown>[])[0]!;
    const entry = requireTable(input.metadata, sourceName, table);
    if (role === 'admin' || permissionsOf(entry, kind).some((p) => p.role === role)) throw alreadyDefined(kind, quoted(table), role);
    const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, [key]: [...permissionsOf(t, kind), perm] }));
    return { metadata: next, effect: { kind: 'create', object: { type: `${kind}_permission`, name: permissionObjectName(kind, role, sourceName, table) } } };
  };
}

function dropPermission(kind: PermissionKind): OpHandler {
  return (input) => {
    const o = argsObject(input.args);
    const table = tableAt(o, 'table');
    const role = nameAt(o, 'role');
    const sourceName = sourceOf(input, o);
    const entry = requireTable(input.metadata, sourceName, table);
    if (!permissionsOf(entry, kind).some((p) => p.role === role)) throw notDefined(kind, quoted(table), role);
    const key = listKey(kind);
    const next = replaceTable(input.metadata, sourceName, table, (t) => ({ ...t, [key]: permissionsOf(t, kind).filter((p) => p.role !== role) }));
    return { metadata: next, effect: { kind: 'drop', cascade: false } };
  };
}

const KINDS: readonly PermissionKind[] = ['select', 'insert', 'update', 'delete'];

export const setPermissionComment: OpHandler = (input) => {
  const o = argsObject(input.args);
  const table = tableAt(o, 'table');
  const role = nameAt(o, 'role');
  const type = nameAt(o, 'type');
  const kind = KINDS.find((k) => k === type);
  if (!kind) throw new ApiError('parse-failed', `expected one of select, insert, update, delete, but found ${JSON.stringify(type)}`, 400, ['args', 'type']);
  const sourceName = sourceOf(input, o);
  const entry = requireTable(input.metadata, sourceName, table);
  if (!permissionsOf(entry, kind).some((p) => p.role === role)) throw notDefined(kind, quoted(table), role);
  const comment = commentAt(o, 'comment');
  const key = listKey(kind);
  const next = replaceTable(input.metadata, sourceName, table, (t) => ({
    ...t, [key]: permissionsOf(t, kind).map((p) => (p.role === role ? { ...p, comment } : p)),
  }));
  return { metadata: next, effect: { kind: 'other' } };
};

export const createPermissions = Object.fromEntries(KINDS.map((k) => [k, createPermission(k)])) as Record<PermissionKind, OpHandler>;
export const dropPermissions = Object.fromEntries(KINDS.map((k) => [k, dropPermission(k)])) as Record<PermissionKind, OpHandler>;
