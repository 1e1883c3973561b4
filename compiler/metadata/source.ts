// One entry of `sources`: name, kind, configuration, customization, tables and functions.

import { readDatabaseUrl } from './database-url.js';
import { checkMssqlPools } from './mssql-pool.js';
import {
  checkUnique, compact, field, has, listOf, nullable, oneOf, optional, qualified, qualifiedKey,
  readGraphqlName, readJson, readName, readObject, readRawObject, readString, required, stringAt,
  type Issues, type Obj, type Path, type Read,
} from './reader.js';
import { readTables } from './table.js';
import type { ConnectionInfo, FunctionEntry, Source, SourceConfiguration } from './types.js';

type Kind = Source['kind'];

const KINDS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ['postgres', 'postgres'], ['pg', 'postgres'], ['citus', 'citus'], ['cockroach', 'cockroach'],
  ['mssql', 'mssql'], ['bigquery', 'bigquery'],
]);

/** The schema of a table or function written as a plain string; BigQuery needs a dataset. */
const DEFAULT_SCHEMA: { readonly [K in Kind]: string | null } = {
  postgres: 'public', citus: 'public', cockroach: 'public', mssql: 'dbo', bigquery: null,
};

const readKind: Read<Kind> = (v, path, is) => {
  const s = readString(v, path, is);
  if (s === undefined) return undefined;
  return KINDS.get(s) ?? is.fail(path, `backend kind ${JSON.stringify(s)} was not recognized as a valid backend name`);
};

/** Reads the modelled keys with their reader and keeps every other key as raw JSON. */
function withRaw<T>(readers: { readonly [key: string]: Read<unknown> }): Read<T> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    const entries: [string, unknown][] = [];
    for (const [k, x] of Object.entries(o)) {
      if (x === null && Object.hasOwn(readers, k)) continue;
      const read = Object.hasOwn(readers, k) ? readers[k] as Read<unknown> : readJson;
      const r = read(x, [...path, k], is);
      if (r !== undefined) entries.push([k, r]);
    }
    return Object.fromEntries(entries) as T;
  };
}

const connectionInfo = withRaw<ConnectionInfo>({
  database_url: readDatabaseUrl,
  connection_string: readDatabaseUrl,
  pool_settings: readRawObject,
});

/** One of `read_replicas`: a `connection_info` that must name its database. */
const replicaInfo: Read<ConnectionInfo> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  if (!has(o, 'database_url')) return is.fail(path, "the key 'database_url' was not present");
  return connectionInfo(o, path, is);
};

const sourceConfiguration = withRaw<SourceConfiguration>({ connection_info: connectionInfo, read_replicas: listOf(replicaInfo) });

function stringsOf<K extends string>(keys: readonly K[], read: Read<string>): Read<{ readonly [k in K]?: string }> {
  return (v, path, is) => {
    const o = readObject(v, path, is);
    if (o === undefined) return undefined;
    return compact(Object.fromEntries(keys.map((k) => [k, optional(o, k, path, is, read)])) as { [k in K]?: string });
  };
}

const rootFieldsCustomization: Read<NonNullable<NonNullable<Source['customization']>['root_fields']>> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  return compact({
    namespace: optional(o, 'namespace', path, is, readGraphqlName),
    prefix: optional(o, 'prefix', path, is, readString),
    suffix: optional(o, 'suffix', path, is, readString),
  });
};

const customization: Read<NonNullable<Source['customization']>> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  return compact({
    root_fields: optional(o, 'root_fields', path, is, rootFieldsCustomization),
    type_names: optional(o, 'type_names', path, is, stringsOf(['prefix', 'suffix'], readString)),
    naming_convention: optional(o, 'naming_convention', path, is, oneOf(['hasura-default', 'graphql-default'])),
  });
};

// A function's two root fields may not share a name (Hasura's FunctionCustomRootFields parser).
const functionRootFields: Read<{ readonly function?: string; readonly function_aggregate?: string }> = (v, path, is) => {
  const fields = stringsOf(['function', 'function_aggregate'], readGraphqlName)(v, path, is);
  if (fields?.function !== undefined && fields.function === fields.function_aggregate) {
    return is.fail(path, `the following custom root field names are duplicated: ${JSON.stringify(fields.function)} and ${JSON.stringify(fields.function_aggregate)}`);
  }
  return fields;
};

const functionConfiguration: Read<NonNullable<FunctionEntry['configuration']>> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  return compact({
    custom_name: optional(o, 'custom_name', path, is, readGraphqlName),
    custom_root_fields: optional(o, 'custom_root_fields', path, is, functionRootFields),
    session_argument: optional(o, 'session_argument', path, is, readName),
    exposed_as: optional(o, 'exposed_as', path, is, oneOf(['query', 'mutation'] as const)),
  });
};

const functionPermission: Read<{ readonly role: string }> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  const role = required(o, 'role', path, is, readName);
  return role === undefined ? undefined : { role };
};

/** A tracked function: `"name"`, `{schema, name}` (older metadata) or `{function, configuration, ...}`. */
function functionEntry(defaultSchema: string | null): Read<FunctionEntry> {
  return (v, path, is) => {
    if (field(v, 'function') === undefined) {
      const fn = qualified(defaultSchema)(v, path, is);
      return fn === undefined ? undefined : { function: fn };
    }
    const o = v as Obj;
    const fn = required(o, 'function', path, is, qualified(defaultSchema));
    const body = {
      configuration: optional(o, 'configuration', path, is, functionConfiguration),
      permissions: optional(o, 'permissions', path, is, listOf(functionPermission)),
      comment: nullable(o, 'comment', path, is, readString),
    };
    checkUnique(field(o, 'permissions'), [...path, 'permissions'], (el) => stringAt(el, 'role'), ['role'],
      (r) => `permission for role ${JSON.stringify(r)} already exists on function ${JSON.stringify(fn?.name ?? '')}`, is);
    return fn === undefined ? undefined : compact({ function: fn, ...body });
  };
}

function functionKey(el: unknown, defaultSchema: string | null): string | undefined {
  return qualifiedKey(field(el, 'function') ?? el, defaultSchema);
}

/** A source's `functions`; a function listed twice is `already-exists`. */
export function readFunctions(v: unknown, path: Path, source: string, defaultSchema: string | null, is: Issues): readonly FunctionEntry[] | undefined {
  const fns = listOf(functionEntry(defaultSchema))(v, path, is);
  checkUnique(v, path, (el) => functionKey(el, defaultSchema), [],
    (f) => `function ${JSON.stringify(f)} already exists in source ${JSON.stringify(source)}`, is);
  return fns;
}

/** One source of the version 3 metadata. */
export const readSource: Read<Source> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  const name = required(o, 'name', path, is, readName);
  // A source without `kind` (or with a null one) is a Postgres source, as Hasura v2 reads it
  // (Metadata.hs parseSourceMetadata: `o .:? "kind" .!= Postgres Vanilla`).
  const kind = has(o, 'kind') ? readKind(o['kind'], [...path, 'kind'], is) : 'postgres';
  const schema = kind === undefined ? 'public' : DEFAULT_SCHEMA[kind];
  const label = name ?? '';
  const body = {
    tables: optional(o, 'tables', path, is, (x, p, i) => readTables(x, p, label, schema, i)) ?? [],
    functions: optional(o, 'functions', path, is, (x, p, i) => readFunctions(x, p, label, schema, i)),
    configuration: optional(o, 'configuration', path, is, sourceConfiguration) ?? {},
    customization: optional(o, 'customization', path, is, customization),
    query_tags: optional(o, 'query_tags', path, is, readRawObject),
  };
  if (kind === 'mssql') checkMssqlPools(o['configuration'], [...path, 'configuration'], is);
  return name === undefined || kind === undefined ? undefined : compact({ name, kind, ...body });
};
