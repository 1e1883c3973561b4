// The compile pipeline, written once: resolve the metadata against the database catalog,
// precompile each role's permission predicates for its sources' dialects (the templates the
// planners serve from), build each role's schema, compile the plans of stored queries;
// `buildBundle` then emits the files.
// `kiln compile`, `kiln serve --metadata`, the metadata API on every write (through the compiler
// the command line wires in) and the tests all run these same stages.

import type { GraphQLSchema } from 'graphql';
import { backendOnlyModel, type BundleModel, type Json, type TemplatesModel } from '../../runtime/bundle/index.js';
import type { Introspection } from '../introspect/index.js';
import type { Metadata } from '../metadata/index.js';
import { resolveModel, type InconsistentObject, type ResolveReuse } from '../model/index.js';
import { buildRoleSchema, buildRoleSchemas, collectionUse, printRoleSchema, printSchemas, unresolvedEndpoints, validateCollections } from '../schema/index.js';
import { compileMutationTemplates, compileRootTemplates, compileTemplates, RootTemplatePool, type RoleTemplatesMemo } from '../sql/index.js';
import { compilePersisted, type CompiledPersisted } from './persisted.js';

export interface BundleInput {
  readonly metadata: Metadata;
  readonly introspection: { readonly [source: string]: Introspection };
  readonly engineVersion: string;
  readonly stringifyNumeric?: boolean;
  /** False: a function exposed as a query is shown only to roles with a function permission (default true). */
  readonly inferFunctionPermissions?: boolean;
  /**
   * Each remote schema's SDL as introspected for this compile, by remote name (`kiln compile`
   * fetches it; the bundle stores it in `remote/`). Absent: the bundle stores no remote schema.
   */
  readonly remoteSdl?: { readonly [name: string]: string };
  /**
   * Past how many bytes of distinct text the stored layout pools schema definitions and stores
   * statements as changes of each other (runtime/bundle layout.ts; defaults there). Tests set them low.
   */
  readonly layout?: { readonly poolSchemasOver?: number; readonly deltaStatementsOver?: number };
  /** Progress lines for long compiles. */
  readonly progress?: (line: string) => void;
  /**
   * How each role's schema and SDL are made (default: every schema built, then printed). The
   * metadata API passes one that reuses the previous compile's SDL and builds a schema only when
   * something asks for it (compiler/metadata-compiler, schema-cache.ts).
   */
  readonly roleSchemas?: (model: BundleModel) => RoleSchemas;
  /** How the permission predicates are precompiled (default: compileTemplates, every role); the metadata API's reuses unchanged roles'. */
  readonly templates?: (model: BundleModel) => TemplatesModel;
  /** Passed to resolveModel: reuse of earlier resolves' per-role results (the metadata API's compiles). */
  readonly reuse?: ResolveReuse;
  /** Each role's root and mutation templates from an earlier compile of the same inputs (the metadata API's; default: all made). */
  readonly roleTemplates?: RoleTemplatesMemo;
}

/** Each role's schema and SDL text (the schemas may be built when first read). */
export interface RoleSchemas {
  readonly schemas: { readonly [role: string]: GraphQLSchema };
  readonly sdl: () => { readonly [role: string]: string };
}

const buildAll = (model: BundleModel): RoleSchemas => {
  const schemas = buildRoleSchemas(model);
  // Roles that see the same schema share one object, printed once.
  return { schemas, sdl: () => printSchemas(model.roles, schemas) };
};

/** What the stages before emit produce: the served model, each role's schema, and what does not fit. */
export interface CompiledModel {
  readonly model: BundleModel;
  readonly sdl: { readonly [role: string]: string };
  readonly schemas: { readonly [role: string]: GraphQLSchema };
  /** Stored queries compiled whole per role (their files and manifest entries, for emit). */
  readonly stored: CompiledPersisted;
  readonly inconsistencies: readonly InconsistentObject[];
}

/** resolve → schema → plans: the model a metadata document compiles to (pure; no files). */
export function compileModel(input: BundleInput): CompiledModel {
  const say = input.progress ?? (() => {});
  say('resolving metadata against the database catalog');
  const infer = input.inferFunctionPermissions ?? true;
  const resolved = resolveModel(input.metadata, { engineVersion: input.engineVersion, introspection: input.introspection, ...(input.reuse ? { reuse: input.reuse } : {}),
    ...(infer ? {} : { inferFunctionPermissions: false }) });
  const resolvedModel: BundleModel = { ...resolved.value, options: { stringifyNumeric: input.stringifyNumeric ?? false, ...(infer ? {} : { inferFunctionPermissions: false }) } };
  say(`precompiling the permission predicates of ${resolvedModel.roles.length} role(s)`);
  const withTemplates: BundleModel = { ...resolvedModel, templates: (input.templates ?? compileTemplates)(resolvedModel) };
  const pool = new RootTemplatePool(withTemplates);
  const rootTemplates = compileRootTemplates(withTemplates, pool, input.roleTemplates);
  const mutationTemplates = compileMutationTemplates(withTemplates, pool, input.roleTemplates);
  const base: BundleModel = { ...withTemplates, ...(rootTemplates ? { rootTemplates } : {}), ...(mutationTemplates ? { mutationTemplates } : {}) };
  say(`building schemas for ${base.roles.length} role(s)`);
  const { schemas, sdl: printed } = (input.roleSchemas ?? buildAll)(base);
  // Stored queries compiled whole: the allow-list and REST endpoints run them.
  const stored = compilePersisted(input.metadata, base, schemas);
  const events = eventDefinitions(input.metadata);
  const remoteSchemas = remoteSchemaDefinitions(input.metadata.remote_schemas);
  const backendOnlySdl = backendOnlySchemas(base);
  const model: BundleModel = { ...base, ...(stored.persisted ? { persisted: stored.persisted } : {}), ...(events ? { events } : {}),
    ...(remoteSchemas ? { remoteSchemas } : {}), ...(backendOnlySdl ? { backendOnlySdl } : {}) };
  const sdl = printed();
  // Only stored queries need the admin schema (no collection: nothing to check, nothing built).
  const use = collectionUse(input.metadata);
  const queryIssues = use.collections.length > 0 && schemas['admin'] ? validateCollections(use, schemas['admin']) : [];
  return { model, sdl, schemas, stored, inconsistencies: [...resolved.inconsistencies, ...queryIssues, ...unresolvedEndpoints(input.metadata)] };
}

/**
 * The schema of each role with backend_only permissions as a trusted backend request sees it
 * (runtime/bundle/backend-only.ts); undefined when no role has one.
 */
function backendOnlySchemas(model: BundleModel): { [role: string]: string } | undefined {
  const out: { [role: string]: string } = {};
  for (const role of model.roles) {
    const trusted = backendOnlyModel(model, role);
    if (trusted) out[role] = printRoleSchema(buildRoleSchema(trusted, role));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The metadata's remote schemas as they are (secrets stay in the environment: `url_from_env`,
 * `value_from_env`; the runtime reads them when it calls). Absent when there are none.
 */
function remoteSchemaDefinitions(remoteSchemas: readonly Json[] | undefined): Json | undefined {
  return remoteSchemas && remoteSchemas.length > 0 ? [...remoteSchemas] : undefined;
}

/** The metadata's event and cron triggers alone (secrets stay in the environment: webhook_from_env, value_from_env). */
function eventDefinitions(md: Metadata): Json | undefined {
  const sources = md.sources.map((s) => ({
    name: s.name, kind: s.kind,
    tables: s.tables.filter((t) => (t.event_triggers ?? []).length > 0).map((t) => ({ table: t.table, event_triggers: t.event_triggers })),
  })).filter((s) => s.tables.length > 0);
  const cron = md.cron_triggers ?? [];
  if (sources.length === 0 && cron.length === 0) return undefined;
  return { version: 3, sources, ...(cron.length > 0 ? { cron_triggers: cron } : {}) } as unknown as Json;
}
