import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiError } from '../errors/index.js';
import type { BundleModel } from './model.js';

/** A bundle as the runtime holds it. */
export interface LoadedBundle {
  readonly model: BundleModel;
  readonly sdl: { readonly [role: string]: string };
  readonly manifest: { readonly engineVersion: string; readonly roles: readonly string[]; readonly [k: string]: unknown };
}

/** Loads a compiled bundle directory (manifest.json + engine.mjs). */
export async function loadBundle(dir: string): Promise<LoadedBundle> {
  const abs = resolve(dir);
  let manifestText: string;
  try {
    manifestText = await readFile(join(abs, 'manifest.json'), 'utf8');
  } catch {
    throw new ApiError('invalid-configuration', `no bundle at ${abs}: manifest.json is missing (run \`kiln compile --out ${dir}\` first)`);
  }
  const manifest = JSON.parse(manifestText) as LoadedBundle['manifest'] & { bundleFormat?: number };
  if (manifest.bundleFormat !== 1) throw new ApiError('invalid-configuration', `unsupported bundle format ${String(manifest.bundleFormat)} in ${abs}`);
  const mod = (await import(pathToFileURL(join(abs, 'engine.mjs')).href)) as { model: BundleModel; sdl: LoadedBundle['sdl'] };
  return { model: mod.model, sdl: mod.sdl, manifest };
}
