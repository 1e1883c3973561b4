// The entry point scripts/build.mjs bundles into build/kiln-runtime.mjs (bin/kiln-runtime.mjs runs it).
import { runtimeMain } from './index.js';

await runtimeMain(process.argv);
