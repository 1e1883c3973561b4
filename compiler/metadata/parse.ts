// The metadata document in any shape Hasura v2 accepts, read into the canonical `Metadata`:
// - version 3, the export shape: `{version: 3, sources: [...], remote_schemas, ...}`;
// - the version 2 export wrapper `{resource_version, metadata: {...}}` (also replace_metadata's
//   `{allow_inconsistent_metadata, metadata}`);
// - versions 1 and 2 (`tables` and `functions` at the top, no `sources`; corpus:
//   v1/metadata/replace_metadata_wo_rs), read as one postgres source named `default`.

import type { ApiError } from '../../runtime/errors/index.js';
import {
  Issues, checkUnique, compact, has, listOf, optional, readNat, readObject, readRawObject,
  stringAt, type Obj, type Path, type Read,
} from './reader.js';
import { METADATA_LEGACY, METADATA_V3, METADATA_WRAPPER } from './shapes.js';
import { readFunctions, readSource } from './source.js';
import { checkKeys } from './strict-keys.js';
import { readTables } from './table.js';
import type { Json, Metadata, Source } from './types.js';

/** Sections kept as raw JSON: lists of objects, or one object. */
const RAW_LISTS = ['remote_schemas', 'query_collections', 'allowlist', 'actions', 'cron_triggers', 'rest_endpoints', 'inherited_roles'] as const;
const RAW_OBJECTS = ['custom_types', 'api_limits', 'graphql_schema_introspection', 'network', 'backend_configs', 'opentelemetry', 'metrics_config'] as const;

type RawSections = Omit<Metadata, 'version' | 'sources'>;

// The lists Hasura reads as maps keyed by a name (its parseListAsMap), with the words its error uses.
const DECLARATIONS: ReadonlyArray<readonly [typeof RAW_LISTS[number], string, string]> = [
  ['remote_schemas', 'name', 'remote schemas'], ['query_collections', 'name', 'query collections'],
  ['allowlist', 'collection', 'allowlist entries'], ['actions', 'name', 'actions'],
  ['cron_triggers', 'name', 'cron triggers'], ['inherited_roles', 'role_name', 'inherited roles'],
];

/**
 * A name declared twice in one of those lists: Hasura refuses the whole document while parsing it,
 * `parse-failed` at the metadata object, "multiple declarations exist for the following actions: a, b".
 */
function checkDeclarations(o: Obj, path: Path, is: Issues): void {
  for (const [key, nameKey, words] of DECLARATIONS) {
    const list = o[key];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const el of list) {
      const name = stringAt(el, nameKey);
      if (name === undefined) continue;
      if (seen.has(name)) twice.add(name);
      seen.add(name);
    }
    if (twice.size > 0) is.fail(path, `multiple declarations exist for the following ${words}: ${[...twice].join(', ')}`);
  }
}

function readRawSections(o: Obj, path: Path, is: Issues): RawSections {
  checkDeclarations(o, path, is);
  const out: Record<string, Json | readonly Json[] | undefined> = {};
  for (const key of RAW_LISTS) out[key] = optional(o, key, path, is, listOf(readRawObject));
  for (const key of RAW_OBJECTS) out[key] = optional(o, key, path, is, readRawObject);
  return out as RawSections;
}

function readV3(o: Obj, path: Path, is: Issues): Metadata {
  const sources = optional(o, 'sources', path, is, listOf(readSource)) ?? [];
  checkUnique(o['sources'], [...path, 'sources'], (el) => stringAt(el, 'name'), ['name'],
    (n) => `source with name ${JSON.stringify(n)} already exists`, is);
  return compact({ version: 3 as const, sources, ...readRawSections(o, path, is) });
}

/** Versions 1 and 2 knew one database: their tables and functions become the `default` source. */
function readLegacy(o: Obj, path: Path, is: Issues): Metadata {
  const tables = optional(o, 'tables', path, is, (x, p, i) => readTables(x, p, 'default', 'public', i)) ?? [];
  const functions = optional(o, 'functions', path, is, (x, p, i) => readFunctions(x, p, 'default', 'public', i));
  const source: Source = compact({ name: 'default', kind: 'postgres' as const, tables, functions, configuration: {} });
  return compact({ version: 3 as const, sources: [source], ...readRawSections(o, path, is) });
}

const readVersion: Read<1 | 2 | 3> = (v, path, is) => {
  const n = readNat(v, path, is);
  if (n === undefined) return undefined;
  if (n === 1 || n === 2 || n === 3) return n;
  return is.fail(path, `unsupported metadata version: ${n} (expected 1, 2 or 3)`);
};

/** The export wrapper: `metadata` with none of the keys a metadata object itself has. */
function isWrapper(o: Obj): boolean {
  return has(o, 'metadata') && !has(o, 'version') && !has(o, 'sources') && !has(o, 'tables');
}

function readDocument(doc: unknown, path: Path, is: Issues, unwrapped: boolean): Metadata | undefined {
  const o = readObject(doc, path, is);
  if (o === undefined) return undefined;
  if (!unwrapped && isWrapper(o)) {
    is.list.push(...checkKeys(o, METADATA_WRAPPER, path));
    optional(o, 'resource_version', path, is, readNat);
    return readDocument(o['metadata'], [...path, 'metadata'], is, true);
  }
  const version = optional(o, 'version', path, is, readVersion);
  // Without a version, Hasura reads version 1; a document with `sources` can only mean version 3.
  const v3 = version === 3 || (version === undefined && has(o, 'sources'));
  // Unknown keys first: a misspelt key is the likeliest reason for what the readers find missing.
  is.list.unshift(...checkKeys(o, v3 ? METADATA_V3 : METADATA_LEGACY, path));
  return v3 ? readV3(o, path, is) : readLegacy(o, path, is);
}

/**
 * Reads a metadata document of any accepted shape into the canonical form. Reports every problem
 * it finds (code `parse-failed`, or `already-exists` for duplicates) with the JSON path of the
 * offending key; `value` is null when there is any. Never throws.
 */
export function parseMetadata(doc: unknown): { value: Metadata | null; errors: ApiError[] } {
  const is = new Issues();
  let value: Metadata | undefined;
  try {
    value = readDocument(doc, [], is, false);
  } catch (e) {
    // A reader bug must not take the caller down; it is reported like any other problem.
    is.fail([], `metadata could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value: is.list.length === 0 && value !== undefined ? value : null, errors: is.list };
}
