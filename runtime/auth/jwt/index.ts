/** JWT mode as an Authenticator (one or several secrets). */
export { createJwtAuthenticator, tokenAt, type JwtAuthenticator } from './authenticator.js';
/** Parsing and validating SVC_GRAPHQL_JWT_SECRET(S). */
export { parseJwtConfig, parseJwtConfigList, DEFAULT_CLAIMS_NAMESPACE, type JwtConfig, type JwtKeyType, type ClaimsSource,
  type ClaimsMapValue, type TokenLocation, type JwtKeySpec } from './config.js';
/** One secret's verifier (signature, time, audience, issuer, claims; cached until expiry). */
export { JwtVerifier, type JwtVerifierOptions } from './verify.js';
/** A JWK set fetched from `jwk_url` and its refresh schedule (spec part A 5.2). */
export { RemoteJwkSet, jwkRefreshDelay, type JwkCacheHeaders, type RefreshPhase } from './jwk-set.js';
/** The service claims of a verified token. */
export { claimsOf, type TokenClaims } from './claims.js';
/** JSON paths of claims_namespace_path and claims_map. */
export { parseJsonPath, readJsonPath, type JsonPathSegments } from './json-path.js';
