import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiError } from '../errors/index.js';
import type { BundleModel } from './model.js';
import { sdlFileText } from './sdl-index.js';

/** A bundle as the runtime holds it. */
export interface LoadedBundle {
  readonly model: BundleModel;
  /** Each role's SDL, read from the bundle when first asked for (not kept: the engine caches the schema it builds). */
  readonly sdl: { readonly [role: string]: string };
  /** Role -> the stored file of its schema: roles with the same file see the same schema. */
  readonly sdlKey: { readonly [role: string]: string };
  /** Role -> the absolute path of its schema file (a role's types are read from it as they are needed). */
  readonly sdlFiles?: { readonly [role: string]: string };
  readonly manifest: { readonly engineVersion: string; readonly roles: readonly string[]; readonly [k: string]: unknown };
  /** Each remote schema's SDL as `kiln compile` introspected it, by remote name (manifest.json `remoteSchemas`). */
  readonly remoteSdl: { readonly [name: string]: string };
}

/** manifest.json `remoteSchemas`: each remote's stored schema file and its sha256. */
export interface RemoteSchemaEntry {
  readonly file: string;
  readonly sha256: string;
}

/** Loads a compiled bundle directory (manifest.json + engine.mjs); schemas are read on first use. */
export async function loadBundle(dir: string): Promise<LoadedBundle> {
  const abs = resolve(dir);
  let manifestText: string;
  try {
    manifestText = await readFile(join(abs, 'manifest.json'), 'utf8');
  } catch {
    throw new ApiError('invalid-configuration', `no bundle at ${abs}: manifest.json is missing (run \`kiln compile --out ${dir}\` first)`);
  }
  const manifest = JSON.parse(manifestText) as LoadedBundle['manifest'] & { bundleFormat?: number; schemas?: { [role: string]: string } };
  if (manifest.bundleFormat !== 1) throw new ApiError('invalid-configuration', `unsupported bundle format ${String(manifest.bundleFormat)} in ${abs}`);
  const remoteSdl = await readRemoteSdl(abs, manifest);
  const mod = (await import(pathToFileURL(join(abs, 'engine.mjs')).href)) as { model: BundleModel; sdl?: LoadedBundle['sdl'] };
  shareRootNames(mod.model);
  // Bundles written before schemas were shared carry every SDL in engine.mjs.
  if (mod.sdl) return { model: mod.model, sdl: mod.sdl, sdlKey: Object.fromEntries(Object.keys(mod.sdl).map((r) => [r, r])), manifest, remoteSdl };
  const paths: { [role: string]: string } = { ...Object.fromEntries(mod.model.roles.map((r) => [r, `schema/${r}.graphql`])), ...manifest.schemas };
  const sdl: { [role: string]: string } = {};
  for (const [role, path] of Object.entries(paths)) {
    Object.defineProperty(sdl, role, { enumerable: true, get: () => sdlFileText(join(abs, path)) });
  }
  const sdlFiles = Object.fromEntries(Object.entries(paths).map(([role, path]) => [role, join(abs, path)]));
  return { model: mod.model, sdl, sdlKey: paths, sdlFiles, manifest, remoteSdl };
}

/**
 * Root fields name their kind and table in strings JSON.parse made one per field (at 1,000 tables
 * x 20 roles, 57,000 strings and 2 MB of heap in the distinct roles' root parts): one string for
 * each distinct name instead. The model is the module's plain data, read by nothing yet.
 */
function shareRootNames(model: BundleModel): void {
  type Names = { kind?: unknown; table?: unknown; function?: unknown };
  // A map of this load's names (25 ms for 36,000 fields, against 40 ms internalizing each).
  const names = new Map<string, string>();
  const one = (s: string): string => {
    const known = names.get(s);
    if (known !== undefined) return known;
    names.set(s, s);
    return s;
  };
  for (const roots of new Set(Object.values(model.roots ?? {}))) {
    for (const fields of [roots.query ?? {}, roots.subscription ?? {}, roots.mutation ?? {}] as { [field: string]: Names }[]) {
      for (const f of Object.values(fields)) {
        if (typeof f.kind === 'string') f.kind = one(f.kind);
        if (typeof f.table === 'string') f.table = one(f.table);
        if (typeof f.function === 'string') f.function = one(f.function);
      }
    }
  }
}

// The remote schemas' SDL (their sha256 is checked by `kiln check`, as every file of the bundle is).
async function readRemoteSdl(abs: string, manifest: { readonly [k: string]: unknown }): Promise<{ [name: string]: string }> {
  const out: { [name: string]: string } = {};
  const entries = (manifest['remoteSchemas'] ?? {}) as { readonly [name: string]: RemoteSchemaEntry };
  for (const [name, entry] of Object.entries(entries)) {
    try {
      out[name] = await readFile(join(abs, entry.file), 'utf8');
    } catch {
      throw new ApiError('invalid-configuration', `bundle ${abs}: ${entry.file} (the schema of remote schema ${JSON.stringify(name)}) is missing`);
    }
  }
  return out;
}
