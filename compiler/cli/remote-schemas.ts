// The remote schemas of a compile: each one introspected now (or read from a snapshot folder, for
// a compile with no network), its SDL stored in the bundle, and the stitch checked as the served
// bundle will do it (clashes, remote relationships, permissions) so a bundle that would leave a
// remote out is refused like any inconsistent metadata.

import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BundleModel, Json } from '../../runtime/bundle/index.js';
import { remoteSdlFile } from '../../runtime/bundle/index.js';
import {
  introspectRemote, remoteDefinitions, remoteSdl, serveRemotes, snapshotFromSdl, RemoteIntrospections,
  type RemoteDefinition, type RemoteInconsistency, type RemoteSnapshot,
} from '../../runtime/remote/index.js';
import type { Metadata } from '../metadata/index.js';
import { redact } from './project.js';

/** The remotes of a compile: the SDL to store, and those that could not be read (with why). */
export interface CompileRemotes {
  readonly sdl: { readonly [name: string]: string };
  readonly failed: readonly { readonly name: string; readonly where: string; readonly reason: string }[];
}

/** Where a remote is, for messages (the variable's name when the URL comes from the environment; passwords hidden). */
export function remoteWhere(def: RemoteDefinition): string {
  if (def.url !== null) return redact(def.url);
  const value = def.urlFromEnv ? process.env[def.urlFromEnv] : undefined;
  return `$${def.urlFromEnv ?? ''}${value ? ` = ${redact(value)}` : ' (not set)'}`;
}

/** The metadata's remote schemas as the runtime reads them. */
export function definitionsOf(metadata: Metadata): RemoteDefinition[] {
  return remoteDefinitions({ remote_schemas: [...(metadata.remote_schemas ?? [])] });
}

/**
 * Reads each remote's schema: from the live server (its URL, headers and time limit, values from
 * the environment of this compile), or from `snapshotDir` (a bundle, or a folder of `<name>.graphql`).
 */
export async function readRemotes(metadata: Metadata, snapshotDir: string | undefined, log: (line: string) => void): Promise<CompileRemotes> {
  const defs = definitionsOf(metadata);
  const stored = snapshotDir === undefined ? null : await snapshotFiles(snapshotDir);
  const snaps = await Promise.all(defs.map(async (def): Promise<RemoteSnapshot> => {
    if (stored === null) {
      log(`introspecting remote schema "${def.name}" at ${remoteWhere(def)}`);
      return introspectRemote(def);
    }
    const text = await stored(def.name);
    return text === undefined ? { kind: 'failed', def, reason: `no schema for it in ${snapshotDir}` } : snapshotFromSdl(def, text);
  }));
  const sdl: { [name: string]: string } = {};
  const failed: { name: string; where: string; reason: string }[] = [];
  for (const s of snaps) {
    if (s.kind === 'ok') sdl[s.def.name] = remoteSdl(s.schema);
    else failed.push({ name: s.def.name, where: stored === null ? remoteWhere(s.def) : snapshotDir!, reason: s.reason });
  }
  return { sdl, failed };
}

// A snapshot folder: a bundle (its manifest names each remote's file) or a folder of `<name>.graphql`.
async function snapshotFiles(dir: string): Promise<(name: string) => Promise<string | undefined>> {
  const manifest = await readFile(join(dir, 'manifest.json'), 'utf8').then((t) => JSON.parse(t) as { remoteSchemas?: { [name: string]: { file: string } } }, () => null);
  const fileOf = (name: string): string => manifest?.remoteSchemas?.[name]?.file ?? (manifest ? remoteSdlFile(name) : basename(remoteSdlFile(name)));
  return (name) => readFile(join(dir, fileOf(name)), 'utf8').catch(() => undefined);
}

/**
 * What the served bundle would report inconsistent about its remotes: a remote that clashes with a
 * table's field or type, a remote relationship to a field the remote lacks, a permission that is
 * not a subset (checked whether or not permissions will be on where it is served).
 */
export function remoteInconsistencies(metadata: Metadata, remotes: CompileRemotes, adminSdl: string, model: BundleModel): RemoteInconsistency[] {
  const introspections = new RemoteIntrospections();
  const definitions = [...(metadata.remote_schemas ?? [])] as Json;
  for (const def of remoteDefinitions({ remote_schemas: definitions })) {
    const text = remotes.sdl[def.name];
    // A remote that could not be read is reported by the compile already, not again here.
    introspections.put(text === undefined ? { kind: 'failed', def, reason: 'not introspected' } : snapshotFromSdl(def, text));
  }
  const failed = new Set(remotes.failed.map((f) => f.name));
  return serveRemotes({ remote_schemas: definitions }, introspections, adminSdl, model, true).inconsistencies
    .filter((i) => !(i.type === 'remote_schema' && failed.has(i.name.replace(/^remote_schema /, ''))));
}
