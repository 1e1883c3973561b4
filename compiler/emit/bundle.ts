import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { BundleModel } from '../../runtime/bundle/index.js';
import type { InconsistentObject } from '../model/index.js';
import { formatSql, paramHeader, previewMutationQuery, previewMutationSql, previewQuery, previewSql, previewSubscriptionSql } from '../sql/index.js';
import { engineModule } from './module.js';
import { engineTypes } from './types.js';
import { reportHtml } from './report.js';
import type { PersistedManifestEntry } from './persisted.js';
import { compileModel, type BundleInput } from './pipeline.js';

export interface Bundle {
  readonly model: BundleModel;
  readonly sdl: { readonly [role: string]: string };
  readonly schemas: { readonly [role: string]: GraphQLSchema };
  /** Relative path to content; sorted. */
  readonly files: ReadonlyMap<string, string>;
  readonly inconsistencies: readonly InconsistentObject[];
  readonly summary: { readonly tables: number; readonly roles: number; readonly rootFields: number };
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The whole pipeline: resolve → schema → plans (compileModel), then emit the files of a bundle (pure apart from esbuild). */
export async function buildBundle(input: BundleInput): Promise<Bundle> {
  const say = input.progress ?? (() => {});
  const { model, sdl, schemas, stored, inconsistencies } = compileModel(input);
  const files = new Map<string, string>();
  let rootFields = 0;
  const operations: { [role: string]: string[] } = {};
  for (const role of model.roles) {
    files.set(`schema/${role}.graphql`, sdl[role]!);
    // Only the fields the role's schema kept (a select permission with no column leaves its roots out).
    const queryFields = schemas[role]!.getQueryType()?.getFields() ?? {};
    const roots = Object.entries(model.roots[role]!.query).filter(([field]) => queryFields[field]);
    const ops: string[] = (operations[role] = []);
    for (const [field, root] of roots) {
      const compiled = previewSql(model, schemas[role]!, role, field, root);
      const query = previewQuery(model, role, field, root);
      const header = [`-- role: ${role}`, `-- root field: ${field} (${root.kind} on ${model.tables[root.table]!.schema}.${model.tables[root.table]!.name})`,
        `-- query: ${query}`, ...paramHeader(compiled)];
      files.set(`sql/${role}/${field}.sql`, `${header.join('\n')}\n${formatSql(compiled.text)};\n`);
      ops.push(query.replace(/^query /, `query ${operationName(field)} `));
      rootFields++;
    }
    // Live queries: the multiplexed statement one poll runs for every subscriber of the plan.
    const subscriptionFields = schemas[role]!.getSubscriptionType()?.getFields() ?? {};
    for (const [field, root] of Object.entries(model.roots[role]!.subscription).filter(([f]) => subscriptionFields[f])) {
      const m = previewSubscriptionSql(model, schemas[role]!, role, field, root);
      const header = [`-- role: ${role}`, `-- subscription: ${field} (live query, ${root.kind} on ${model.tables[root.table]!.schema}.${model.tables[root.table]!.name})`,
        `-- query: ${previewQuery(model, role, field, root).replace(/^query\b/, 'subscription')}`,
        '-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]',
        ...paramHeader({ params: m.slots }).map((line) => line.replace(/^-- \$(\d+) = (.*?)( :: (.*))?$/,
          (_all, n: string, what: string, _t, type?: string) => `-- $${Number(n) + 1} = ${what}, one per cohort :: text[]${type ? ` (read as ${type})` : ''}`))];
      files.set(`sql/${role}/${field}.subscription.sql`, `${header.join('\n')}\n${formatSql(m.text)};\n`);
    }
    const mutationFields = schemas[role]!.getMutationType()?.getFields() ?? {};
    const mutations = Object.entries(model.roots[role]!.mutation ?? {}).filter(([field]) => mutationFields[field]);
    for (const [field, root] of mutations) {
      const compiled = previewMutationSql(model, schemas[role]!, role, field, root);
      const query = previewMutationQuery(model, role, field, root);
      const header = [`-- role: ${role}`, `-- root field: ${field} (${root.kind} on ${model.tables[root.table]!.schema}.${model.tables[root.table]!.name})`,
        `-- query: ${query}`, '-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed', ...paramHeader(compiled)];
      files.set(`sql/${role}/${field}.sql`, `${header.join('\n')}\n${formatSql(compiled.text)};\n`);
      ops.push(query.replace(/^mutation /, `mutation ${operationName(field)} `));
      rootFields++;
    }
    say(`  role ${role}: ${roots.length + mutations.length} root field(s)`);
  }
  for (const [path, content] of stored.files) files.set(path, content);
  say('writing engine.mjs and engine.d.ts');
  files.set('engine.mjs', await engineModule(model, sdl));
  files.set('engine.d.ts', await engineTypes(sdl, operations));
  files.set('report.html', reportHtml(model));
  const summary = { tables: Object.keys(model.tables).length, roles: model.roles.length, rootFields };
  files.set('manifest.json', manifest(input, model, files, summary, stored.manifest));
  const sorted = new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { model, sdl, schemas, files: sorted, inconsistencies, summary };
}

// `album_by_pk` -> `AlbumByPk`: the operation (and so the generated type) named after its root field.
function operationName(field: string): string {
  return field.split('_').filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') || 'Root';
}

function manifest(input: BundleInput, model: BundleModel, files: ReadonlyMap<string, string>, summary: Bundle['summary'],
  persisted: readonly PersistedManifestEntry[]): string {
  const doc = {
    bundleFormat: 1,
    engineVersion: input.engineVersion,
    inputs: {
      metadata: sha256(JSON.stringify(input.metadata)),
      introspection: Object.fromEntries(Object.keys(input.introspection).sort().map((s) => [s, sha256(JSON.stringify(input.introspection[s]))])),
    },
    sources: model.sources.map((s) => ({ name: s.name, dialect: s.dialect })),
    roles: model.roles,
    rootFields: Object.fromEntries(model.roles.map((r) => [r, Object.keys(model.roots[r]!.query)])),
    mutationFields: Object.fromEntries(model.roles.map((r) => [r, Object.keys(model.roots[r]!.mutation ?? {})])),
    summary,
    persisted,
    files: Object.fromEntries([...files.keys()].sort().map((f) => [f, sha256(files.get(f)!)])),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

/** Writes a bundle to `dir`, replacing what an earlier compile left there. */
export async function writeBundle(dir: string, bundle: Bundle): Promise<void> {
  for (const sub of ['schema', 'sql', 'persisted']) await rm(join(dir, sub), { recursive: true, force: true });
  for (const [path, content] of bundle.files) {
    const full = join(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}
