import { readFile } from 'node:fs/promises';
import { introspectionFromJson, introspectWith, type Introspection } from '../introspect/index.js';
import { loadMetadata, type Metadata } from '../metadata/index.js';
import { formatPath, type ApiError } from '../../runtime/errors/index.js';
import { createMssqlDriver, createPgDriver, isMssqlConnectionString, type Driver } from '../../runtime/drivers/index.js';
import { redact, StartError } from '../../runtime/index.js';

/** Thrown for a problem the user must fix; the CLI prints it and exits with `exitCode`. */
export class CliError extends StartError {}

/** Reads and validates a metadata file or directory, or fails with every problem listed. */
export async function readMetadata(path: string): Promise<Metadata> {
  const r = await loadMetadata(path);
  if (!r.value || r.errors.length) throw new CliError(`metadata at ${path} is not valid:\n${listErrors(r.errors)}`, 2);
  return r.value;
}

/** One line per error: `$.path: message (code)`. */
export function listErrors(errors: readonly ApiError[]): string {
  return errors.map((e) => `  ${formatPath(e.path)}: ${e.message} (${e.code})`).join('\n');
}

/** A snapshot file's contents. */
export async function readIntrospection(path: string): Promise<Introspection> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new CliError(`cannot read introspection snapshot ${path}: ${(e as Error).message}`, 2);
  }
  try {
    return introspectionFromJson(doc);
  } catch (e) {
    const err = e as ApiError;
    throw new CliError(`${path} is not an introspection snapshot: ${formatPath(err.path ?? [])}: ${err.message}`, 2);
  }
}

/** Reads a live database's catalog. */
export async function introspectUrl(url: string): Promise<Introspection> {
  const driver = isMssqlConnectionString(url) ? createMssqlDriver({ connectionString: url, max: 1 }) : createPgDriver({ url, max: 1 });
  try {
    return await introspectWith(driver);
  } catch (e) {
    throw new CliError(`cannot introspect ${redact(url)}: ${(e as Error).message}`);
  } finally {
    await driver.close();
  }
}

/** Introspects through an open driver. */
export function introspectDriver(driver: Driver): Promise<Introspection> {
  return introspectWith(driver);
}

/** A URL with its password hidden, for messages. */
export { redact };
