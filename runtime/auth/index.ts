/** Resolves the session of a request (admin secret, authenticators, unauthorized role). */
export { resolveSession, normalizeHeaders, ADMIN_ROLE, ROLE_HEADER } from './session.js';
/** The option and plug-in types of session resolution (JWT and webhook modes implement Authenticator). */
export type { AuthOptions, Authenticator, AuthRequest, RequestHeaders, NormalizedHeaders } from './session.js';
/** Constant-time admin-secret comparison. */
export { adminSecretMatches } from './admin-secret.js';
