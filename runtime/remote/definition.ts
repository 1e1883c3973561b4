// The remote schemas of a metadata document, as the runtime reads them: the stored JSON of
// `remote_schemas` (compiler/ops/extra/remote-schemas.ts checked its shape on write), with the
// values it needs to call the server. Environment values are read when a call is made.

import { createHash } from 'node:crypto';
import type { Json } from '../bundle/index.js';

/** One configured header: a literal value or the name of an environment variable. */
export interface RemoteHeader {
  readonly name: string;
  readonly value?: string;
  readonly valueFromEnv?: string;
}

/** `customization.type_names` or one entry of `field_names`. */
export interface NameAffixes {
  readonly prefix: string;
  readonly suffix: string;
  readonly mapping: { readonly [from: string]: string };
}

/** A remote schema's `customization`. */
export interface RemoteCustomization {
  readonly rootFieldsNamespace: string | null;
  readonly typeNames: NameAffixes | null;
  /** Per parent type (the remote's own name). */
  readonly fieldNames: { readonly [parentType: string]: NameAffixes };
}

/** A remote schema permission: the role's schema text. */
export interface RemotePermission {
  readonly role: string;
  readonly schema: string;
}

/**
 * A relationship from an object type of the remote schema (its own name), made with
 * `create_remote_schema_remote_relationship`: `to_source` pairs fields of the type with columns of a
 * table (`mapping`); `to_remote_schema` calls a field of another remote schema with arguments that
 * may name the type's fields (`$field`), which the type's `lhsFields` fetch.
 */
export type RemoteSchemaRelationship =
  | {
    readonly kind: 'source';
    readonly typeName: string;
    readonly name: string;
    readonly source: string;
    readonly table: { readonly schema: string; readonly name: string };
    readonly cardinality: 'object' | 'array';
    readonly mapping: readonly (readonly [field: string, column: string])[];
  }
  | {
    readonly kind: 'remote_schema';
    readonly typeName: string;
    readonly name: string;
    readonly remoteSchema: string;
    readonly lhsFields: readonly string[];
    /** The `remote_field` tree as stored. */
    readonly remoteField: Json;
  };

/** A remote schema definition as the runtime uses it. */
export interface RemoteDefinition {
  readonly name: string;
  readonly url: string | null;
  readonly urlFromEnv: string | null;
  readonly headers: readonly RemoteHeader[];
  readonly forwardClientHeaders: boolean;
  readonly timeoutSeconds: number;
  readonly customization: RemoteCustomization | null;
  readonly permissions: readonly RemotePermission[];
  /** Relationships from the remote's types to tables (`remote_relationships`). */
  readonly relationships: readonly RemoteSchemaRelationship[];
  /** A hash of what the introspection depends on (url, headers): a changed definition is introspected again. */
  readonly key: string;
}

/** An inconsistent remote schema (or remote schema permission), as get_inconsistent_metadata lists it. */
export interface RemoteInconsistency {
  readonly type: string;
  readonly name: string;
  readonly definition: Json;
  readonly reason: string;
}

/** Hasura's default `timeout_seconds`. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);

function affixes(v: Json | undefined): NameAffixes | null {
  if (!isObj(v)) return null;
  const mapping = isObj(v['mapping']) ? Object.fromEntries(Object.entries(v['mapping']).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  return { prefix: str(v['prefix']) ?? '', suffix: str(v['suffix']) ?? '', mapping };
}

function customization(v: Json | undefined): RemoteCustomization | null {
  if (!isObj(v)) return null;
  const fieldNames: Record<string, NameAffixes> = {};
  for (const f of Array.isArray(v['field_names']) ? v['field_names'] : []) {
    const parent = isObj(f) ? str(f['parent_type']) : null;
    const a = affixes(f);
    if (parent !== null && a) fieldNames[parent] = a;
  }
  return { rootFieldsNamespace: str(v['root_fields_namespace']), typeNames: affixes(v['type_names']), fieldNames };
}

/** The remote schemas of a document (entries that are not objects with a name are skipped). */
export function remoteDefinitions(metadata: Json): RemoteDefinition[] {
  const list = isObj(metadata) && Array.isArray(metadata['remote_schemas']) ? metadata['remote_schemas'] : [];
  const out: RemoteDefinition[] = [];
  for (const rs of list) {
    if (!isObj(rs) || typeof rs['name'] !== 'string' || !isObj(rs['definition'])) continue;
    const d = rs['definition'];
    const headers: RemoteHeader[] = (Array.isArray(d['headers']) ? d['headers'] : []).filter(isObj).flatMap((h) => {
      const name = str(h['name']);
      if (name === null) return [];
      const value = str(h['value']);
      const env = str(h['value_from_env']);
      return [{ name, ...(value !== null ? { value } : {}), ...(env !== null ? { valueFromEnv: env } : {}) }];
    });
    const permissions = (Array.isArray(rs['permissions']) ? rs['permissions'] : []).filter(isObj).flatMap((p) => {
      const role = str(p['role']);
      const schema = isObj(p['definition']) ? str(p['definition']['schema']) : null;
      return role !== null && schema !== null ? [{ role, schema }] : [];
    });
    const relationships = schemaRelationships(rs['remote_relationships']);
    const timeout = typeof d['timeout_seconds'] === 'number' ? d['timeout_seconds'] : DEFAULT_TIMEOUT_SECONDS;
    const def = {
      name: rs['name'], url: str(d['url']), urlFromEnv: str(d['url_from_env']), headers,
      forwardClientHeaders: d['forward_client_headers'] === true, timeoutSeconds: timeout,
      customization: customization(d['customization']), permissions, relationships,
    };
    const key = createHash('sha256').update(JSON.stringify([def.url, def.urlFromEnv, headers, timeout])).digest('hex');
    out.push({ ...def, key });
  }
  return out;
}

// `remote_relationships: [{type_name, relationships: [{name, definition: {to_source | to_remote_schema}}]}]`;
// entries of another shape (the metadata API checked them on write) are skipped.
function schemaRelationships(v: Json | undefined): RemoteSchemaRelationship[] {
  const out: RemoteSchemaRelationship[] = [];
  for (const group of Array.isArray(v) ? v : []) {
    const typeName = isObj(group) ? str(group['type_name']) : null;
    if (typeName === null || !isObj(group) || !Array.isArray(group['relationships'])) continue;
    for (const rel of group['relationships']) {
      const name = isObj(rel) ? str(rel['name']) : null;
      const def = isObj(rel) && isObj(rel['definition']) ? rel['definition'] : null;
      if (name === null || def === null) continue;
      const toRemote = def['to_remote_schema'];
      if (isObj(toRemote)) {
        const remoteSchema = str(toRemote['remote_schema']);
        const lhs = Array.isArray(toRemote['lhs_fields']) ? toRemote['lhs_fields'].flatMap((f) => (typeof f === 'string' ? [f] : [])) : [];
        if (remoteSchema === null || !isObj(toRemote['remote_field'])) continue;
        out.push({ kind: 'remote_schema', typeName, name, remoteSchema, lhsFields: lhs, remoteField: toRemote['remote_field'] });
        continue;
      }
      const to = def['to_source'];
      if (!isObj(to)) continue;
      const t = to['table'];
      const table = typeof t === 'string' ? { schema: 'public', name: t } : isObj(t) && typeof t['name'] === 'string'
        ? { schema: str(t['schema']) ?? 'public', name: t['name'] } : null;
      const mapping = isObj(to['field_mapping']) ? Object.entries(to['field_mapping']).flatMap(([f, c]) => (typeof c === 'string' ? [[f, c] as const] : [])) : [];
      if (table === null) continue;
      out.push({ kind: 'source', typeName, name, source: str(to['source']) ?? 'default', table, cardinality: to['relationship_type'] === 'array' ? 'array' : 'object', mapping });
    }
  }
  return out;
}
