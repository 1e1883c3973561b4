import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildBundle, writeBundle } from '../emit/index.js';
import { CliError, introspectUrl, readIntrospection, readMetadata, redact } from './project.js';
import { KILN_VERSION } from './version.js';

export interface CompileOptions {
  readonly metadata: string;
  readonly databaseUrl?: string;
  readonly introspection?: string;
  readonly out: string;
  readonly stringifyNumericTypes?: boolean;
  readonly allowInconsistent?: boolean;
  readonly quiet?: boolean;
}

/** `kiln compile`: metadata + catalog -> bundle directory. */
export async function compileCommand(o: CompileOptions): Promise<void> {
  const started = Date.now();
  const log = o.quiet ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
  if (!o.databaseUrl && !o.introspection) throw new CliError('compile needs --database-url URL or --introspection FILE (see kiln compile --help)', 2);
  log(`reading metadata from ${o.metadata}`);
  const metadata = await readMetadata(o.metadata);
  log(o.introspection ? `reading introspection snapshot ${o.introspection}` : `introspecting ${redact(o.databaseUrl!)}`);
  const db = o.introspection ? await readIntrospection(o.introspection) : await introspectUrl(o.databaseUrl!);
  // One snapshot serves every source of the metadata (multi-database compiles take one per source later).
  const introspection = Object.fromEntries(metadata.sources.map((s) => [s.name, db]));
  const bundle = await buildBundle({ metadata, introspection, engineVersion: KILN_VERSION, stringifyNumeric: o.stringifyNumericTypes ?? false, progress: log });
  if (bundle.inconsistencies.length && !o.allowInconsistent) {
    const lines = bundle.inconsistencies.map((i) => `  ${i.type} ${i.name}: ${i.reason}`).join('\n');
    throw new CliError(`the metadata does not fit the database (${bundle.inconsistencies.length} inconsistent object(s)):\n${lines}\n(fix the metadata or the database, or pass --allow-inconsistent to compile without them)`, 1);
  }
  await writeBundle(o.out, bundle);
  const s = bundle.summary;
  log(`compiled ${s.tables} table(s), ${s.roles} role(s), ${s.rootFields} root field(s) into ${o.out} in ${Date.now() - started} ms`);
}

/** `kiln introspect`: the catalog snapshot as JSON. */
export async function introspectCommand(o: { databaseUrl: string; out?: string }): Promise<void> {
  const db = await introspectUrl(o.databaseUrl);
  const text = JSON.stringify(db, null, 2) + '\n';
  if (!o.out) { process.stdout.write(text); return; }
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, text);
  process.stderr.write(`wrote ${db.tables.length} table(s) and ${db.functions.length} function(s) to ${o.out}\n`);
}
