// REST endpoints: `create_rest_endpoint`, `drop_rest_endpoint` (Hasura.RQL.DDL.Endpoint). The
// checks Hasura makes while building its schema cache (the query reference, the URL template,
// ambiguity with other endpoints) are made here and answered as Hasura answers them: 400
// `invalid-configuration` at `$.args` with the inconsistent objects in `internal`
// (corpus: endpoints/endpoint_*).

import { ApiError, ArgsReader, asNonEmpty, asString, type JsonObject, parseFailed } from '../../../runtime/errors/index.js';
import type { Json, Metadata } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { created, dropped, findBy, listOf, removeBy, withList } from './document.js';
import { isSubscription } from './graphql-text.js';
import { findCollection, queriesOf } from './query-collections.js';
import { duplicateVariables, invalidSegments, overlaps } from './url-template.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

function readMethods(r: ArgsReader): string[] {
  const list = asNonEmpty(r.required('methods'), r.at('methods'));
  return list.map((m, i) => {
    if (typeof m !== 'string') throw parseFailed([...r.at('methods'), i], 'Only standard HTTP methods supported');
    if (!METHODS.includes(m)) throw parseFailed([...r.at('methods'), i], `Method ${m} not supported.`);
    return m;
  });
}

/** CreateEndpoint: `{name, url, methods, definition: {query: {collection_name, query_name}}, comment}`. */
export function readEndpoint(r: ArgsReader): JsonObject {
  const name = r.name('name');
  const url = r.name('url');
  const methods = readMethods(r);
  const ref = r.object('definition').object('query');
  const collectionName = ref.name('collection_name');
  const queryName = ref.name('query_name');
  const comment = r.has('comment') ? asString(r.value['comment'], r.at('comment')) : null;
  return { name, url, methods, definition: { query: { collection_name: collectionName, query_name: queryName } }, comment };
}

function refOf(e: JsonObject): { collection: string; query: string } {
  const ref = ((e['definition'] as JsonObject | undefined)?.['query'] ?? {}) as JsonObject;
  return { collection: String(ref['collection_name']), query: String(ref['query_name']) };
}

/** The query text an endpoint names, or the reason it cannot be resolved. */
function resolveQuery(md: Metadata, e: JsonObject): { text: string } | { reason: string } {
  const { collection, query } = refOf(e);
  const coll = findCollection(md, collection);
  if (coll === undefined) return { reason: `collection with name ${collection} does not exist` };
  const lq = queriesOf(coll).find((x) => x['name'] === query);
  if (lq === undefined) return { reason: `query with name ${query} does not exist within collection ${collection}` };
  const text = String(lq['query']);
  if (isSubscription(text)) return { reason: `query with name ${query} is a subscription` };
  return { text };
}

function inconsistent(e: JsonObject, reason: string): ApiError {
  const internal = [{ definition: e, reason, name: `rest_endpoint ${String(e['name'])}`, type: 'rest_endpoint' }];
  return new ApiError('invalid-configuration', reason, 400, ['args'], internal);
}

/** Endpoints sharing a method whose templates overlap with `e`'s: Hasura's "Ambiguous URL paths". */
function ambiguity(md: Metadata, e: JsonObject, others: readonly JsonObject[]): ApiError | undefined {
  const methods = e['methods'] as string[];
  const clash = others.filter((o) => Array.isArray(o['methods'])
    && (o['methods'] as Json[]).some((m) => methods.includes(m as string))
    && overlaps(String(o['url']), String(e['url'])));
  if (clash.length === 0) return undefined;
  const all = [e, ...clash].sort((a, b) => (String(a['url']) < String(b['url']) ? -1 : String(a['url']) > String(b['url']) ? 1 : 0));
  const reason = `Ambiguous URL paths: ${all.map((x) => String(x['url'])).join(', ')}`;
  const conflicts = all.map((x) => {
    const q = resolveQuery(md, x);
    return { definition: { query: 'text' in q ? q.text : null }, url: x['url'] as Json, methods: x['methods'] as Json, name: x['name'] as Json, comment: x['comment'] ?? null };
  });
  return new ApiError('invalid-configuration', reason, 400, ['args'], [{ reason, conflicts }]);
}

export const createRestEndpoint: OpHandler = (input) => {
  const endpoint = readEndpoint(ArgsReader.args(input));
  const name = endpoint['name'] as string;
  const url = endpoint['url'] as string;
  const existing = listOf(input.metadata, 'rest_endpoints');
  if (findBy(existing, 'name', name) !== undefined) {
    throw new ApiError('already-exists', `Endpoint with name: ${name} already exists`, 400, ['args']);
  }
  const q = resolveQuery(input.metadata, endpoint);
  if ('reason' in q) throw inconsistent(endpoint, `Inconsistent object: in endpoint ${name}: ${q.reason}`);
  const bad = invalidSegments(url) ?? duplicateVariables(url);
  if (bad !== undefined) throw inconsistent(endpoint, bad);
  const clash = ambiguity(input.metadata, endpoint, existing);
  if (clash !== undefined) throw clash;
  const md = withList(input.metadata, 'rest_endpoints', [...existing, endpoint]);
  return created(md, 'rest_endpoint', `rest_endpoint ${name}`);
};

export const dropRestEndpoint: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('name');
  const existing = listOf(input.metadata, 'rest_endpoints');
  if (findBy(existing, 'name', name) === undefined) {
    throw new ApiError('not-exists', `endpoint with name: ${name} does not exist`, 400, ['args']);
  }
  return dropped(withList(input.metadata, 'rest_endpoints', removeBy(existing, 'name', name)), false);
};
