/** Resolves the session of a request (admin secret, authenticators, unauthorized role). */
export { resolveSession, normalizeHeaders, ADMIN_ROLE, ROLE_HEADER } from './session.js';
/** The session when the headers alone decide it (null: the POST auth webhook must see the body first). */
export { resolveSessionBeforeBody, sessionAtOnce } from './session.js';
/** The option and plug-in types of session resolution (JWT and webhook modes implement Authenticator). */
export type { AuthOptions, Authenticator, AuthRequest, RequestHeaders, NormalizedHeaders } from './session.js';
/** Constant-time admin-secret comparison. */
export { adminSecretMatches } from './admin-secret.js';
/** JWT mode (jose): secrets, verification with a token cache, JWK sets refreshed by their cache headers. */
export { createJwtAuthenticator, parseJwtConfig, parseJwtConfigList, JwtVerifier, RemoteJwkSet, jwkRefreshDelay, claimsOf,
  DEFAULT_CLAIMS_NAMESPACE, type JwtAuthenticator, type JwtConfig, type JwtKeyType, type TokenClaims, type JwkCacheHeaders,
  type RefreshPhase } from './jwt/index.js';
/** Auth webhook mode. */
export { createWebhookAuthenticator, parseWebhookMode, sessionResponseHeaders, type WebhookAuthenticator, type WebhookMode,
  type WebhookOptions, type WebhookLogEntry } from './webhook/index.js';
/** When a session expires (JWT `exp`, webhook Expires): long-lived connections close then. */
export { sessionExpiresAt, markSessionExpiry } from './session-expiry.js';
