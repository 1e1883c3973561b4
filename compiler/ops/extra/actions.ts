// Actions and their permissions (Hasura.RQL.DDL.Action, messages kept). Stored as
// `{name, definition, comment?, permissions?: [{role, comment?}]}`. Async action logs
// (`clear_data`) live in the catalog: the runtime clears them, not this edit.

import { ApiError, ArgsReader, asArray, asGraphqlName, asNat, asString, type JsonObject, type JsonPath, parseFailed } from '../../../runtime/errors/index.js';
import type { Json, Metadata } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { compact } from './compact.js';
import { changed, created, dropped, findBy, listOf, removeBy, upsert, withList } from './document.js';
import { baseTypeName } from './graphql-type.js';
import { readHeaders } from './headers.js';

const q = JSON.stringify;

function readTypeRef(v: unknown, path: JsonPath): string {
  const s = asString(v, path);
  if (baseTypeName(s) === undefined) throw parseFailed(path, `not a valid GraphQL type: ${s}`);
  return s;
}

function readArgument(v: unknown, path: JsonPath): JsonObject {
  const r = ArgsReader.object(v, path);
  return compact({
    name: asGraphqlName(r.required('name'), r.at('name')),
    type: readTypeRef(r.required('type'), r.at('type')),
    description: r.optString('description'),
  });
}

/** ActionDefinition, in the order Hasura reads its keys. */
export function readActionDefinition(r: ArgsReader): JsonObject {
  const args = r.has('arguments') ? asArray(r.value['arguments'], r.at('arguments')).map((a, i) => readArgument(a, [...r.at('arguments'), i])) : undefined;
  const outputType = readTypeRef(r.required('output_type'), r.at('output_type'));
  const headers = readHeaders(r);
  const forward = r.optBool('forward_client_headers');
  const handler = r.string('handler');
  const timeout = r.has('timeout') ? asNat(r.value['timeout'], r.at('timeout')) : undefined;
  const type = r.optString('type') ?? 'mutation';
  if (type !== 'mutation' && type !== 'query') r.fail(`expected mutation or query, but found ${type}`);
  let kind: string | undefined;
  if (type === 'mutation') {
    kind = r.optString('kind') ?? 'synchronous';
    if (kind !== 'synchronous' && kind !== 'asynchronous') {
      throw parseFailed(r.at('kind'), `expected one of "synchronous", "asynchronous", but found ${q(kind)}`);
    }
  }
  return compact({
    arguments: args, output_type: outputType, headers, forward_client_headers: forward, handler, timeout, type, kind,
    request_transform: r.raw('request_transform'), response_transform: r.raw('response_transform'),
  });
}

function findAction(md: Metadata, name: string): JsonObject | undefined {
  return findBy(listOf(md, 'actions'), 'name', name);
}

function requireAction(md: Metadata, name: string): JsonObject {
  const a = findAction(md, name);
  if (a === undefined) throw new ApiError('not-exists', `action with name ${q(name)} does not exist`, 400, ['args']);
  return a;
}

function permissionsOf(a: JsonObject): JsonObject[] {
  const p = a['permissions'];
  return Array.isArray(p) ? (p.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as JsonObject[]) : [];
}

function withActions(md: Metadata, items: readonly Json[]): Metadata {
  return withList(md, 'actions', items);
}

export const createAction: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = asGraphqlName(r.required('name'), r.at('name'));
  const definition = readActionDefinition(r.object('definition'));
  const comment = r.comment();
  if (findAction(input.metadata, name) !== undefined) {
    throw new ApiError('already-exists', `action with name ${q(name)} already exists`, 400, ['args']);
  }
  const md = withActions(input.metadata, [...listOf(input.metadata, 'actions'), compact({ name, definition, comment })]);
  return created(md, 'action', `action ${name}`);
};

/** Replaces the definition and comment; the permissions stay. */
export const updateAction: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = asGraphqlName(r.required('name'), r.at('name'));
  const definition = readActionDefinition(r.object('definition'));
  const comment = r.comment();
  const old = requireAction(input.metadata, name);
  const perms = permissionsOf(old);
  const next = compact({ name, definition, comment, permissions: perms.length > 0 ? perms : undefined });
  const md = withActions(input.metadata, upsert(listOf(input.metadata, 'actions'), 'name', name, next));
  return created(md, 'action', `action ${name}`);
};

export const dropAction: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = asGraphqlName(r.required('name'), r.at('name'));
  r.bool('clear_data', true);
  requireAction(input.metadata, name);
  return dropped(withActions(input.metadata, removeBy(listOf(input.metadata, 'actions'), 'name', name)), true);
};

export const createActionPermission: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const action = asGraphqlName(r.required('action'), r.at('action'));
  const role = r.name('role');
  const comment = r.comment();
  const a = requireAction(input.metadata, action);
  const perms = permissionsOf(a);
  if (perms.some((p) => p['role'] === role)) {
    throw new ApiError('already-exists', `permission for role ${q(role)} is already defined on ${q(action)}`, 400, ['args']);
  }
  const next = { ...a, permissions: [...perms, compact({ role, comment })] };
  const md = withActions(input.metadata, upsert(listOf(input.metadata, 'actions'), 'name', action, next));
  return created(md, 'action_permission', `action_permission ${role} permission in ${action}`);
};

export const dropActionPermission: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const action = asGraphqlName(r.required('action'), r.at('action'));
  const role = r.name('role');
  const a = requireAction(input.metadata, action);
  const perms = permissionsOf(a);
  if (!perms.some((p) => p['role'] === role)) {
    throw new ApiError('not-exists', `permission for role: ${q(role)} is not defined on ${q(action)}`, 400, ['args']);
  }
  const rest = perms.filter((p) => p['role'] !== role);
  const next: JsonObject = rest.length > 0 ? { ...a, permissions: rest } : Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'permissions'));
  const md = withActions(input.metadata, upsert(listOf(input.metadata, 'actions'), 'name', action, next));
  return changed(md);
};
