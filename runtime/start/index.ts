/** Serves a fixed model (a bundle, or one compiled in process): HTTP, WebSocket, workers, auth. */
export { serveModel, type ModelOrigin, type ServableModel, type SourceOpener } from './serve-model.js';
/** Serves the metadata in svc_catalog, with the metadata API compiling on write through the compiler given. */
export { serveCatalog, type CatalogServing } from './serve-catalog.js';
/** Settings of a served instance and what a started server hands back. */
export { type ServeSettings, type RunningServer, type Log } from './settings.js';
/** The serving flags shared by `kiln serve` and `kiln-runtime`, and the signal handling both use. */
export { addServeFlags, stopOnSignals } from './flags.js';
/** The `kiln-runtime` command line, and the error printing both command lines share. */
export { runtimeMain, runtimeCli, exitOnError } from './runtime-main.js';
/** Command-line input checked before anything starts (numbers, JSON, URLs, paths), exit 2 on a bad value. */
export { checkServeInput, checkCompileInput, checkIntrospectInput, checkInspectInput, type RawServeInput } from './input-check.js';
/** A start-up problem with its exit code, and URL redaction for messages. */
export { StartError, redact } from './start-error.js';
/** Authentication from the flags and SVC_GRAPHQL_* (JWT, webhook, admin secrets). */
export { serverAuth, type AuthFlags, type ServerAuth } from './auth-config.js';
/** The embedded demo database and the demo fixture's files. */
export { openEmbedded, demoFixture, packageRoot } from './embedded.js';
/** The engine version written into bundles and answered by /v1/version. */
export { KILN_VERSION } from './version.js';
