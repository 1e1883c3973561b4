// `kiln import-hasura`: a Hasura CLI project in, Kiln's metadata directory and migrations out,
// with the vendor words renamed and a report of what was renamed and what could not be carried.
// Migration SQL is copied byte for byte: rewriting SQL text could change data or code the user
// meant, so the words Kiln names differently there (`hasura.user`, `x-hasura-`, `hdb_catalog`)
// are reported with their file and line instead.

import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { loadMetadata, readMetadataDocument } from '../metadata/index.js';
import { HasuraProjectError, readHasuraConfig } from './config.js';
import { readMigrations, type Migration } from './migrations.js';
import { renameString, renameVendorWords, type RenameCounts } from './rename.js';
import { unservedParts } from './unserved.js';
import { writeMetadataDirectory } from './write-metadata.js';

/** What an import did. */
export interface ImportReport {
  readonly configVersion: 2 | 3;
  tables: number;
  readonly migrations: Record<string, number>;
  readonly renamed: RenameCounts;
  /** Things of the project that Kiln's output does not hold, one line each. */
  readonly notCarried: string[];
  /** Places in migration SQL that name Hasura's words (not rewritten), one line each. */
  readonly sqlNotes: string[];
}

// Files a metadata directory may hold that the assembled document does not list.
const KNOWN_UNREAD = new Set(['version.yaml', 'actions.yaml']);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    // .gitkeep and editor files are no part of the metadata.
    if (e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

// The session variable setting, the header prefix and the catalog schema, as Kiln names them.
const SQL_WORDS: readonly (readonly [RegExp, string])[] = [
  [/hasura\.user/i, "Kiln sets the session as 'svc.user'"],
  [/x-hasura-/i, "Kiln's session variables are named x-svc-..."],
  [/hdb_catalog/i, "Kiln's catalog schema is svc_catalog"],
];

function sqlNotes(file: string, sql: string): string[] {
  const notes: string[] = [];
  sql.split('\n').forEach((line, i) => {
    for (const [word, hint] of SQL_WORDS) if (word.test(line)) notes.push(`${file}:${i + 1}: ${word.exec(line)![0]} (${hint})`);
  });
  return notes;
}

async function writeMigrations(out: string, byDatabase: Map<string, Migration[]>, report: ImportReport): Promise<void> {
  for (const [database, list] of byDatabase) {
    report.migrations[database] = 0;
    for (const m of list) {
      for (const y of m.yaml) report.notCarried.push(`migration ${m.version} (${database}): ${y} holds metadata API calls (YAML migrations are not carried; the metadata directory is)`);
      if (m.up === undefined && m.down === undefined) continue;
      const dir = join(out, database, `${m.version}_${m.name}`);
      await mkdir(dir, { recursive: true });
      for (const [file, sql] of [['up.sql', m.up], ['down.sql', m.down]] as const) {
        if (sql === undefined) continue;
        await writeFile(join(dir, file), sql);
        report.sqlNotes.push(...sqlNotes(join(database, `${m.version}_${m.name}`, file), sql));
      }
      report.migrations[database]++;
    }
  }
}

// The project's .env (read by the Hasura CLI and often by docker compose): settings renamed,
// JWT claims maps included, into OUT/.env.
async function carryEnvFile(project: string, out: string, report: ImportReport): Promise<void> {
  let text: string;
  try {
    text = await readFile(join(project, '.env'), 'utf8');
  } catch {
    return;
  }
  const r = renameString(text);
  const add = (k: keyof RenameCounts, n: number): void => { if (n > 0) report.renamed[k] = (report.renamed[k] ?? 0) + n; };
  add('environment reference', r.env);
  add('session variable in .env (claims maps, settings)', r.session);
  await writeFile(join(out, '.env'), r.text);
}

/** Imports the Hasura CLI project at `project` into `out`; throws HasuraProjectError on bad input. */
export async function importHasura(project: string, out: string): Promise<ImportReport> {
  const config = await readHasuraConfig(project);
  const read = await readMetadataDocument(config.metadataDir);
  if (read.doc === undefined || read.errors.length > 0) {
    throw new HasuraProjectError(`cannot read the metadata in ${config.metadataDir}:\n${read.errors.map((e) => `  ${e.message}`).join('\n')}`);
  }
  const migrations = await readMigrations(config.migrationsDir);
  // Files left from an earlier import would be read (or applied) as if they were this project's.
  for (const part of ['metadata', 'migrations']) {
    const entries = await readdir(join(out, part)).catch(() => []);
    if (entries.length > 0) throw new HasuraProjectError(`${join(out, part)} already exists and is not empty: import into a new folder`);
  }
  const report: ImportReport = { configVersion: config.version, tables: 0, migrations: {}, renamed: {}, notCarried: [], sqlNotes: [] };
  const doc = renameVendorWords(read.doc, report.renamed) as Record<string, unknown>;
  const metadataOut = join(out, 'metadata');
  await writeMetadataDirectory(metadataOut, doc, 'SVC_GRAPHQL_DATABASE_URL');
  report.notCarried.push(...unservedParts(doc));
  const read2 = new Set(read.files.map((f) => resolve(f)));
  for (const f of await filesUnder(config.metadataDir)) {
    const rel = relative(config.metadataDir, f);
    if (read2.has(resolve(f)) || KNOWN_UNREAD.has(rel)) continue;
    if (rel === 'actions.graphql') {
      // Kiln reads custom types from actions.yaml; the SDL is kept beside it for the user's tools.
      await copyFile(f, join(metadataOut, rel));
      continue;
    }
    report.notCarried.push(`metadata file ${rel}: not part of the metadata layout Kiln reads`);
  }
  await writeMigrations(join(out, 'migrations'), migrations, report);
  await carryEnvFile(project, out, report);
  if (await readdir(join(project, 'seeds')).then((x) => x.length > 0, () => false)) {
    report.notCarried.push('seeds/ (hasura seed apply): not carried; run the seed files with psql after kiln migrate apply');
  }
  const check = await loadMetadata(metadataOut);
  for (const e of check.errors) report.notCarried.push(`Kiln cannot read ${e.path.join('.')}: ${e.message}`);
  for (const s of check.value?.sources ?? []) report.tables += s.tables.length;
  return report;
}
