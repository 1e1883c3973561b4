/** Every error code a client may see on the wire (spec part A §7 and reference/errors.md). */
export type ErrorCode =
  | 'validation-failed' | 'parse-failed' | 'invalid-json' | 'constraint-violation' | 'data-exception'
  | 'permission-error' | 'permission-denied' | 'access-denied' | 'invalid-jwt' | 'jwt-invalid-claims'
  | 'jwt-missing-role-claims' | 'invalid-headers' | 'not-supported' | 'not-exists' | 'not-found'
  | 'already-exists' | 'already-tracked' | 'already-untracked' | 'dependency-error'
  | 'unexpected-payload' | 'invalid-params' | 'invalid-configuration' | 'bad-request' | 'conflict'
  | 'method-not-allowed' | 'remote-schema-error' | 'remote-schema-conflicts' | 'invalid-role-based-remote-schema' | 'cyclic-dependency'
  | 'coercion-error' | 'busy' | 'start-failed' | 'postgres-error' | 'postgres-max-connections-error'
  | 'mssql-error' | 'bigquery-error' | 'already-initialised' | 'constraint-error' | 'unexpected'
  // API limits (set_api_limits): rate_limit and time_limit.
  | 'too-many-requests' | 'time-limit-exceeded';
