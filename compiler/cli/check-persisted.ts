// `kiln check`, part (a): every persisted query of manifest.json is on disk, unchanged, and still
// valid against the schema of each role it is stored for; and part (c): every file matches the
// hash manifest.json recorded for it.

import { buildSchema, parse, validate, type GraphQLSchema } from 'graphql';
import { keyOf } from '../../runtime/graphql/index.js';
import { DELTA_SUFFIX, readLinks } from '../../runtime/bundle/index.js';
import { sha256, type BundleDir, type PersistedEntry } from './bundle-dir.js';

/** What part (a) found: how many (query, role) pairs were checked and each problem. */
export interface PersistedReport {
  readonly listed: boolean;
  readonly checked: number;
  readonly problems: readonly string[];
}

/** Checks the manifest's `persisted` list against the files, engine.mjs and the schemas of the bundle. */
export function checkPersisted(b: BundleDir): PersistedReport {
  const list = b.manifest.persisted;
  const problems: string[] = [];
  const expected = new Set<string>();
  const schemas = new Map<string, GraphQLSchema | string>();
  let checked = 0;
  for (const entry of Array.isArray(list) ? list : []) {
    const label = `${entry.collection}/${entry.name}`;
    // compileStoredQuery keeps the roles whose schema validates the query: none left means invalid everywhere.
    if (!entry.roles?.length) { problems.push(`${label}: valid for no role`); continue; }
    for (const role of entry.roles) {
      const path = persistedPath(role, entry.collection, entry.name);
      expected.add(path);
      checked++;
      const problem = checkOne(b, entry, role, path, schemas);
      if (problem) problems.push(`${path}: ${problem}`);
    }
  }
  // A stored statement the manifest does not list was not compiled with this bundle.
  for (const path of b.files.keys()) if (path.startsWith('persisted/') && path.endsWith('.sql') && !expected.has(path)) problems.push(`${path}: not listed in manifest.json persisted`);
  return { listed: Array.isArray(list), checked, problems };
}

/** Where compiler/emit/persisted.ts writes a stored query for a role. */
export function persistedPath(role: string, collection: string, name: string): string {
  return `persisted/${role}/${segment(collection)}/${segment(name)}.sql`;
}

// The same path segment compiler/emit/persisted.ts makes of a name (plain, or made plain plus a hash).
function segment(name: string): string {
  if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name)) return name;
  return `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}~${sha256(name).slice(0, 8)}`;
}

function checkOne(b: BundleDir, entry: PersistedEntry, role: string, path: string, schemas: Map<string, GraphQLSchema | string>): string | null {
  if (!b.model.roles.includes(role)) return `role "${role}" is not in the bundle`;
  const text = b.files.get(path);
  if (text === undefined) return 'the file is missing';
  const stored = b.model.persisted?.queries.find((q) => q.collection === entry.collection && q.name === entry.name);
  if (!stored) return 'engine.mjs has no such stored query';
  if (!(role in stored.plans)) return `engine.mjs has no plan of it for role "${role}"`;
  let doc;
  try {
    doc = parse(stored.query);
  } catch (e) {
    return `the query does not parse: ${(e as Error).message}`;
  }
  // The allow-list key: the document's hash without formatting and __typename (runtime/graphql keyOf).
  if (entry.sha256 !== undefined && entry.sha256 !== null && entry.sha256 !== keyOf(doc).sha256) return 'sha256 does not match the query engine.mjs stores';
  const schema = schemaOf(b, role, schemas);
  if (typeof schema === 'string') return schema;
  const errors = validate(schema, doc);
  return errors.length ? `not valid for role "${role}": ${errors.map((e) => e.message).join('; ')}` : null;
}

function schemaOf(b: BundleDir, role: string, cache: Map<string, GraphQLSchema | string>): GraphQLSchema | string {
  if (!cache.has(role)) {
    const sdl = b.files.get(`schema/${role}.graphql`);
    let value: GraphQLSchema | string;
    if (sdl === undefined) value = `schema/${role}.graphql is missing`;
    else {
      try {
        value = buildSchema(sdl);
      } catch (e) {
        value = `schema/${role}.graphql does not build: ${(e as Error).message}`;
      }
    }
    cache.set(role, value);
  }
  return cache.get(role)!;
}

/** Part (c): files listed in manifest.json exist with the recorded sha256; no unlisted SQL file. */
export function checkHashes(b: BundleDir): { readonly checked: number; readonly problems: readonly string[] } {
  const listed = b.manifest.files ?? {};
  const problems: string[] = [];
  let checked = 0;
  for (const [path, hash] of Object.entries(listed)) {
    if (!/^(sql|persisted|schema|shared|remote)\//.test(path)) continue;
    checked++;
    const text = b.stored.get(path);
    if (text === undefined) problems.push(`${path}: listed in manifest.json but missing`);
    else if (sha256(text) !== hash) problems.push(`${path}${sharedBy(b, path)}: changed since it was compiled (sha256 differs from manifest.json)`);
  }
  for (const path of b.stored.keys()) {
    if (!(path in listed) && (path.endsWith('.sql') || path.endsWith(`.sql${DELTA_SUFFIX}`))) problems.push(`${path}: not listed in manifest.json`);
  }
  return { checked, problems };
}

// The role files a shared statement stands for (` (sql/a/f.sql, sql/b/f.sql)`), so a change names
// them; a statement other statements are stored as changes of also names those (their text changes too).
function sharedBy(b: BundleDir, path: string): string {
  const made = [...b.stored].filter(([p, text]) => p.endsWith(DELTA_SUFFIX) && text.startsWith(`{"base":${JSON.stringify(path)},`)).map(([p]) => p);
  const hash = /^shared\/(\w+)\.sql(?:\.delta\.json)?$/.exec(path)?.[1];
  if (!hash) return made.length ? ` (and ${made.sort().join(', ')}, stored as changes of it)` : '';
  const users: string[] = [];
  for (const [file, text] of b.stored) {
    const role = /^sql\/([^/]+)\/links\.json$/.exec(file)?.[1];
    if (role) for (const [f, h] of Object.entries(readLinks(text, (l) => b.stored.get(`shared/${l}.links.json`)))) if (h === hash) users.push(`sql/${role}/${f}`);
  }
  const also = made.length ? `; and ${made.sort().join(', ')}, stored as changes of it` : '';
  return users.length || also ? ` (${users.sort().join(', ')}${also})` : '';
}
