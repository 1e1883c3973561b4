/** The engine version written into bundles and answered by /v1/version (the runtime's). */
export { KILN_VERSION } from '../../runtime/index.js';
