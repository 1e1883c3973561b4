// Writes a metadata document as Kiln's metadata directory (the version 3 layout Kiln reads:
// version.yaml, databases/databases.yaml with one `!include`d file per table and function, one
// file per other section, actions.yaml). A version 1 or 2 document (tables at the top) becomes
// the single source `default`, as Hasura's own upgrade to version 3 does.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';

/** The section files of the directory layout and the top-level key each holds. */
const SECTION_FILES: readonly (readonly [string, string])[] = [
  ['remote_schemas', 'remote_schemas.yaml'], ['query_collections', 'query_collections.yaml'],
  ['allowlist', 'allow_list.yaml'], ['cron_triggers', 'cron_triggers.yaml'],
  ['rest_endpoints', 'rest_endpoints.yaml'], ['inherited_roles', 'inherited_roles.yaml'],
  ['api_limits', 'api_limits.yaml'], ['network', 'network.yaml'],
  ['graphql_schema_introspection', 'graphql_schema_introspection.yaml'],
  ['backend_configs', 'backend_configs.yaml'], ['opentelemetry', 'opentelemetry.yaml'],
  ['metrics_config', 'metrics_config.yaml'],
];

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The sources of a document: its own (version 3), or `default` holding the top-level tables. */
export function sourcesOf(doc: Obj, defaultDatabaseEnv: string): Obj[] {
  if (Array.isArray(doc['sources'])) return doc['sources'].filter(isObj);
  const source: Obj = {
    name: 'default', kind: 'postgres', tables: doc['tables'] ?? [],
    configuration: { connection_info: { database_url: { from_env: defaultDatabaseEnv }, use_prepared_statements: false } },
  };
  if (doc['functions'] !== undefined) source['functions'] = doc['functions'];
  return [source];
}

// `{schema, name}` or a bare name (public); the file name Hasura's CLI gives it.
function fileNameOf(entry: Obj, key: 'table' | 'function', fallback: string): string {
  const q = entry[key];
  const schema = isObj(q) && typeof q['schema'] === 'string' ? q['schema'] : 'public';
  const name = isObj(q) ? q['name'] : q;
  const base = `${schema}_${typeof name === 'string' ? name : fallback}`.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${base}.yaml`;
}

async function put(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, stringify(value, { lineWidth: 0 }));
}

// One file per entry plus a list of `!include`s; returns the include of the list itself.
async function writeEntries(dir: string, list: readonly unknown[], key: 'table' | 'function'): Promise<string> {
  const used = new Set<string>();
  const includes: string[] = [];
  for (const [i, entry] of list.entries()) {
    let file = isObj(entry) ? fileNameOf(entry, key, String(i)) : `${key}_${i}.yaml`;
    // Two names that clean up to the same file name keep apart.
    while (used.has(file)) file = file.replace(/\.yaml$/, `_${i}.yaml`);
    used.add(file);
    await put(join(dir, file), entry);
    includes.push(`!include ${file}`);
  }
  await put(join(dir, `${key}s.yaml`), includes);
  return `!include ${join(dir.split('/').slice(-2).join('/'), `${key}s.yaml`)}`;
}

/** Writes `doc` (already renamed) as Kiln's metadata directory at `out`. */
export async function writeMetadataDirectory(out: string, doc: Obj, defaultDatabaseEnv: string): Promise<void> {
  await put(join(out, 'version.yaml'), { version: 3 });
  const sources: Obj[] = [];
  const dirs = new Set<string>();
  for (const [i, s] of sourcesOf(doc, defaultDatabaseEnv).entries()) {
    // A source name is the user's text: as a folder name it keeps to safe characters (no `/`, no `..`).
    let folder = (typeof s['name'] === 'string' ? s['name'] : 'default').replace(/[^A-Za-z0-9_-]/g, '_');
    if (dirs.has(folder)) folder = `${folder}_${i}`;
    dirs.add(folder);
    const dir = join(out, 'databases', folder);
    const copy: Obj = { ...s };
    copy['tables'] = await writeEntries(join(dir, 'tables'), Array.isArray(s['tables']) ? s['tables'] : [], 'table');
    if (Array.isArray(s['functions']) && s['functions'].length > 0) copy['functions'] = await writeEntries(join(dir, 'functions'), s['functions'], 'function');
    else delete copy['functions'];
    sources.push(copy);
  }
  await put(join(out, 'databases', 'databases.yaml'), sources);
  for (const [key, file] of SECTION_FILES) if (doc[key] !== undefined && doc[key] !== null) await put(join(out, file), doc[key]);
  const actions: Obj = {};
  for (const key of ['actions', 'custom_types']) if (doc[key] !== undefined && doc[key] !== null) actions[key] = doc[key];
  if (Object.keys(actions).length > 0) await put(join(out, 'actions.yaml'), actions);
}
