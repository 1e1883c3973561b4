/** The contract with the compiler the command line wires in. */
export type * from './contract.js';
/** The metadata API: /v1/metadata, /v1/query, /v2/query over the svc_catalog store. */
export { MetadataApi, type MetadataApiOptions, type ManagementCall, type ServedState } from './api.js';
/** The change channel and the catalog layout version. */
export { METADATA_CHANNEL, CATALOG_VERSION } from './catalog.js';
/** Creates pgcrypto when the database allows it, as Hasura's catalog does (its projects' migrations call public.gen_random_uuid()). */
export { ensurePgcrypto } from './catalog.js';
/** Hasura's refusal of an operation type an API does not have (the compiler's operations answer it too). */
export { unknownOperation } from './unknown-operation.js';
