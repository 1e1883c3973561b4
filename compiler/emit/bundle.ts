import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { remoteSdlFile, storedLayout, type BundleModel, type MutationKind, type PermissionRule, type RootField, type StoredLayout } from '../../runtime/bundle/index.js';
import { templateText } from '../../runtime/sql/index.js';
import type { InconsistentObject } from '../model/index.js';
import { formatSql, paramHeader, previewMutationQuery, previewMutationSql, previewQuery, previewSql, previewSubscriptionSql, tableDialect } from '../sql/index.js';
import { engineModule } from './module.js';
import { mutationTemplateLines, rootTemplateLines } from './permission-text.js';
import { engineTypes } from './types.js';
import { reportHtml } from './report.js';
import type { PersistedManifestEntry } from './persisted.js';
import { compileModel, type BundleInput } from './pipeline.js';

export interface Bundle {
  readonly model: BundleModel;
  readonly sdl: { readonly [role: string]: string };
  readonly schemas: { readonly [role: string]: GraphQLSchema };
  /** Relative path to content, one file per role and field (what tools and goldens read); sorted. */
  readonly files: ReadonlyMap<string, string>;
  /** The files as written to disk: text several roles share stored once (runtime/bundle layout.ts). */
  readonly stored: ReadonlyMap<string, string>;
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
  // A root field's statement depends on the role only through its permissions on the field's
  // table: roles with the same permissions there get the same text (but for the `-- role:` line),
  // so it is planned once. Function roots also depend on function permissions: planned per role.
  const planned = new Map<string, { readonly text: string; readonly query: string }>();
  const once = (role: string, key: string | null, make: () => { text: string; query: string }): { text: string; query: string } => {
    if (key === null) return make();
    let hit = planned.get(key);
    if (!hit) planned.set(key, (hit = make()));
    return hit;
  };
  // A role's permissions on a table, as text: written once per role and table (a 1,000-table
  // schema has tens of thousands of root fields, several per table).
  const permText = new Map<string, string>();
  const permsOf = (role: string, table: string, what: string): string => {
    const k = `${what === 'mutation' ? 'm' : 's'}\u0000${role}\u0000${table}`;
    let text = permText.get(k);
    if (text === undefined) {
      text = `${JSON.stringify(model.select[role]?.[table] ?? role)}\u0000${what === 'mutation' ? JSON.stringify(model.mutations?.[role]?.[table] ?? role) : ''}`;
      permText.set(k, text);
    }
    return text;
  };
  const permKey = (role: string, field: string, root: { readonly kind: string; readonly table: string }, what: string): string | null =>
    root.kind.startsWith('function') ? null : `${what}\u0000${field}\u0000${JSON.stringify(root)}\u0000${permsOf(role, root.table, what)}`;
  const started = Date.now();
  for (const [index, role] of model.roles.entries()) {
    files.set(`schema/${role}.graphql`, sdl[role]!);
    // Only the fields the role's schema kept (a select permission with no column leaves its roots out).
    const queryFields = schemas[role]!.getQueryType()?.getFields() ?? {};
    const roots = Object.entries(model.roots[role]!.query).filter(([field]) => queryFields[field]);
    const ops: string[] = (operations[role] = []);
    for (const [field, root] of roots) {
      const { text, query } = once(role, permKey(role, field, root, 'query'), () => {
        const compiled = previewSql(model, schemas[role]!, role, field, root);
        const query = previewQuery(model, role, field, root);
        const header = [`-- root field: ${field} (${root.kind} on ${model.tables[root.table]!.schema}.${model.tables[root.table]!.name})`,
          `-- query: ${query}`, ...(rootTemplateHeader(model, role, field, root.kind) ?? permissionHeader(model, role, root.table)), ...paramHeader(compiled, undefined, 1, tableDialect(model, root.table).placeholder)];
        return { text: `${header.join('\n')}\n${formatSql(compiled.text)};\n`, query };
      });
      files.set(`sql/${role}/${field}.sql`, `-- role: ${role}\n${text}`);
      ops.push(query.replace(/^query /, `query ${operationName(field)} `));
      rootFields++;
    }
    // Live queries: the multiplexed statement one poll runs for every subscriber of the plan.
    const subscriptionFields = schemas[role]!.getSubscriptionType()?.getFields() ?? {};
    for (const [field, root] of Object.entries(model.roots[role]!.subscription).filter(([f]) => subscriptionFields[f])) {
      const { text } = once(role, permKey(role, field, root, 'subscription'), () => {
        const m = previewSubscriptionSql(model, schemas[role]!, role, field, root);
        const header = [`-- subscription: ${field} (live query, ${root.kind} on ${model.tables[root.table]!.schema}.${model.tables[root.table]!.name})`,
          `-- query: ${previewQuery(model, role, field, root).replace(/^query\b/, 'subscription')}`, ...(rootTemplateHeader(model, role, field, root.kind) ?? permissionHeader(model, role, root.table)),
          ...(m.header ?? ['-- one row per cohort of subscribers sharing this plan; $1 = the cohort ids :: int4[]',
            ...paramHeader({ params: m.slots }).map((line) => line.replace(/^-- \$(\d+) = (.*?)( :: (.*))?$/,
              (_all, n: string, what: string, _t, type?: string) => `-- $${Number(n) + 1} = ${what}, one per cohort :: text[]${type ? ` (read as ${type})` : ''}`))])];
        return { text: `${header.join('\n')}\n${formatSql(m.text)};\n`, query: '' };
      });
      files.set(`sql/${role}/${field}.subscription.sql`, `-- role: ${role}\n${text}`);
    }
    const mutationFields = schemas[role]!.getMutationType()?.getFields() ?? {};
    const mutations = Object.entries(model.roots[role]!.mutation ?? {}).filter(([field]) => mutationFields[field]);
    for (const [field, root] of mutations) {
      const { text, query } = once(role, permKey(role, field, root, 'mutation'), () => {
        const compiled = previewMutationSql(model, schemas[role]!, role, field, root);
        const query = previewMutationQuery(model, role, field, root);
        const header = [`-- root field: ${field} (${root.kind} on ${model.tables[root.table]!.schema}.${model.tables[root.table]!.name})`,
          `-- query: ${query}`, ...(mutationTemplateHeader(model, role, field) ?? permissionHeader(model, role, root.table, WRITE_RULES[root.kind])),
          '-- answers `<n>:<json>`: n = 0, or the number of the first guard (permission check) that failed',
          ...paramHeader(compiled, undefined, 1, tableDialect(model, root.table).placeholder)];
        return { text: `${header.join('\n')}\n${formatSql(compiled.text)};\n`, query };
      });
      files.set(`sql/${role}/${field}.sql`, `-- role: ${role}\n${text}`);
      ops.push(query.replace(/^mutation /, `mutation ${operationName(field)} `));
      rootFields++;
    }
    say(`  role ${role} (${index + 1}/${model.roles.length}): ${roots.length + mutations.length} root field(s), ${planned.size} distinct statement(s) so far, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  for (const [path, content] of stored.files) files.set(path, content);
  // Each remote schema's SDL as introspected for this compile: a served bundle stitches it in with no introspection at start.
  const remotes: { [name: string]: { file: string; sha256: string } } = {};
  for (const [name, text] of Object.entries(input.remoteSdl ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const file = remoteSdlFile(name);
    files.set(file, text);
    remotes[name] = { file, sha256: sha256(text) };
  }
  say('writing engine.mjs');
  const engine = await engineModule(model);
  files.set('engine.mjs', engine.module);
  if (engine.data !== undefined) files.set('engine.json', engine.data);
  say('writing engine.d.ts');
  files.set('engine.d.ts', await engineTypes(sdl, operations, schemas, model.templates, model.rootTemplates, model.mutationTemplates));
  say('writing report.html');
  files.set('report.html', reportHtml(model));
  const summary = { tables: Object.keys(model.tables).length, roles: model.roles.length, rootFields };
  say('sharing text between roles (shared/)');
  const layout = storedLayout(files, input.layout?.poolSchemasOver, input.layout?.deltaStatementsOver);
  const manifestText = manifest(input, model, layout, summary, stored.manifest, remotes);
  files.set('manifest.json', manifestText);
  layout.files.set('manifest.json', manifestText);
  const sorted = new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { model, sdl, schemas, files: sorted, stored: layout.files, inconsistencies, summary };
}

/**
 * The role's filter on the root field's table as the template engine.mjs holds and the statement
 * below completes (slots in braces); nothing for a role that reads every row.
 */
function permissionHeader(model: BundleModel, role: string, table: string, rules: readonly PermissionRule[] = ['select']): string[] {
  return rules.flatMap((rule) => {
    const t = model.templates?.roles[role]?.[table]?.[rule];
    return t ? [`-- ${RULE_NAMES[rule]} (precompiled in engine.mjs): ${templateText(t)}`] : [];
  });
}

/**
 * The root field's template as engine.mjs holds it and the statement below completes it (slots in
 * braces); null where the field has none (the permission's filter is shown instead).
 */
function rootTemplateHeader(model: BundleModel, role: string, field: string, kind: RootField['kind']): string[] | null {
  const t = model.rootTemplates?.roles[role]?.[field];
  if (!t) return null;
  return ['-- template (precompiled in engine.mjs; the statement completes it with the request\'s selection and arguments):',
    ...rootTemplateLines(t, { limit: kind !== 'select_by_pk', aggregations: kind === 'select_aggregate' || kind === 'function_aggregate' }).map((line) => `--   ${line}`)];
}

/**
 * A mutation root field's template as engine.mjs holds it and the statement below completes it
 * (slots in braces); null where the field has none (the permission's predicates are shown instead).
 */
function mutationTemplateHeader(model: BundleModel, role: string, field: string): string[] | null {
  const t = model.mutationTemplates?.roles[role]?.[field];
  if (!t) return null;
  return ['-- template (precompiled in engine.mjs; the statement completes it with the request\'s arguments and selection):',
    ...mutationTemplateLines(t).map((line) => `--   ${line}`)];
}

const RULE_NAMES: { readonly [rule in PermissionRule]: string } = {
  select: 'permission', insertCheck: 'insert check', updateFilter: 'update filter', updateCheck: 'update check', deleteFilter: 'delete filter',
};

/** The predicates of the role's write permission a mutation root field's statement completes. */
const WRITE_RULES: { readonly [kind in MutationKind]: readonly PermissionRule[] } = {
  insert: ['insertCheck'], insert_one: ['insertCheck'],
  update: ['updateFilter', 'updateCheck'], update_by_pk: ['updateFilter', 'updateCheck'], update_many: ['updateFilter', 'updateCheck'],
  delete: ['deleteFilter'], delete_by_pk: ['deleteFilter'],
  // A function exposed as a mutation reads its rows through the select permission.
  function: ['select'],
};

// `album_by_pk` -> `AlbumByPk`: the operation (and so the generated type) named after its root field.
function operationName(field: string): string {
  return field.split('_').filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('') || 'Root';
}

function manifest(input: BundleInput, model: BundleModel, layout: StoredLayout, summary: Bundle['summary'],
  persisted: readonly PersistedManifestEntry[], remoteSchemas: { readonly [name: string]: { file: string; sha256: string } }): string {
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
    schemas: layout.schemas,
    ...(Object.keys(remoteSchemas).length > 0 ? { remoteSchemas } : {}),
    files: Object.fromEntries([...layout.files.keys()].sort().map((f) => [f, sha256(layout.files.get(f)!)])),
  };
  return manifestJson(doc);
}

// manifest.json one entry a line (a role's root fields, a file's sha256), without the nesting's
// indentation: at 1,000 tables x 20 roles the indented form was 5 MB, a fifth of it spaces.
function manifestJson(doc: { readonly [key: string]: unknown }): string {
  const entries = Object.entries(doc).map(([key, value]) => {
    const inner = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : null;
    if (!inner || inner.length === 0) return `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return `${JSON.stringify(key)}: {\n${inner.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}`;
  });
  return `{\n${entries.join(',\n')}\n}\n`;
}

/** Writes a bundle to `dir`, replacing what an earlier compile left there. */
export async function writeBundle(dir: string, bundle: Bundle): Promise<void> {
  for (const sub of ['schema', 'sql', 'persisted', 'shared', 'remote', 'engine.json']) await rm(join(dir, sub), { recursive: true, force: true });
  const made = new Set<string>();
  for (const [path, content] of bundle.stored) {
    const full = join(dir, path);
    if (!made.has(dirname(full))) {
      await mkdir(dirname(full), { recursive: true });
      made.add(dirname(full));
    }
    await writeFile(full, content);
  }
}
