// `kiln serve`: picks what to serve from the flags and hands it to the runtime. A bundle is served
// exactly as `kiln-runtime` serves it; a metadata file is compiled here first; with neither, the
// catalog in the database is served with this compiler wired into the metadata API.

import { readFile } from 'node:fs/promises';
import type { Json } from '../../runtime/bundle/index.js';
import { demoFixture, serveCatalog, serveModel, type RunningServer, type ServeSettings, type SourceOpener } from '../../runtime/index.js';
import { compileModel } from '../emit/index.js';
import { introspectWith, type Introspection } from '../introspect/index.js';
import { databaseUrl, sourcePool } from '../metadata/index.js';
import { metadataCompiler } from '../metadata-compiler/index.js';
import { CliError, readMetadata } from './project.js';
import { readRemotes } from './remote-schemas.js';
import { introspectBigQuerySource } from './serve-bigquery.js';
import { KILN_VERSION } from './version.js';

export interface ServeOptions extends ServeSettings {
  readonly bundle?: string;
  readonly metadata?: string;
}

/** `kiln serve`: serve a bundle, a metadata file compiled in process, or the catalog. */
export async function serveCommand(o: ServeOptions): Promise<RunningServer> {
  if (o.bundle) return serveModel(o, { kind: 'bundle', dir: o.bundle });
  if (o.metadata) {
    const path = o.metadata;
    return serveModel(o, { kind: 'compile', compile: (open, log) => compileInProcess(path, o, open, log) });
  }
  // The demo: no database named anywhere, so the embedded database serves every source.
  const demo = !o.databaseUrl && !process.env.SVC_GRAPHQL_METADATA_DATABASE_URL;
  const demoMetadata = demo ? JSON.parse(await readFile(demoFixture().metadata, 'utf8')) as Json : undefined;
  return serveCatalog(o, { compiler: metadataCompiler(KILN_VERSION), ...(demoMetadata !== undefined ? { demoMetadata } : {}) });
}

async function compileInProcess(path: string, o: ServeOptions, open: SourceOpener, log: (line: string) => void) {
  const metadata = await readMetadata(path);
  const introspection: Record<string, Introspection> = {};
  for (const s of metadata.sources) {
    if (s.kind === 'bigquery') { introspection[s.name] = await introspectBigQuerySource(s, open); continue; }
    const d = await open(s.name, databaseUrl(s), undefined, s.kind === 'mssql' ? sourcePool(s) : undefined);
    try {
      introspection[s.name] = await introspectWith(d);
    } catch (e) {
      const detail = (e as { internal?: { error?: { message?: string } } }).internal?.error?.message ?? (e as Error).message;
      throw new CliError(`cannot read the catalog of source "${s.name}": ${detail} (is the database up, and the URL right?)`, 1);
    }
  }
  // Remote schemas are introspected now; one that does not answer is left out (the runtime warns of it).
  const remotes = await readRemotes(metadata, undefined, log);
  for (const f of remotes.failed) log(`warning: cannot read remote schema "${f.name}" (${f.where}): ${f.reason}`);
  // The compile pipeline without emit: the model is served from memory, no files are written.
  const compiled = compileModel({ metadata, introspection, engineVersion: KILN_VERSION, stringifyNumeric: o.stringifyNumericTypes,
    ...(o.inferFunctionPermissions === false ? { inferFunctionPermissions: false } : {}), progress: log });
  for (const i of compiled.inconsistencies) log(`warning: inconsistent ${i.name}: ${i.reason}`);
  return { model: compiled.model, sdl: compiled.sdl, remoteSdl: remotes.sdl };
}
