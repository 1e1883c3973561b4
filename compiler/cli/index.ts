/** The `kiln` command line (nothing imports it; bin/kiln.mjs runs it). */
export { main, cli } from './main.js';
