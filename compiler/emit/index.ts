/** Compiles metadata + introspection into bundle files, and writes them. */
export { buildBundle, writeBundle, type Bundle, type BundleInput } from './bundle.js';
