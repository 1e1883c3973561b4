// Hasura's one wording for an environment variable it needs and does not find (`getEnv`,
// `getUrlFromEnv`, `getHeadersFromConf`): the name in single quotes.

import { ApiError } from './api-error.js';

/** `environment variable 'X' not set`. */
export function unsetVariableReason(name: string): string {
  return `environment variable '${name}' not set`;
}

/** The refusal getEnv throws: 400 `not-found` with that reason. */
export function unsetVariable(name: string): ApiError {
  return new ApiError('not-found', unsetVariableReason(name), 400, []);
}
