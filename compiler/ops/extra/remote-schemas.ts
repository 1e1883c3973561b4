// Remote schema definitions and permissions (Hasura.RQL.DDL.RemoteSchema and
// RemoteSchema/Permission). No network here: the definition's shape is checked and stored;
// introspection and stitching happen when the document is compiled and served. Stored as
// `{name, definition, comment?, permissions?: [{role, definition: {schema}, comment?}], remote_relationships?}`.

import { parse } from 'graphql';
import { ApiError, ArgsReader, asGraphqlName, asNat, asString, type JsonObject, parseFailed } from '../../../runtime/errors/index.js';
import type { Json, Metadata } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { compact } from './compact.js';
import { changed, created, dropped, findBy, listOf, removeBy, upsert, withList } from './document.js';
import { readHeaders } from './headers.js';

const q = JSON.stringify;

function readNameMapping(r: ArgsReader): JsonObject | undefined {
  const m = r.optObject('mapping');
  if (m === undefined) return undefined;
  for (const k of Object.keys(m.value)) asGraphqlName(m.value[k], m.at(k));
  return m.value;
}

function readAffixes(r: ArgsReader): JsonObject {
  return compact({
    prefix: r.has('prefix') ? asGraphqlName(r.value['prefix'], r.at('prefix')) : undefined,
    suffix: r.has('suffix') ? asString(r.value['suffix'], r.at('suffix')) : undefined,
    mapping: readNameMapping(r),
  });
}

function readCustomization(r: ArgsReader): JsonObject {
  const typeNames = r.optObject('type_names');
  const fieldNames = r.optArray('field_names');
  return compact({
    root_fields_namespace: r.has('root_fields_namespace') ? asGraphqlName(r.value['root_fields_namespace'], r.at('root_fields_namespace')) : undefined,
    type_names: typeNames === undefined ? undefined : readAffixes(typeNames),
    field_names: fieldNames?.map((f, i) => {
      const fr = ArgsReader.object(f, [...r.at('field_names'), i]);
      const affixes = readAffixes(fr);
      // Hasura's validateRemoteSchemaCustomization: a reserved (`__`) field name is not renamed.
      const mapping = affixes['mapping'];
      const reserved = mapping && typeof mapping === 'object' && !Array.isArray(mapping) ? Object.keys(mapping).find((k) => k.startsWith('__')) : undefined;
      if (reserved !== undefined) throw new ApiError('invalid-params', `attempt to customize reserved field name ${q(reserved)}`, 400, ['args']);
      return { parent_type: asGraphqlName(fr.required('parent_type'), fr.at('parent_type')), ...affixes };
    }),
  });
}

/** RemoteSchemaDef: exactly one of `url` / `url_from_env`, headers, timeout, customization. */
export function readRemoteSchemaDef(r: ArgsReader): JsonObject {
  const url = r.optString('url');
  const urlFromEnv = r.optString('url_from_env');
  const headers = readHeaders(r);
  const forward = r.optBool('forward_client_headers');
  const timeout = r.has('timeout_seconds') ? asNat(r.value['timeout_seconds'], r.at('timeout_seconds')) : undefined;
  const customization = r.optObject('customization');
  if (url === undefined && urlFromEnv === undefined) {
    throw new ApiError('invalid-params', "both `url` and `url_from_env` can't be empty", 400, ['args', 'definition']);
  }
  if (url !== undefined && urlFromEnv !== undefined) {
    throw new ApiError('invalid-params', "both `url` and `url_from_env` can't be present", 400, ['args', 'definition']);
  }
  if (url !== undefined && !/^https?:\/\/\S+$/.test(url) && !/^\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/.test(url)) {
    throw parseFailed(r.at('url'), `not a valid URI: ${url}`);
  }
  return compact({
    url, url_from_env: urlFromEnv, headers, forward_client_headers: forward, timeout_seconds: timeout,
    customization: customization === undefined ? undefined : readCustomization(customization),
  });
}

function findRemote(md: Metadata, name: string): JsonObject | undefined {
  return findBy(listOf(md, 'remote_schemas'), 'name', name);
}

function permissionsOf(rs: JsonObject): JsonObject[] {
  const p = rs['permissions'];
  return Array.isArray(p) ? (p.filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as JsonObject[]) : [];
}

function withRemotes(md: Metadata, items: readonly Json[]): Metadata {
  return withList(md, 'remote_schemas', items);
}

export const addRemoteSchema: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('name');
  const definition = readRemoteSchemaDef(r.object('definition'));
  const comment = r.comment();
  if (findRemote(input.metadata, name) !== undefined) {
    throw new ApiError('already-exists', `remote schema with name ${q(name)} already exists`, 400, ['args']);
  }
  const md = withRemotes(input.metadata, [...listOf(input.metadata, 'remote_schemas'), compact({ name, definition, comment })]);
  return created(md, 'remote_schema', `remote_schema ${name}`);
};

/** Replaces the definition and comment; permissions and remote relationships stay. */
export const updateRemoteSchema: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('name');
  const definition = readRemoteSchemaDef(r.object('definition'));
  const comment = r.comment();
  const old = findRemote(input.metadata, name);
  if (old === undefined) throw new ApiError('not-exists', `remote schema with name ${q(name)} doesn't exist`, 400, ['args']);
  const next: Record<string, Json> = { ...old, definition };
  if (comment === undefined) delete next['comment'];
  else next['comment'] = comment;
  const md = withRemotes(input.metadata, upsert(listOf(input.metadata, 'remote_schemas'), 'name', name, next));
  return created(md, 'remote_schema', `remote_schema ${name}`);
};

export const removeRemoteSchema: OpHandler = (input) => {
  const name = ArgsReader.args(input).name('name');
  if (findRemote(input.metadata, name) === undefined) throw new ApiError('not-exists', 'no such remote schema', 400, ['args']);
  return dropped(withRemotes(input.metadata, removeBy(listOf(input.metadata, 'remote_schemas'), 'name', name)), false);
};

/** Refetching the schema is the runtime's; the document does not change. */
export const reloadRemoteSchema: OpHandler = (input) => {
  const name = ArgsReader.args(input).name('name');
  if (findRemote(input.metadata, name) === undefined) {
    throw new ApiError('not-exists', `remote schema with name ${q(name)} does not exist`, 400, ['args']);
  }
  return changed(null);
};

function readPermissionSchema(r: ArgsReader): string {
  const def = r.object('definition');
  const schema = def.string('schema');
  try {
    parse(schema, { noLocation: true });
  } catch {
    throw parseFailed(def.at('schema'), 'not a valid GraphQL schema document');
  }
  return schema;
}

export const addRemoteSchemaPermissions: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const remote = r.name('remote_schema');
  const role = r.name('role');
  const schema = readPermissionSchema(r);
  const comment = r.comment();
  const rs = findRemote(input.metadata, remote);
  if (rs === undefined) throw new ApiError('not-exists', `remote schema ${q(remote)} doesn't exist`, 400, ['args']);
  const perms = permissionsOf(rs);
  if (perms.some((p) => p['role'] === role)) {
    throw new ApiError('already-exists', `permissions for role: ${q(role)} for remote schema:${q(remote)} already exists`, 400, ['args']);
  }
  const next = { ...rs, permissions: [...perms, compact({ role, definition: { schema }, comment })] };
  const md = withRemotes(input.metadata, upsert(listOf(input.metadata, 'remote_schemas'), 'name', remote, next));
  return created(md, 'remote_schema_permission', `remote_schema_permission ${role} permission in remote schema ${remote}`);
};

export const dropRemoteSchemaPermissions: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const remote = r.name('remote_schema');
  const role = r.name('role');
  const rs = findRemote(input.metadata, remote);
  const perms = rs === undefined ? [] : permissionsOf(rs);
  if (rs === undefined || !perms.some((p) => p['role'] === role)) {
    throw new ApiError('not-exists', `permissions for role: ${q(role)} for remote schema:${q(remote)} does not exist`, 400, ['args']);
  }
  const rest = perms.filter((p) => p['role'] !== role);
  const next: JsonObject = rest.length > 0 ? { ...rs, permissions: rest } : Object.fromEntries(Object.entries(rs).filter(([k]) => k !== 'permissions'));
  const md = withRemotes(input.metadata, upsert(listOf(input.metadata, 'remote_schemas'), 'name', remote, next));
  return dropped(md, false);
};


// --- Relationships from a remote schema's types (create_remote_schema_remote_relationship) ---
// Stored as `remote_relationships: [{type_name, relationships: [{name, definition}]}]` on the
// remote schema. `to_source` joins an object type's fields to a table's columns; `to_remote_schema`
// calls another remote's field with arguments taken from the type's fields. That the type and
// fields exist in the remote, the columns in the table and the field in the other remote, is
// checked when the document is compiled and stitched (a relationship that does not fit is
// inconsistent, and the edit refused).

/** The name of such a relationship as an inconsistent object (`get_inconsistent_metadata`). */
export function remoteSchemaRelationshipName(remote: string, typeName: string, name: string): string {
  return `remote_schema_remote_relationship ${name} on type ${typeName} in remote schema ${remote}`;
}

type RelationshipGroup = { readonly type_name: string; readonly relationships: readonly JsonObject[] };

function relationshipGroups(rs: JsonObject): RelationshipGroup[] {
  const v = rs['remote_relationships'];
  return (Array.isArray(v) ? v : []).filter((g): g is JsonObject => g !== null && typeof g === 'object' && !Array.isArray(g) && typeof g['type_name'] === 'string')
    .map((g) => ({ type_name: g['type_name'] as string, relationships: (Array.isArray(g['relationships']) ? g['relationships'] : []) as JsonObject[] }));
}

function withGroups(md: Metadata, remote: string, rs: JsonObject, groups: readonly RelationshipGroup[]): Metadata {
  const kept = groups.filter((g) => g.relationships.length > 0);
  const next: JsonObject = kept.length > 0 ? { ...rs, remote_relationships: kept as unknown as Json[] }
    : Object.fromEntries(Object.entries(rs).filter(([k]) => k !== 'remote_relationships'));
  return withRemotes(md, upsert(listOf(md, 'remote_schemas'), 'name', remote, next));
}

// `{to_source: {source, table, relationship_type, field_mapping}}`, the target tracked in the
// document, or `{to_remote_schema: {remote_schema, lhs_fields, remote_field}}`, the remote there.
function readSchemaRelationshipDef(md: Metadata, r: ArgsReader): JsonObject {
  const def = r.object('definition');
  if (def.has('to_remote_schema')) {
    const to = def.object('to_remote_schema');
    const remote = to.name('remote_schema');
    const lhs = to.required('lhs_fields');
    if (!Array.isArray(lhs) || lhs.length === 0) throw parseFailed(to.at('lhs_fields'), 'lhs_fields must list at least one field of the type');
    lhs.forEach((f, i) => asString(f, [...to.at('lhs_fields'), i]));
    const field = to.object('remote_field');
    if (Object.keys(field.value).length !== 1) throw parseFailed(to.at('remote_field'), 'remote_field must name exactly one field of the remote schema');
    if (findRemote(md, remote) === undefined) {
      throw new ApiError('not-exists', `remote schema with name ${q(remote)} does not exist`, 400, to.at('remote_schema'));
    }
    return { to_remote_schema: { remote_schema: remote, lhs_fields: lhs, remote_field: field.value } };
  }
  const to = def.object('to_source');
  const source = to.name('source');
  const table = to.required('table');
  const t = typeof table === 'string' ? { schema: 'public', name: table }
    : table !== null && typeof table === 'object' && !Array.isArray(table) && typeof table['name'] === 'string'
      ? { schema: typeof table['schema'] === 'string' ? table['schema'] : 'public', name: table['name'] } : null;
  if (t === null) throw parseFailed(to.at('table'), 'expected a table name or {schema, name}');
  const type = to.string('relationship_type');
  if (type !== 'object' && type !== 'array') throw parseFailed(to.at('relationship_type'), 'relationship_type must be "object" or "array"');
  const mapping = to.object('field_mapping');
  if (Object.keys(mapping.value).length === 0) throw parseFailed(to.at('field_mapping'), 'field_mapping must map at least one field');
  for (const k of Object.keys(mapping.value)) asString(mapping.value[k], mapping.at(k));
  const s = md.sources.find((x) => x.name === source);
  if (!s) throw new ApiError('not-exists', `source with name ${q(source)} does not exist`, 400, to.at('source'));
  if (!s.tables.some((x) => x.table.schema === t.schema && x.table.name === t.name)) {
    throw new ApiError('not-exists', `table ${q(t.name)} does not exist in source: ${source}`, 400, to.at('table'));
  }
  return { to_source: { source, table: t, relationship_type: type, field_mapping: mapping.value } };
}

// The remote schema, type and relationship names a schema relationship edit names (the remote must exist).
function schemaRelationshipArgs(input: Parameters<OpHandler>[0]) {
  const r = ArgsReader.args(input);
  const remote = r.name('remote_schema');
  const typeName = r.name('type_name');
  const name = r.name('name');
  const rs = findRemote(input.metadata, remote);
  if (rs === undefined) throw new ApiError('not-exists', `remote schema with name ${q(remote)} does not exist`, 400, ['args', 'remote_schema']);
  return { r, remote, typeName, name, rs };
}

function schemaRelationshipEdit(input: Parameters<OpHandler>[0], kind: 'create' | 'update') {
  const { r, remote, typeName, name, rs } = schemaRelationshipArgs(input);
  const definition = readSchemaRelationshipDef(input.metadata, r);
  const groups = relationshipGroups(rs);
  const group = groups.find((g) => g.type_name === typeName);
  const exists = group?.relationships.some((x) => x['name'] === name) ?? false;
  if (kind === 'create' && exists) {
    throw new ApiError('already-exists', `remote relationship with name ${q(name)} on type ${q(typeName)} already exists in remote schema ${q(remote)}`, 400, ['args', 'name']);
  }
  if (kind === 'update' && !exists) {
    throw new ApiError('not-exists', `remote relationship with name ${q(name)} on type ${q(typeName)} does not exist in remote schema ${q(remote)}`, 400, ['args', 'name']);
  }
  const entry: JsonObject = { name, definition };
  const next = group
    ? groups.map((g) => (g === group ? { ...g, relationships: kind === 'create' ? [...g.relationships, entry] : g.relationships.map((x) => (x['name'] === name ? entry : x)) } : g))
    : [...groups, { type_name: typeName, relationships: [entry] }];
  return created(withGroups(input.metadata, remote, rs, next), 'remote_schema_remote_relationship', remoteSchemaRelationshipName(remote, typeName, name));
}

export const createRemoteSchemaRemoteRelationship: OpHandler = (input) => schemaRelationshipEdit(input, 'create');
export const updateRemoteSchemaRemoteRelationship: OpHandler = (input) => schemaRelationshipEdit(input, 'update');

export const deleteRemoteSchemaRemoteRelationship: OpHandler = (input) => {
  const { remote, typeName, name, rs } = schemaRelationshipArgs(input);
  const groups = relationshipGroups(rs);
  if (!groups.some((g) => g.type_name === typeName && g.relationships.some((x) => x['name'] === name))) {
    throw new ApiError('not-exists', `remote relationship with name ${q(name)} on type ${q(typeName)} does not exist in remote schema ${q(remote)}`, 400, ['args', 'name']);
  }
  const next = groups.map((g) => (g.type_name === typeName ? { ...g, relationships: g.relationships.filter((x) => x['name'] !== name) } : g));
  return dropped(withGroups(input.metadata, remote, rs, next), false);
};
