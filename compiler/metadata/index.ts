/** The canonical metadata document and its parts (the export shape of version 3). */
export type * from './types.js';
/** Reads a metadata document of any accepted shape (v3, the v2 export wrapper, versions 1 and 2) into the canonical form, with every problem found. */
export { parseMetadata } from './parse.js';
/** Hasura's refusal of inherited roles that form a cycle (400 cyclic-dependency). */
export { roleCycleError, inheritedRoles, type InheritedRole } from './role-cycles.js';
/** Loads metadata from a JSON/YAML file or a Hasura CLI metadata directory, following `!include`. */
export { loadMetadata } from './load.js';
/** The raw document a metadata file or directory assembles into, and the files it came from (for importers). */
export { readMetadataDocument, type MetadataDocument } from './load.js';
/** Where a source's database is: a literal URL, the environment variable that holds it, or null. */
export { databaseUrl, type ResolvedDatabaseUrl } from './database-url.js';
/** The shape (allowed keys) of every metadata object kind, and the check that refuses unknown and not-implemented keys. */
export { checkKeys, list, map, notImplemented, pick, rawShape, refusing, type ObjectShape, type Shape } from './strict-keys.js';
/** The shapes of the modelled metadata objects (typed against the metadata types). */
export * as metadataShapes from './shapes.js';
/** The shapes of the sections kept as raw JSON (actions, remote schemas, triggers...). */
export * as sectionShapes from './strict-sections.js';
/** A source's `configuration.read_replicas`: each replica's URL and pool settings. */
export { readReplicas, sourcePool, type Pool as PoolSettings, type ReadReplica } from './read-replicas.js';
