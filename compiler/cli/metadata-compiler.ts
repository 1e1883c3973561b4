// The compiler as the metadata API sees it (runtime/metadata-api/contract.ts): the same stages
// `kiln compile` runs — parse, resolve against the catalog, build each role's schema — minus the
// files, so a change made through the API serves exactly what compiling it would.

import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled, MetadataCompiler, SourceInfo } from '../../runtime/metadata-api/index.js';
import { introspectPostgres, type Introspection } from '../introspect/index.js';
import { databaseUrl, parseMetadata, type Metadata } from '../metadata/index.js';
import { resolveModel } from '../model/index.js';
import { applyOperation, dependentLabel, dropObjects, emptyMetadata, knowsOperation, reconcileCatalog } from '../ops/index.js';
import { buildRoleSchemas, collectionUse, printSchemas, validateCollections } from '../schema/index.js';
import { compilePersisted } from '../emit/index.js';

const asMetadata = (doc: Json): Metadata => doc as unknown as Metadata;
const asJson = (md: Metadata): Json => md as unknown as Json;
const snapshots = (i: { readonly [source: string]: Json | null }): { [source: string]: Introspection | null } =>
  i as unknown as { [source: string]: Introspection | null };

export function metadataCompiler(engineVersion: string): MetadataCompiler {
  return {
    empty: () => asJson(emptyMetadata()),
    parse(doc) {
      const r = parseMetadata(doc);
      return { value: r.value === null ? null : asJson(r.value), errors: r.errors };
    },
    apply(metadata, op, ctx) {
      const out = applyOperation(asMetadata(metadata), op, snapshots(ctx.introspection));
      return { metadata: out.metadata === null ? null : asJson(out.metadata), result: out.result ?? { message: 'success' }, effect: out.effect };
    },
    knows: (type, api) => knowsOperation(type, api),
    introspect: async (db) => (await introspectPostgres(db)) as unknown as Json,
    compile(metadata, introspection, opts): Compiled {
      const present = Object.fromEntries(Object.entries(snapshots(introspection)).filter((e): e is [string, Introspection] => e[1] !== null));
      const resolved = resolveModel(asMetadata(metadata), { engineVersion, introspection: present });
      const base = { ...resolved.value, options: { stringifyNumeric: opts.stringifyNumeric } };
      const schemas = buildRoleSchemas(base);
      // Stored queries compiled whole, as `kiln compile` does: the allow-list and REST endpoints run them.
      const persisted = compilePersisted(asMetadata(metadata), base, schemas).persisted;
      const model = persisted ? { ...base, persisted } : base;
      const sdl = printSchemas(model.roles, schemas);
      const queries = schemas['admin'] ? validateCollections(collectionUse(asMetadata(metadata)), schemas['admin']) : [];
      return { model, sdl, inconsistencies: [...resolved.inconsistencies, ...queries] };
    },
    dropObjects: (metadata, objects) => asJson(dropObjects(asMetadata(metadata), objects as never)),
    describe: (o) => dependentLabel(o as never),
    reconcile: (metadata, source, before, after) => {
      const out = reconcileCatalog(asMetadata(metadata), source, before as unknown as Introspection | null, after as unknown as Introspection);
      return out === asMetadata(metadata) ? metadata : asJson(out);
    },
    sources(metadata): SourceInfo[] {
      return asMetadata(metadata).sources.map((s) => ({ name: s.name, kind: s.kind, location: databaseUrl(s) }));
    },
    exported(metadata) {
      const md = asMetadata(metadata);
      const kept = (md.cron_triggers ?? []).filter((t) => !hiddenCron(t));
      if (kept.length === (md.cron_triggers ?? []).length) return metadata;
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

function cronName(t: Json): unknown {
  return t !== null && typeof t === 'object' && !Array.isArray(t) ? t['name'] : undefined;
}
