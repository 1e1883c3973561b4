/** The closed union of wire error codes. */
export type { ErrorCode } from './codes.js';
/** ApiError, path formatting and the two wire shapes of an error. */
export { ApiError, formatPath, graphqlErrorBody, managementErrorBody, assert, type JsonPath } from './api-error.js';
/** A JSON value's kind in Hasura's (aeson's) wording. */
export { jsonKind } from './json-kind.js';
/** The one reader of operation arguments (compiler edits, run_sql, v1 data, event operations), in aeson's wording. */
export {
  ArgsReader, parseFailed, mismatch, isObject, has, present, required, requiredField, optional, asObject, asArray, asNonEmpty, asString, asName,
  asBool, asInt, asNat, asGraphqlName, isGraphqlName, type JsonValue, type JsonObject,
} from './json-args.js';
/** The refusal of an unknown key (its path, a "did you mean" by edit distance) and the distance itself. */
export { editDistance, nearestKey, unknownKeyError, unknownKeyMessage } from './unknown-key.js';
/** An environment variable that is not set, in Hasura's words (`environment variable 'X' not set`). */
export { unsetVariable, unsetVariableReason } from './unset-variable.js';
/** aeson's `eitherDecode` message for a text that is not JSON. */
export { jsonDecodeError } from './json-decode-error.js';
