// Loads metadata from disk: one JSON (or YAML) file, or a directory in the layout the Hasura CLI
// writes (version.yaml, databases/databases.yaml with `!include`d table files, one file per
// other section). The assembled document then goes through parseMetadata.

import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ApiError, type JsonPath } from '../../runtime/errors/index.js';
import { parseMetadata } from './parse.js';
import { roleCycleError } from './role-cycles.js';
import { Issues, field } from './reader.js';
import type { Metadata } from './types.js';
import { YamlLoader, type FileOrigin } from './yaml-files.js';

/** Files of the directory layout that hold one top-level key each. */
const SECTION_FILES: readonly (readonly [string, string])[] = [
  ['remote_schemas.yaml', 'remote_schemas'], ['query_collections.yaml', 'query_collections'],
  ['allow_list.yaml', 'allowlist'], ['cron_triggers.yaml', 'cron_triggers'],
  ['rest_endpoints.yaml', 'rest_endpoints'], ['inherited_roles.yaml', 'inherited_roles'],
  ['api_limits.yaml', 'api_limits'], ['network.yaml', 'network'],
  ['graphql_schema_introspection.yaml', 'graphql_schema_introspection'],
  ['backend_configs.yaml', 'backend_configs'], ['opentelemetry.yaml', 'opentelemetry'],
  ['metrics_config.yaml', 'metrics_config'],
];

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function loadDirectory(dir: string, yaml: YamlLoader, is: Issues): Promise<Record<string, unknown> | undefined> {
  const versionFile = join(dir, 'version.yaml');
  const doc: Record<string, unknown> = {};
  if (await exists(versionFile)) {
    const v = await yaml.load(versionFile, []);
    if (v === undefined) return undefined;
    doc['version'] = field(v, 'version');
    yaml.origins.push({ path: ['version'], file: versionFile });
  } else if (await exists(join(dir, 'databases'))) {
    doc['version'] = 3;
  } else {
    return is.fail([], `${dir} is not a metadata directory: ${versionFile} not found`);
  }
  // Version 3 keeps the database objects per source; older layouts have them at the top.
  const parts: (readonly [string, string])[] = doc['version'] === 1 || doc['version'] === 2
    ? [['tables.yaml', 'tables'], ['functions.yaml', 'functions']]
    : [[join('databases', 'databases.yaml'), 'sources']];
  for (const [file, key] of [...parts, ...SECTION_FILES]) {
    const path = join(dir, file);
    if (!(await exists(path))) continue;
    const v = await yaml.load(path, [key]);
    if (v !== undefined && v !== null) doc[key] = v;
  }
  await loadActions(join(dir, 'actions.yaml'), doc, yaml, is);
  return doc;
}

/** actions.yaml holds two top-level keys, `actions` and `custom_types` (actions.graphql is not read). */
async function loadActions(file: string, doc: Record<string, unknown>, yaml: YamlLoader, is: Issues): Promise<void> {
  if (!(await exists(file))) return;
  const v = await yaml.load(file, []);
  if (v === undefined || v === null) return;
  if (typeof v !== 'object' || Array.isArray(v)) {
    is.fail([], `${file}: expected a mapping with the keys "actions" and "custom_types"`);
    return;
  }
  for (const key of ['actions', 'custom_types']) {
    const x = field(v, key);
    if (x === undefined || x === null) continue;
    doc[key] = x;
    yaml.origins.push({ path: [key], file });
  }
}

async function loadFile(file: string, yaml: YamlLoader, is: Issues): Promise<unknown> {
  const ext = extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return yaml.load(file, []);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return is.fail([], `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return is.fail([], `${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function isPrefix(prefix: JsonPath, path: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((k, i) => path[i] === k);
}

/** Names the file a problem came from, the most specific one that holds its path. */
function withFile(e: ApiError, origins: readonly FileOrigin[]): ApiError {
  let best: FileOrigin | undefined;
  for (const o of origins) if (isPrefix(o.path, e.path) && (best === undefined || o.path.length > best.path.length)) best = o;
  return best === undefined ? e : new ApiError(e.code, `${e.message} (in ${best.file})`, e.status, e.path, e.internal);
}

/** The assembled document of a metadata file or directory, before it is read into the canonical form. */
export interface MetadataDocument {
  /** undefined when nothing could be assembled (see errors). */
  readonly doc: unknown;
  /** Problems met while reading files (unreadable, bad YAML, `!include` cycles). */
  readonly errors: ApiError[];
  /** Every file the document was assembled from. */
  readonly files: readonly string[];
}

/** Reads a metadata file or directory (following `!include`) into one JSON-like value. Never throws. */
export async function readMetadataDocument(path: string): Promise<MetadataDocument> {
  const { doc, is, yaml } = await assemble(path);
  return { doc, errors: is.list, files: [...new Set(yaml.origins.map((o) => o.file))] };
}

async function assemble(path: string): Promise<{ doc: unknown; is: Issues; yaml: YamlLoader }> {
  const is = new Issues();
  const yaml = new YamlLoader(is);
  let doc: unknown;
  try {
    const isDir = (await stat(path)).isDirectory();
    doc = isDir ? await loadDirectory(path, yaml, is) : await loadFile(path, yaml, is);
  } catch (e) {
    is.fail([], `cannot read metadata at ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { doc, is, yaml };
}

/**
 * Loads the metadata at `path` (a JSON or YAML file, or a metadata directory) and reads it with
 * parseMetadata. A file that cannot be read or parsed is a `parse-failed` problem whose message
 * names the file and whose path is where its content belonged. Never throws.
 */
export async function loadMetadata(path: string): Promise<{ value: Metadata | null; errors: ApiError[] }> {
  const { doc, is, yaml } = await assemble(path);
  if (doc === undefined) return { value: null, errors: is.list };
  const parsed = parseMetadata(doc);
  // A part that could not be loaded was already reported; its empty place would only add noise.
  const rest = parsed.errors.filter((e) => !yaml.failed.some((f) => isPrefix(f, e.path)));
  const errors = [...is.list, ...rest.map((e) => withFile(e, yaml.origins))];
  // A document that reads well can still be one Hasura refuses to build: inherited roles in a cycle.
  const refused = errors.length === 0 && parsed.value ? roleCycleError(parsed.value.inherited_roles) : undefined;
  if (refused) return { value: null, errors: [refused] };
  return { value: errors.length === 0 ? parsed.value : null, errors };
}
