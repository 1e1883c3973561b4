// The runtime's front door: what starts a server. Everything else in runtime/ is reached through
// its own folder; the command lines (`kiln`, `kiln-runtime`) import this file.

/** Starts serving a bundle (or a model compiled in process): HTTP, WebSocket, workers, auth from SVC_GRAPHQL_*. */
export { serveModel, type ModelOrigin, type ServableModel, type SourceOpener } from './start/index.js';
/** Starts serving the metadata in svc_catalog; the compiler comes in through the metadata API's contract. */
export { serveCatalog, type CatalogServing } from './start/index.js';
/** Settings and the running server. */
export { type ServeSettings, type RunningServer, type Log } from './start/index.js';
/** The serving flags of both command lines, the `kiln-runtime` command, and shared error printing. */
export { addServeFlags, stopOnSignals, runtimeMain, runtimeCli, exitOnError } from './start/index.js';
/** Command-line input checks shared by `kiln` and `kiln-runtime`. */
export { checkServeInput, checkCompileInput, checkIntrospectInput, checkInspectInput, type RawServeInput } from './start/index.js';
/** Start-up errors, URL redaction, authentication settings, the embedded demo database, the version. */
export {
  StartError, redact, serverAuth, type AuthFlags, type ServerAuth, openEmbedded, demoFixture, packageRoot, KILN_VERSION,
} from './start/index.js';
