// The compiler as the metadata API sees it (runtime/metadata-api/contract.ts): metadata edits
// (compiler/ops), introspection, and the compile pipeline `kiln compile` runs (compileModel),
// minus the files, so a change made through the API serves exactly what compiling it would.

import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled, CompileOptions, MetadataCompiler, SourceInfo } from '../../runtime/metadata-api/index.js';
import type { Introspection } from '../introspect/index.js';
import { parseMetadata, roleCycleError, type Metadata } from '../metadata/index.js';
import { applyOperation, dependentLabel, dropObjects, emptyMetadata, knowsOperation, reconcileCatalog, requestProblem, sectionProblem, sourceInfos } from '../ops/index.js';
import { withBigQueryDatasets } from './bigquery-names.js';
import { readCatalog } from './catalog.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CompileThread } from './compile-thread.js';
import { IncrementalCompiler } from './incremental.js';

const asMetadata = (doc: Json): Metadata => doc as unknown as Metadata;
const asJson = (md: Metadata): Json => md as unknown as Json;
const snapshots = (i: { readonly [source: string]: Json | null }): { [source: string]: Introspection | null } =>
  i as unknown as { [source: string]: Introspection | null };

/**
 * The worker file beside the built CLI (build/compile-worker.mjs), when there is one: run from
 * the TypeScript sources (the tests) there is none, and the API compiles on its own thread.
 */
function builtWorker(): URL | null {
  const url = new URL('./compile-worker.mjs', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : null;
}

/**
 * The MetadataCompiler the metadata API is given (compile on write), for bundles of this engine
 * version. `worker`: the compile worker's file (default: the built one, if any; null: none).
 */
export function metadataCompiler(engineVersion: string, worker: URL | null = builtWorker()): MetadataCompiler {
  const thread = worker ? new CompileThread(worker, engineVersion) : null;
  // What earlier compiles on this thread built (the worker keeps its own).
  const incremental = new IncrementalCompiler(engineVersion);
  return {
    ...(thread ? { compileAsync: (metadata: Json, introspection: { readonly [source: string]: Json | null }, opts: CompileOptions) =>
      thread.compile(metadata, introspection, opts) } : {}),
    empty: () => asJson(emptyMetadata()),
    parse(doc) {
      const r = parseMetadata(doc);
      if (r.value === null) return { value: null, errors: r.errors };
      // The sections kept as raw JSON are read as their operations read them (replace_metadata).
      const problem = sectionProblem(r.value);
      return problem ? { value: null, errors: [problem] } : { value: asJson(r.value), errors: r.errors };
    },
    refusal: (metadata) => roleCycleError(asMetadata(metadata).inherited_roles),
    apply(metadata, op, ctx) {
      const out = applyOperation(asMetadata(metadata), op, snapshots(ctx.introspection));
      return { metadata: out.metadata === null ? null : asJson(out.metadata), result: out.result ?? { message: 'success' }, effect: out.effect };
    },
    knows: (type, api) => knowsOperation(type, api),
    requestProblem: (op) => requestProblem(op),
    introspect: async (db, source) => (await readCatalog(db, source)) as unknown as Json,
    // The pipeline of `kiln compile` minus emit: a change made through the API serves what compiling it would.
    compile: (metadata, introspection, opts): Compiled => incremental.compile(metadata, introspection, opts),
    dropObjects: (metadata, objects) => asJson(dropObjects(asMetadata(metadata), objects as never)),
    describe: (o) => dependentLabel(o as never),
    reconcile: (metadata, source, before, after, cascade) => {
      const out = reconcileCatalog(asMetadata(metadata), source, before as unknown as Introspection | null, after as unknown as Introspection, cascade);
      return out === asMetadata(metadata) ? metadata : asJson(out);
    },
    sources(metadata): SourceInfo[] {
      return sourceInfos(asMetadata(metadata));
    },
    exported(metadata) {
      const md = withBigQueryDatasets(asMetadata(metadata));
      if (md.cron_triggers === undefined) return md === asMetadata(metadata) ? metadata : asJson(md);
      const kept = md.cron_triggers.filter((t) => !hiddenCron(t)).map(exportedCron);
      const { cron_triggers: _all, ...rest } = md;
      return asJson(kept.length > 0 ? { ...rest, cron_triggers: kept } : rest as Metadata);
    },
    keptOnReplace(previous, next) {
      const hidden = (asMetadata(previous).cron_triggers ?? []).filter(hiddenCron);
      const md = asMetadata(next);
      const named = new Set((md.cron_triggers ?? []).map(cronName));
      const carried = hidden.filter((t) => !named.has(cronName(t)));
      return carried.length === 0 ? next : asJson({ ...md, cron_triggers: [...(md.cron_triggers ?? []), ...carried] });
    },
  };
}

// Cron triggers created with `include_in_metadata: false` live in the stored document (the workers
// and get_cron_triggers read them there) but are not part of what users export and replace.
function hiddenCron(t: Json): boolean {
  return t !== null && typeof t === 'object' && !Array.isArray(t) && t['include_in_metadata'] === false;
}

// Hasura's export leaves out a cron trigger's retry_conf when it is the default and its headers
// when there are none (Metadata.hs, cronTriggersToOrdJSON); get_cron_triggers shows both.
const DEFAULT_CRON_RETRY = JSON.stringify({ num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 }); // keys sorted

function exportedCron(t: Json): Json {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return t;
  const left = (key: string, v: Json): boolean => (key === 'retry_conf' && isDefaultRetry(v)) || (key === 'headers' && Array.isArray(v) && v.length === 0);
  return Object.fromEntries(Object.entries(t).filter(([k, v]) => !left(k, v)));
}

function isDefaultRetry(v: Json): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const sorted = Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify(sorted) === DEFAULT_CRON_RETRY;
}

function cronName(t: Json): unknown {
  return t !== null && typeof t === 'object' && !Array.isArray(t) ? t['name'] : undefined;
}
