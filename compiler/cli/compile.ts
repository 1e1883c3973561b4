import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildBundle, writeBundle, type Bundle } from '../emit/index.js';
import type { Introspection } from '../introspect/index.js';
import { databaseUrl, type Metadata } from '../metadata/index.js';
import { CliError, introspectUrl, readIntrospection, readMetadata, redact } from './project.js';
import { readRemotes, remoteInconsistencies } from './remote-schemas.js';
import { KILN_VERSION } from './version.js';

export interface CompileOptions {
  readonly metadata: string;
  readonly databaseUrl?: string;
  readonly introspection?: string;
  readonly out: string;
  readonly stringifyNumericTypes?: boolean;
  /** `true` or `false` (checked by checkCompileInput); absent: true. */
  readonly inferFunctionPermissions?: string;
  readonly allowInconsistent?: boolean;
  /** Read the remote schemas from this folder (a bundle, or `<name>.graphql` files) instead of introspecting them. */
  readonly remoteSnapshot?: string;
  readonly quiet?: boolean;
}

/** `kiln compile`: metadata + catalog -> bundle directory. */
export async function compileCommand(o: CompileOptions): Promise<void> {
  const started = Date.now();
  const log = o.quiet ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
  if (!o.databaseUrl && !o.introspection) throw new CliError('compile needs --database-url URL or --introspection FILE (see kiln compile --help)', 2);
  log(`reading metadata from ${o.metadata}`);
  const metadata = await readMetadata(o.metadata);
  const introspection = await catalogs(metadata, o, log);
  const remotes = await readRemotes(metadata, o.remoteSnapshot, log);
  if (remotes.failed.length && !o.allowInconsistent) {
    const lines = remotes.failed.map((f) => `  remote schema "${f.name}" (${f.where}): ${f.reason}`).join('\n');
    throw new CliError(`cannot read ${remotes.failed.length} remote schema(s); the bundle stores each remote's schema as compiled:\n${lines}\n`
      + '(start the remote server, or pass --remote-snapshot DIR (a bundle, or a folder of <name>.graphql files) to compile without network, '
      + 'or --allow-inconsistent to compile without them)', 1);
  }
  const bundle = await buildBundle({ metadata, introspection, remoteSdl: remotes.sdl, engineVersion: KILN_VERSION, stringifyNumeric: o.stringifyNumericTypes ?? false,
    ...(o.inferFunctionPermissions?.trim().toLowerCase() === 'false' ? { inferFunctionPermissions: false } : {}), progress: log });
  const inconsistencies = [...bundle.inconsistencies, ...remoteInconsistencies(metadata, remotes, bundle.sdl['admin'] ?? '', bundle.model)];
  if (inconsistencies.length && !o.allowInconsistent) {
    const lines = inconsistencies.map((i) => `  ${i.name}: ${i.reason}`).join('\n');
    throw new CliError(`the metadata does not fit the database (${inconsistencies.length} inconsistent object(s)):\n${lines}\n(fix the metadata or the database, or pass --allow-inconsistent to compile without them)`, 1);
  }
  await writeBundle(o.out, bundle);
  const s = bundle.summary;
  const nRemote = Object.keys(remotes.sdl).length;
  log(`compiled ${s.tables} table(s), ${s.roles} role(s), ${s.rootFields} root field(s)${nRemote ? `, ${nRemote} remote schema(s)` : ''} into ${o.out} in ${Date.now() - started} ms`);
  for (const line of roleSummary(bundle)) log(line);
}

/** Per role: tables it may read (and write), root fields of its schema, persisted queries compiled for it. */
export function roleSummary(bundle: Bundle): string[] {
  const m = bundle.model;
  // One pass over the files (a large bundle has hundreds of thousands): counts per role.
  const roots = new Map<string, number>();
  const stored = new Map<string, number>();
  for (const f of bundle.files.keys()) {
    const m = /^(sql|persisted)\/([^/]+)\//.exec(f);
    if (!m) continue;
    if (m[1] === 'sql' && !f.endsWith('.subscription.sql')) roots.set(m[2]!, (roots.get(m[2]!) ?? 0) + 1);
    if (m[1] === 'persisted') stored.set(m[2]!, (stored.get(m[2]!) ?? 0) + 1);
  }
  const rows = m.roles.map((role) => {
    const readable = Object.keys(m.select[role] ?? {}).length;
    const writable = Object.keys(m.mutations?.[role] ?? {}).length;
    // One file per root field kept in the role's schema (sql/<role>/<field>.sql; live queries apart).
    return [role, `${readable}${writable ? ` (${writable} writable)` : ''}`, String(roots.get(role) ?? 0), String(stored.get(role) ?? 0)];
  });
  const head = ['role', 'tables visible', 'root fields', 'persisted queries'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}`;
  return [line(head), ...rows.map(line)];
}

// The catalog of each source: a snapshot file serves them all; otherwise a source's own URL (a
// literal, or an environment variable that is set) is introspected, and --database-url serves the rest.
async function catalogs(metadata: Metadata, o: CompileOptions, log: (line: string) => void): Promise<Record<string, Introspection>> {
  if (o.introspection) {
    log(`reading introspection snapshot ${o.introspection}`);
    const db = await readIntrospection(o.introspection);
    return Object.fromEntries(metadata.sources.map((s) => [s.name, db]));
  }
  const byUrl = new Map<string, Introspection>();
  const out: Record<string, Introspection> = {};
  for (const s of metadata.sources) {
    const own = databaseUrl(s);
    const url = own?.kind === 'literal' ? own.url : own?.kind === 'env' ? process.env[own.name] ?? o.databaseUrl : o.databaseUrl;
    if (!url) throw new CliError(`source "${s.name}" has no database URL: set ${own?.kind === 'env' ? own.name : 'its connection_info.database_url'} or pass --database-url`, 2);
    let db = byUrl.get(url);
    if (!db) {
      log(`introspecting ${redact(url)} for source "${s.name}"`);
      db = await introspectUrl(url);
      byUrl.set(url, db);
    }
    out[s.name] = db;
  }
  return out;
}

/** `kiln introspect`: the catalog snapshot as JSON. */
export async function introspectCommand(o: { databaseUrl: string; out?: string }): Promise<void> {
  const db = await introspectUrl(o.databaseUrl);
  const text = JSON.stringify(db, null, 2) + '\n';
  if (!o.out) { process.stdout.write(text); return; }
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, text);
  process.stderr.write(`wrote ${db.tables.length} table(s) and ${db.functions.length} function(s) to ${o.out}\n`);
}
