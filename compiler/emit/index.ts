/** The compile pipeline: resolve → schema → plans (compileModel, also the metadata API's compile on write) → emit (buildBundle). */
export { compileModel, type BundleInput, type CompiledModel, type RoleSchemas } from './pipeline.js';
/** Compiles metadata + introspection into bundle files, and writes them. */
export { buildBundle, writeBundle, type Bundle } from './bundle.js';
/** Query collections compiled whole per role, with the allow-list and REST endpoints (also for compile on write). */
export { compilePersisted, type CompiledPersisted, type PersistedManifestEntry } from './persisted.js';
/** Permission predicates and table names as people read them (report.html, `kiln diff`). */
export { filterText, mutationTemplateLines, rootTemplateLines, tableLabel } from './permission-text.js';
