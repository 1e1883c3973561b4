/** The compiler behind the metadata API's contract: edits, introspection and the compile pipeline, wired in by `kiln serve`. */
export { metadataCompiler } from './metadata-compiler.js';
