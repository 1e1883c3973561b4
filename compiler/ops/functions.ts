// SQL functions: track (v1 `{schema, name}` and v2 `{function, configuration}`), untrack,
// customization, and the function permissions.

import { ApiError } from '../../runtime/errors/index.js';
import type { FunctionEntry, QualifiedFunction } from '../metadata/index.js';
import { functionObjectName, withInheritedRoles } from '../model/index.js';
import { argsObject, has, nameAt, readFunctionPart, readQualified, sourceOf, type Obj } from './args.js';
import { findFunction, findTable, quoted, replaceFunctions, requireSource, sameName } from './document.js';
import type { OpHandler, OpInput } from './types.js';

/** The function an operation names: `{function: ...}`, or the args themselves (`{schema, name}`, /v1/query v1). */
function functionOf(o: Obj): QualifiedFunction {
  return has(o, 'function') ? readQualified(o['function']!, ['args', 'function']) : readQualified(o, ['args']);
}

function requireFunction(input: OpInput, o: Obj): { fn: QualifiedFunction; source: string; entry: FunctionEntry } {
  const fn = functionOf(o);
  const source = sourceOf(input, o);
  const entry = findFunction(requireSource(input.metadata, source), fn);
  if (!entry) throw new ApiError('not-exists', `function ${quoted(fn)} not found in the cache`, 400, ['args']);
  return { fn, source, entry };
}

export const trackFunction: OpHandler = (input) => {
  const args = typeof input.args === 'string' ? { name: input.args } : input.args;
  const o = argsObject(args);
  const fn = functionOf(o);
  const sourceName = sourceOf(input, o);
  const source = requireSource(input.metadata, sourceName);
  if (findFunction(source, fn)) throw new ApiError('already-tracked', `function already tracked : ${quoted(fn)}`, 400, ['args']);
  if (findTable(source, fn)) throw new ApiError('not-supported', `table with name ${quoted(fn)} already exists`, 400, ['args']);
  const db = input.introspection[sourceName];
  if (db && !db.functions.some((f) => f.schema === fn.schema && f.name === fn.name)) {
    throw new ApiError('not-exists', `no such function exists in postgres : ${quoted(fn)}`, 400, ['args']);
  }
  const raw: Obj = {
    function: { schema: fn.schema, name: fn.name },
    ...(has(o, 'configuration') && o['configuration'] !== null ? { configuration: o['configuration']! } : {}),
    ...(has(o, 'comment') ? { comment: o['comment']! } : {}),
  };
  const entry = readFunctionPart(raw, ['args']);
  const next = replaceFunctions(input.metadata, sourceName, (fs) => [...fs, entry]);
  return { metadata: next, effect: { kind: 'create', object: { type: 'function', name: functionObjectName(sourceName, fn) } } };
};

export const untrackFunction: OpHandler = (input) => {
  const { fn, source } = requireFunction(input, argsObject(input.args));
  const next = replaceFunctions(input.metadata, source, (fs) => fs.filter((f) => !sameName(f.function, fn)));
  return { metadata: next, effect: { kind: 'drop', cascade: false } };
};

export const setFunctionCustomization: OpHandler = (input) => {
  const o = argsObject(input.args);
  const { fn, source, entry } = requireFunction(input, o);
  const raw: Obj = { function: { schema: fn.schema, name: fn.name }, ...(has(o, 'configuration') && o['configuration'] !== null ? { configuration: o['configuration']! } : {}) };
  const read = readFunctionPart(raw, ['args']);
  const updated: FunctionEntry = { ...entry, configuration: read.configuration };
  if (!updated.configuration) delete (updated as { configuration?: unknown }).configuration;
  const next = replaceFunctions(input.metadata, source, (fs) => fs.map((f) => (sameName(f.function, fn) ? updated : f)));
  return { metadata: next, effect: { kind: 'create', object: { type: 'function', name: functionObjectName(source, fn) } } };
};

export const createFunctionPermission: OpHandler = (input) => {
  const o = argsObject(input.args);
  const role = nameAt(o, 'role');
  const { fn, source, entry } = requireFunction(input, o);
  if ((entry.permissions ?? []).some((p) => p.role === role)) {
    throw new ApiError('already-exists', `permission of role ${JSON.stringify(role)} already exists for function ${quoted(fn)} in source: ${JSON.stringify(source)}`, 400, ['args']);
  }
  requireReturnTablePermission(input, source, fn, role);
  const updated: FunctionEntry = { ...entry, permissions: [...(entry.permissions ?? []), { role }] };
  const next = replaceFunctions(input.metadata, source, (fs) => fs.map((f) => (sameName(f.function, fn) ? updated : f)));
  return { metadata: next, effect: { kind: 'create', object: { type: 'function', name: functionObjectName(source, fn) } } };
};

export const dropFunctionPermission: OpHandler = (input) => {
  const o = argsObject(input.args);
  const role = nameAt(o, 'role');
  const { fn, source, entry } = requireFunction(input, o);
  if (!(entry.permissions ?? []).some((p) => p.role === role)) {
    throw new ApiError('not-exists', `permission of role ${JSON.stringify(role)} does not exist for function ${quoted(fn)} in source: ${JSON.stringify(source)}`, 400, ['args']);
  }
  const permissions = (entry.permissions ?? []).filter((p) => p.role !== role);
  const { permissions: _old, ...rest } = entry;
  const updated: FunctionEntry = permissions.length > 0 ? { ...rest, permissions } : rest;
  const next = replaceFunctions(input.metadata, source, (fs) => fs.map((f) => (sameName(f.function, fn) ? updated : f)));
  return { metadata: next, effect: { kind: 'drop', cascade: false } };
};

// A function permission needs the role to hold permissions on the table the function returns
// (Hasura's runCreateFunctionPermission: the role in the table's permission map, worded as a
// select permission); its rows are read through that table's select permission.
function requireReturnTablePermission(input: OpInput, source: string, fn: QualifiedFunction, role: string): void {
  const found = input.introspection[source]?.functions.find((f) => f.schema === fn.schema && f.name === fn.name);
  if (!found) return;
  const returns = { schema: found.returnTypeSchema, name: found.returnType };
  const table = findTable(requireSource(input.metadata, source), returns);
  if (!table) throw new ApiError('not-exists', `function's return table ${quoted(returns)} not found in the cache`, 400, ['args']);
  // The table's permission map has the inherited roles whose parents have permissions on it.
  const kinds = [table.select_permissions, table.insert_permissions, table.update_permissions, table.delete_permissions];
  const direct = kinds.flatMap((ps) => (ps ?? []).map((p) => p.role));
  if (withInheritedRoles(direct, input.metadata.inherited_roles).includes(role)) return;
  throw new ApiError('not-supported',
    `function permission can only be added when the function's return table ${quoted(returns)} has select permission configured for role: ${JSON.stringify(role)}`, 400, ['args']);
}
