// Reads migrations in every layout the Hasura CLI has written: version folders
// (`<version>_<name>/up.sql`, `down.sql`), per database under migrations/<database>/ in config v3
// and directly under migrations/ before it, and the older flat files `<version>_<name>.up.sql`
// (`.down.sql`, `.up.yaml`, `.down.yaml`). YAML migrations hold metadata API calls from config
// v1; they are listed so that the caller can report them, not run.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HasuraProjectError } from './config.js';

/** One migration: its version (digits, ordered as a number), name and SQL. */
export interface Migration {
  readonly version: string;
  readonly name: string;
  readonly up?: string;
  readonly down?: string;
  /** Files of this version that are not SQL (`up.yaml`, `down.yaml`): not carried. */
  readonly yaml: readonly string[];
}

const VERSIONED = /^(\d+)_(.*)$/;
const FLAT = /^(\d+)_(.*)\.(up|down)\.(sql|yaml)$/;

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

interface Draft { version: string; name: string; up?: string; down?: string; yaml: string[] }

function draftFor(drafts: Map<string, Draft>, version: string, name: string, where: string): Draft {
  const d = drafts.get(version);
  if (d === undefined) {
    const fresh: Draft = { version, name, yaml: [] };
    drafts.set(version, fresh);
    return fresh;
  }
  if (d.name !== name) throw new HasuraProjectError(`${where}: two migrations have version ${version} ("${d.name}" and "${name}")`);
  return d;
}

/** Compares two version strings as the numbers they are. */
export function byVersion(a: { version: string }, b: { version: string }): number {
  const x = BigInt(a.version);
  const y = BigInt(b.version);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The migrations of one folder (version folders and flat files), in version order. */
export async function readMigrationFolder(dir: string): Promise<Migration[]> {
  const drafts = new Map<string, Draft>();
  for (const entry of (await readdir(dir)).sort()) {
    const path = join(dir, entry);
    const flat = FLAT.exec(entry);
    if (flat !== null && !(await isDirectory(path))) {
      const d = draftFor(drafts, flat[1]!, flat[2]!, dir);
      if (flat[4] === 'yaml') d.yaml.push(path);
      else d[flat[3] as 'up' | 'down'] = await readFile(path, 'utf8');
      continue;
    }
    const folder = VERSIONED.exec(entry);
    if (folder === null || !(await isDirectory(path))) continue;
    const d = draftFor(drafts, folder[1]!, folder[2]!, dir);
    for (const file of (await readdir(path)).sort()) {
      if (file === 'up.sql' || file === 'down.sql') d[file === 'up.sql' ? 'up' : 'down'] = await readFile(join(path, file), 'utf8');
      else if (file === 'up.yaml' || file === 'down.yaml') d.yaml.push(join(path, file));
    }
  }
  return [...drafts.values()].sort(byVersion);
}

/**
 * The migrations of a project by database. Entries named `<version>_...` directly in `dir` belong
 * to `default` (config v2 and older); any other folder is a database's own migrations folder (v3).
 * An absent folder means no migrations.
 */
export async function readMigrations(dir: string): Promise<Map<string, Migration[]>> {
  const out = new Map<string, Migration[]>();
  if (!(await isDirectory(dir))) return out;
  const top = await readMigrationFolder(dir);
  if (top.length > 0) out.set('default', top);
  for (const entry of (await readdir(dir)).sort()) {
    if (VERSIONED.test(entry) || !(await isDirectory(join(dir, entry)))) continue;
    const own = await readMigrationFolder(join(dir, entry));
    if (own.length === 0) continue;
    if (out.has(entry)) throw new HasuraProjectError(`${dir}: migrations of database "${entry}" are both in ${dir} and in ${join(dir, entry)}`);
    out.set(entry, own);
  }
  return out;
}
