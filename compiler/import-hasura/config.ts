// Reads a Hasura CLI project's config.yaml: which config version it is (2 or 3) and where its
// metadata and migrations live (`metadata_directory`, `migrations_directory`, relative to the project).

import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/** Bad input: the project cannot be read as a Hasura CLI project (the CLI exits 2). */
export class HasuraProjectError extends Error {}

/** What config.yaml says about the project's layout. */
export interface HasuraConfig {
  readonly version: 2 | 3;
  readonly metadataDir: string;
  readonly migrationsDir: string;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function directoryKey(o: Record<string, unknown>, key: string, fallback: string, file: string): string {
  const v = o[key] ?? fallback;
  if (typeof v !== 'string' || v === '') throw new HasuraProjectError(`${file}: ${key} must be a non-empty string`);
  return v;
}

/** Reads PROJECT/config.yaml; throws HasuraProjectError when the project cannot be imported. */
export async function readHasuraConfig(project: string): Promise<HasuraConfig> {
  if (!(await isDirectory(project))) throw new HasuraProjectError(`${project} is not a directory (expected a Hasura CLI project)`);
  const file = join(project, 'config.yaml');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new HasuraProjectError(`${file} not found: ${project} is not a Hasura CLI project (hasura init writes config.yaml)`);
  }
  let doc: unknown;
  try {
    doc = parse(text) ?? {};
  } catch (e) {
    throw new HasuraProjectError(`${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new HasuraProjectError(`${file}: expected a mapping of settings`);
  const o = doc as Record<string, unknown>;
  // The CLI reads a config without `version` as version 1, whose metadata lives inside migrations.
  const version = o['version'] ?? 1;
  if (version !== 2 && version !== 3) {
    throw new HasuraProjectError(`${file}: config version ${JSON.stringify(version)} is not supported (expected 2 or 3; upgrade a version 1 project with \`hasura scripts update-project-v2\` first)`);
  }
  const metadataDir = resolve(project, directoryKey(o, 'metadata_directory', 'metadata', file));
  const migrationsDir = resolve(project, directoryKey(o, 'migrations_directory', 'migrations', file));
  if (!(await isDirectory(metadataDir))) throw new HasuraProjectError(`metadata directory ${metadataDir} not found (config.yaml metadata_directory)`);
  return { version, metadataDir, migrationsDir };
}
