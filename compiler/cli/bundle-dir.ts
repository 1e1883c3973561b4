// A compiled bundle read back from disk for `kiln diff` and `kiln check`: the model (engine.mjs),
// manifest.json and the text files a reviewer reads (sql/, persisted/, schema/).

import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { expandLayout, loadBundle, type BundleModel } from '../../runtime/bundle/index.js';
import { CliError } from './project.js';

/** A persisted query as manifest.json lists it. */
export interface PersistedEntry {
  readonly collection: string;
  readonly name: string;
  readonly roles: readonly string[];
  /** The allow-list key of the query (null: it does not parse). */
  readonly sha256?: string | null;
}

export interface Manifest {
  readonly bundleFormat: number;
  readonly roles: readonly string[];
  readonly files?: { readonly [path: string]: string };
  readonly persisted?: readonly PersistedEntry[];
  readonly [k: string]: unknown;
}

export interface BundleDir {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly model: BundleModel;
  /** Relative path -> text, for every file under sql/, persisted/, schema/ and remote/ (shared text expanded per role); sorted. */
  readonly files: ReadonlyMap<string, string>;
  /** The files as stored (shared/ and links.json as they are): what manifest.json's sha256 list covers. */
  readonly stored: ReadonlyMap<string, string>;
}

/** sha256 of a text, hex. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

const TEXT_DIRS = ['sql', 'persisted', 'schema', 'shared', 'remote'];

/** Reads a bundle directory; anything that is not a readable bundle is bad input (exit 2). */
export async function readBundleDir(dir: string): Promise<BundleDir> {
  const abs = resolve(dir);
  const st = await stat(abs).catch(() => null);
  if (!st) throw new CliError(`${dir}: no such directory`, 2);
  if (!st.isDirectory()) throw new CliError(`${dir}: not a directory`, 2);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(abs, 'manifest.json'), 'utf8')) as Manifest;
  } catch (e) {
    const missing = (e as { code?: string }).code === 'ENOENT';
    throw new CliError(`${dir} is not a kiln bundle (${missing ? 'no manifest.json' : 'manifest.json is not JSON'}; write one with kiln compile)`, 2);
  }
  if (manifest.bundleFormat !== 1) throw new CliError(`${dir}: unsupported bundle format ${String(manifest.bundleFormat)}`, 2);
  let model: BundleModel;
  try {
    model = (await loadBundle(abs)).model;
  } catch (e) {
    throw new CliError(`${dir}: cannot load engine.mjs (${(e as Error).message})`, 2);
  }
  if (!model || typeof model !== 'object' || !Array.isArray(model.roles)) throw new CliError(`${dir}: engine.mjs has no model`, 2);
  const stored = new Map<string, string>();
  for (const sub of TEXT_DIRS) for (const path of await listFiles(abs, join(abs, sub))) stored.set(path, await readFile(join(abs, path), 'utf8'));
  const schemas = (manifest['schemas'] ?? {}) as { readonly [role: string]: string };
  return { dir, manifest, model, files: expandLayout(stored, schemas), stored };
}

async function listFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...await listFiles(root, full));
    else if (e.isFile()) out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

/** The role a bundle SQL file runs as: `sql/<role>/...` or `persisted/<role>/...`. */
export function roleOfFile(path: string): string | null {
  const m = /^(?:sql|persisted)\/([^/]+)\/.+\.sql$/.exec(path);
  return m ? m[1]! : null;
}
