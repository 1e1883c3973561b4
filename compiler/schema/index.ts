/** Builds the GraphQL schema each role sees, with Hasura v2's names. */
export { buildRoleSchema, buildRoleSchemas, printRoleSchema, printSchemas, schemaInputs } from './role-schema.js';
/** Query collections in use (allow-list, REST endpoints) checked against the admin schema. */
export { validateCollections, collectionUse, unresolvedEndpoints, type CollectionUse } from './collections.js';
/** Converts a literal inside a custom scalar to JSON, keeping exact numbers as text. */
export { literalValue } from './scalars.js';
