// GraphQL query text stored in query collections. Hasura parses it while reading the request
// (GQLQueryWithText) and rejects a syntax error with "not a valid graphql query"; its validation
// against the schema happens when the document is compiled.

import { parse, type DocumentNode } from 'graphql';
import { asString, type JsonPath, parseFailed } from '../../../runtime/errors/index.js';

export function parseQueryText(text: string): DocumentNode | undefined {
  try {
    return parse(text, { noLocation: true });
  } catch {
    return undefined;
  }
}

/** The query text at `path`, parsed: `parse-failed` "not a valid graphql query" on a syntax error. */
export function readQueryText(v: unknown, path: JsonPath): string {
  const text = asString(v, path);
  if (parseQueryText(text) === undefined) throw parseFailed(path, 'not a valid graphql query');
  return text;
}

/** True when the document's (single) operation is a subscription. */
export function isSubscription(text: string): boolean {
  const doc = parseQueryText(text);
  if (doc === undefined) return false;
  return doc.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'subscription');
}
