/** The engine version written into bundles and answered by /v1/version. */
export const KILN_VERSION = '0.1.0';
