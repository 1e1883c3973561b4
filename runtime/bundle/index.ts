/** The bundle contract between compiler and runtime. */
export type * from './model.js';
/** Actions and custom types in the bundle. */
export type * from './actions.js';
/** Any JSON value. */
export type { Json } from './json.js';
/** A table's GraphQL type name of one kind (`_bool_exp`, ...), with the source's prefix and suffix. */
export { typeNameOf } from './type-names.js';
/** Loads a compiled bundle directory. */
export { loadBundle, type LoadedBundle, type RemoteSchemaEntry } from './load.js';
/** A GraphQL request and the session it runs as (shared by auth, graphql and server). */
export type { GraphQLRequest, Session } from './request.js';
/** Stored layout of a bundle's text files: text several roles share is written once. */
export { contentHash, DELTA_SUFFIX, expandLayout, readLinks, remoteSdlFile, storedLayout, storedStatement, type StoredLayout } from './layout.js';
/** Where each definition of an SDL text sits, to build a role's schema a type at a time. */
export { indexSdl, membersOf, rangeOf, sdlFromFile, sdlFromText, type SdlIndex, type SdlSource } from './sdl-index.js';
/** A string as a flat copy shared by equal strings (not a slice of the text it was parsed from). */
export { flat } from './flat-string.js';
/** A role's permission predicates by rule (select filter, insert check, update filter and check, delete filter). */
export { PERMISSION_RULES, permissionRule } from './rules.js';
/** A role's schema and model as a trusted request with x-svc-use-backend-only-permissions sees them. */
export { backendOnlyModel, hasBackendOnly, trustedPermissions } from './backend-only.js';
/** Webhook URL templates (`{{NAME}}` from the environment): rendered when called, checked when defined. */
export { renderUrlTemplate, urlTemplateVariables } from './url-template.js';
