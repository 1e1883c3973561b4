// Query collections checked against the admin schema (spec part A 2.9): every query must be
// valid; one that is not makes its collection entry inconsistent, worded as Hasura words it
// (naming the REST endpoints that serve it).

import { GraphQLError, parse, validate, type GraphQLSchema } from 'graphql';
import type { Json } from '../../runtime/bundle/index.js';
import type { InconsistentObject } from '../model/index.js';

export interface CollectionUse {
  /** `{name, definition: {queries: [{name, query}]}}` entries of `query_collections`. */
  readonly collections: readonly { readonly name: string; readonly queries: readonly { readonly name: string; readonly query: string }[] }[];
  /** Names of the collections in the allow-list. */
  readonly allowlisted: ReadonlySet<string>;
  /** REST endpoints by the (collection, query) they serve. */
  readonly endpoints: readonly { readonly name: string; readonly collection: string; readonly query: string }[];
}

/** The inconsistent queries of every collection (spec part A 2.9: queries are validated against the schema). */
export function validateCollections(use: CollectionUse, admin: GraphQLSchema): InconsistentObject[] {
  const out: InconsistentObject[] = [];
  for (const c of use.collections) {
    const served = use.endpoints.filter((e) => e.collection === c.name);
    for (const q of c.queries) {
      const errors = queryErrors(q.query, admin);
      if (errors.length === 0) continue;
      const endpoints = served.filter((e) => e.query === q.name).map((e) => JSON.stringify(e.name));
      const tail = endpoints.length > 0 ? `. This query is being used in the following REST endpoint(s): ${endpoints.join(', ')}` : '';
      out.push({
        type: 'query_collections',
        name: `query_collections ${q.name} in ${c.name}`,
        definition: { name: q.name, query: q.query } as Json,
        reason: `Inconsistent object: In query collection ${JSON.stringify(c.name)} the query ${JSON.stringify(q.name)} is invalid with the following error(s): ${errors.map((e) => JSON.stringify(e)).join(', ')}${tail}`,
      });
    }
  }
  return out;
}

function queryErrors(text: string, schema: GraphQLSchema): string[] {
  let doc;
  try {
    doc = parse(text);
  } catch (e) {
    return [e instanceof GraphQLError ? e.message : String(e)];
  }
  // `@cached(ttl)` is Hasura's query-caching directive: accepted (and a no-op) wherever it appears.
  return validate(schema, doc).filter((e) => !/^Unknown directive "@cached"/.test(e.message)).map((e) => hasuraWording(e, schema));
}

// Hasura names a missing root field this way; other problems keep graphql-js's words.
function hasuraWording(e: GraphQLError, schema: GraphQLSchema): string {
  const m = /^Cannot query field "([^"]+)" on type "([^"]+)"/.exec(e.message);
  const roots = [schema.getQueryType()?.name, schema.getMutationType()?.name, schema.getSubscriptionType()?.name];
  if (m && roots.includes(m[2])) return `Couldn't find field ${m[1]} in root field ${m[2]}`;
  return e.message;
}

/**
 * REST endpoints whose stored query cannot be resolved: its collection or query is missing, or it
 * is a subscription. Each is an inconsistent object, as Hasura's resolveEndpoint records it while
 * building (`Inconsistent object: in endpoint e: collection with name c does not exist`), so
 * dropping the collection or query an endpoint serves is a newly found inconsistency.
 */
export function unresolvedEndpoints(md: { readonly query_collections?: readonly Json[]; readonly rest_endpoints?: readonly Json[] }): InconsistentObject[] {
  const out: InconsistentObject[] = [];
  const collections = collectionUse(md).collections;
  for (const e of list(md.rest_endpoints as Json)) {
    const name = str(obj(e)?.['name']);
    const ref = obj(obj(obj(e)?.['definition'])?.['query']);
    const collection = str(ref?.['collection_name']);
    const query = str(ref?.['query_name']);
    if (name === null || collection === null || query === null) continue;
    const why = unresolved(collections, collection, query);
    if (why === undefined) continue;
    // Shown as Hasura encodes the endpoint: its comment always there, null when it has none.
    const definition = { ...obj(e), comment: obj(e)?.['comment'] ?? null } as Json;
    out.push({ type: 'rest_endpoint', name: `rest_endpoint ${name}`, definition, reason: `Inconsistent object: in endpoint ${name}: ${why}` });
  }
  return out;
}

function unresolved(collections: CollectionUse['collections'], collection: string, query: string): string | undefined {
  const c = collections.find((x) => x.name === collection);
  if (c === undefined) return `collection with name ${collection} does not exist`;
  const q = c.queries.find((x) => x.name === query);
  if (q === undefined) return `query with name ${query} does not exist within collection ${collection}`;
  let doc;
  try {
    doc = parse(q.query);
  } catch {
    return undefined; // the query's own inconsistency says what is wrong with it
  }
  return doc.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'subscription')
    ? `query with name ${query} is a subscription` : undefined;
}

type Obj = { readonly [k: string]: Json | undefined };
const obj = (v: Json | undefined): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : null);
const list = (v: Json | undefined): readonly Json[] => (Array.isArray(v) ? v : []);
const str = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);

/** What the metadata document's `query_collections`, `allowlist` and `rest_endpoints` say (already validated). */
export function collectionUse(md: { readonly query_collections?: readonly Json[]; readonly allowlist?: readonly Json[]; readonly rest_endpoints?: readonly Json[] }): CollectionUse {
  const collections = list(md.query_collections as Json).flatMap((c) => {
    const name = str(obj(c)?.['name']);
    if (name === null) return [];
    const queries = list(obj(obj(c)?.['definition'])?.['queries']).flatMap((q) => {
      const n = str(obj(q)?.['name']);
      const t = str(obj(q)?.['query']);
      return n !== null && t !== null ? [{ name: n, query: t }] : [];
    });
    return [{ name, queries }];
  });
  const allowlisted = new Set(list(md.allowlist as Json).map((a) => str(obj(a)?.['collection'])).filter((n): n is string => n !== null));
  const endpoints = list(md.rest_endpoints as Json).flatMap((e) => {
    const q = obj(obj(obj(e)?.['definition'])?.['query']);
    const name = str(obj(e)?.['name']);
    const collection = str(q?.['collection_name']);
    const query = str(q?.['query_name']);
    return name !== null && collection !== null && query !== null ? [{ name, collection, query }] : [];
  });
  return { collections, allowlisted, endpoints };
}
