/** The canonical metadata document and its parts (the export shape of version 3). */
export type * from './types.js';
/** Reads a metadata document of any accepted shape (v3, the v2 export wrapper, versions 1 and 2) into the canonical form, with every problem found. */
export { parseMetadata } from './parse.js';
/** Loads metadata from a JSON/YAML file or a Hasura CLI metadata directory, following `!include`. */
export { loadMetadata } from './load.js';
/** Where a source's database is: a literal URL, the environment variable that holds it, or null. */
export { databaseUrl, type ResolvedDatabaseUrl } from './database-url.js';
/** A source's `configuration.read_replicas`: each replica's URL and pool settings. */
export { readReplicas, type ReadReplica } from './read-replicas.js';
