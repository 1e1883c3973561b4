import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiError } from '../errors/index.js';
import type { BundleModel } from './model.js';

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
  const mod = (await import(pathToFileURL(join(abs, 'engine.mjs')).href)) as { model: BundleModel; sdl?: LoadedBundle['sdl'] };
  // Bundles written before schemas were shared carry every SDL in engine.mjs.
  if (mod.sdl) return { model: mod.model, sdl: mod.sdl, sdlKey: Object.fromEntries(Object.keys(mod.sdl).map((r) => [r, r])), manifest };
  const paths: { [role: string]: string } = { ...Object.fromEntries(mod.model.roles.map((r) => [r, `schema/${r}.graphql`])), ...manifest.schemas };
  const sdl: { [role: string]: string } = {};
  for (const [role, path] of Object.entries(paths)) {
    Object.defineProperty(sdl, role, { enumerable: true, get: () => readFileSync(join(abs, path), 'utf8') });
  }
  const sdlFiles = Object.fromEntries(Object.entries(paths).map(([role, path]) => [role, join(abs, path)]));
  return { model: mod.model, sdl, sdlKey: paths, sdlFiles, manifest };
}
