import type { ErrorCode } from './codes.js';

export type JsonPath = readonly (string | number)[];

/** An error a client may see: a wire code, a message, an HTTP status and a JSON path. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status = 400,
    readonly path: JsonPath = [],
    readonly internal?: unknown,
  ) {
    super(message);
  }

  /** A copy with `key` in front of the path: callers add their own key while the error bubbles up. */
  at(...keys: (string | number)[]): ApiError {
    return new ApiError(this.code, this.message, this.status, [...keys, ...this.path], this.internal);
  }
}

/** Formats a path the way Hasura does: `$.args.table`, `$.objects[0].name`, `$[1]`. */
export function formatPath(path: JsonPath): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(key).replace(/^"|"$/g, "'")}]`;
  }
  return out;
}

/** The GraphQL error body `{message, extensions: {path, code}}`. */
export function graphqlErrorBody(e: ApiError): { message: string; extensions: { path: string; code: ErrorCode } } {
  return { message: e.message, extensions: { path: formatPath(e.path), code: e.code } };
}

/** The management-API error body `{path, error, code}`. */
export function managementErrorBody(e: ApiError): { path: string; error: string; code: ErrorCode } {
  return { path: formatPath(e.path), error: e.message, code: e.code };
}

/** Asserts an invariant of the program itself (not of user input). */
export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}
