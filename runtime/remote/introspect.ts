// Introspecting a remote server: the standard introspection query, POSTed with the configured
// headers, read back into a client schema. A failure is a reason, reported as Hasura reports an
// inconsistent remote schema.

import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import type { RemoteDefinition } from './definition.js';
import { introspectionProblem } from './introspection-check.js';
import { postGraphql, remoteHeaders, RemoteFailure } from './http.js';

/** A remote's introspection: its schema, or why it could not be read. */
export type RemoteSnapshot =
  | { readonly kind: 'ok'; readonly def: RemoteDefinition; readonly introspection: IntrospectionQuery; readonly schema: GraphQLSchema }
  | { readonly kind: 'failed'; readonly def: RemoteDefinition; readonly reason: string };

const QUERY = JSON.stringify({ query: getIntrospectionQuery() });

/** Introspects one remote server (never throws: a failure is a `failed` snapshot). */
export async function introspectRemote(def: RemoteDefinition): Promise<RemoteSnapshot> {
  let answer: unknown;
  try {
    answer = await postGraphql(def, remoteHeaders(def, null, null), QUERY);
  } catch (e) {
    return { kind: 'failed', def, reason: e instanceof RemoteFailure ? e.message : String(e) };
  }
  return snapshotOf(def, answer);
}

/** Reads an introspection answer (`{data: {__schema}}`) into a snapshot. */
export function snapshotOf(def: RemoteDefinition, answer: unknown): RemoteSnapshot {
  const a = answer as { data?: unknown; errors?: unknown } | null;
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return { kind: 'failed', def, reason: 'introspection query to remote schema failed: not a JSON object' };
  if (Array.isArray(a.errors) && a.errors.length > 0) {
    const first = a.errors[0] as { message?: unknown };
    return { kind: 'failed', def, reason: `introspection query to remote schema failed: ${typeof first?.message === 'string' ? first.message : JSON.stringify(first)}` };
  }
  try {
    const introspection = a.data as IntrospectionQuery;
    const problem = introspectionProblem(introspection?.__schema, def.customization);
    if (problem !== null) return { kind: 'failed', def, reason: problem };
    const schema = buildClientSchema(introspection);
    if (!schema.getQueryType()) return { kind: 'failed', def, reason: 'invalid remote schema: query root type not found' };
    return { kind: 'ok', def, introspection, schema };
  } catch (e) {
    return { kind: 'failed', def, reason: `invalid remote schema: ${e instanceof Error ? e.message : String(e)}` };
  }
}
