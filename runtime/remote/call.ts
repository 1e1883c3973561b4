// Running one remote call of a plan (an HttpStep) and reading its answer: the data object it
// gives, and its errors as the client sees them (with their `path` and `extensions`).

import type { Session } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import type { HttpStep } from '../sql/index.js';
import type { RemoteDefinition } from './definition.js';
import { postGraphql, remoteHeaders, RemoteFailure, type ClientHeaders } from './http.js';

/** What a remote answered: its data (null when it gave none) and its errors. */
export interface RemoteAnswer {
  readonly data: { readonly [key: string]: unknown } | null;
  readonly errors: readonly unknown[];
}

/** The values a step's variable slots take from the request. */
export function stepVariables(step: HttpStep, variables: { readonly [k: string]: unknown }, session: Session | null = null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, slot] of Object.entries(step.variables)) {
    if (slot.kind === 'variable') {
      if (variables[slot.name] !== undefined) out[name] = variables[slot.name];
    } else if (slot.kind === 'literal') out[name] = slot.value;
    else out[name] = session?.variables[slot.name] ?? (slot.name === 'x-svc-role' ? session?.role ?? null : null);
  }
  return out;
}

/**
 * Sends one step to its remote. An HTTP failure (unreachable, timeout, not JSON, not 2xx) is an
 * ApiError `remote-schema-error`; errors in a GraphQL answer are returned with it. The answer's
 * Set-Cookie values go to `cookies` when given.
 */
export async function callRemote(def: RemoteDefinition, step: HttpStep, values: { readonly [k: string]: unknown }, session: Session,
  client: ClientHeaders | null, operationName: string | null, cookies?: string[]): Promise<RemoteAnswer> {
  const body = JSON.stringify({ query: step.body, variables: values, ...(operationName ? { operationName } : {}) });
  let answer: unknown;
  try {
    answer = await postGraphql(def, remoteHeaders(def, session, client), body, cookies);
  } catch (e) {
    if (e instanceof RemoteFailure) throw new ApiError('remote-schema-error', e.message, 400, [], e.internal);
    throw e;
  }
  const a = answer as { data?: unknown; errors?: unknown } | null;
  if (a === null || typeof a !== 'object' || Array.isArray(a) || (!('data' in a) && !('errors' in a))) {
    throw new ApiError('remote-schema-error', 'Invalid response from the remote server: "data" or "errors" expected', 400, []);
  }
  const data = a.data !== null && typeof a.data === 'object' && !Array.isArray(a.data) ? a.data as Record<string, unknown> : null;
  return { data, errors: Array.isArray(a.errors) ? a.errors : a.errors === undefined ? [] : [a.errors] };
}
