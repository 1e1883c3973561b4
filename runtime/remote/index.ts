// Remote schemas (spec part A 2.7, reference/remote.md): introspection, stitching into the role's
// schema, splitting operations into SQL and remote calls (HttpStep of the plan IR), and the calls.

/** Remote schema definitions as stored in the metadata document. */
export { remoteDefinitions, DEFAULT_TIMEOUT_SECONDS, type RemoteDefinition, type RemoteInconsistency, type RemoteCustomization, type RemoteHeader, type RemoteSchemaRelationship } from './definition.js';
/** POSTs to a remote server: headers (configured, forwarded, session), time limit, size cap. */
export { postGraphql, remoteHeaders, remoteUrl, RemoteFailure, MAX_REMOTE_RESPONSE_BYTES, type ClientHeaders } from './http.js';
/** Introspecting a remote server. */
export { introspectRemote, snapshotOf, type RemoteSnapshot } from './introspect.js';
/** The introspection cache and the servable remotes of a document, with their inconsistencies. */
export { RemoteIntrospections, serveRemotes } from './catalog.js';
/** The remotes a served model has: per-role views, stitched schema text, root field owners. */
export { RemoteServing } from './serving.js';
/** Stitching remote views into a schema text. */
export { stitchSdl, type StitchConflict } from './stitch.js';
/** Splitting an operation between SQL and remote calls. */
export { splitOperation, type SplitOperation, type RemotePart, type RootOwner } from './split.js';
/** Running remote calls and merging their answers. */
export { runRemoteParts, mergeAnswers } from './answer.js';
/** One remote call. */
export { callRemote, stepVariables, type RemoteAnswer } from './call.js';
/** A remote schema as the client sees it (customized names, root fields). */
export { remoteView, type RemoteView } from './view.js';
/** Remote relationship fields: their path in the remote schema and their place in a role's schema. */
export { remoteFieldPath, leafField, addRelationshipFields, remoteRelationshipProblem } from './relationship-fields.js';
/** `@preset`s of remote schema permissions, filled into a call. */
export { applyPresets, presetValues, type Presets, type WithPresets } from './presets.js';
/** Remote schema permissions: a role's restricted schema. */
export { restricted } from './permissions.js';
/** Remote schemas in a compiled bundle: their SDL as introspected at compile time, read back into snapshots. */
export { bundledIntrospections, remoteSdl, snapshotFromSdl } from './bundled.js';
/** A remote relationship's call in the remote's names (customized remotes), and `__typename`s back in the client's. */
export { relationshipToRemoteNames, typenamesToClient } from './rename.js';
/** Relationships from a remote's types to tables: their fields taken out of a call, their rows joined after. */
export { stripSchemaJoins, stripSchemaJoinsIn, type SchemaJoin, type SchemaJoinSite } from './schema-joins.js';

// A remote call written as Hasura writes it.
export { hasuraPrint } from './hasura-print.js';
