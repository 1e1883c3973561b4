// Query collections: create, rename, drop, add and drop one query (Hasura's
// Hasura.RQL.DDL.QueryCollection, messages and paths kept). Stored as
// `{name, definition: {queries: [{name, query}]}, comment?}`.

import { ApiError, ArgsReader, asArray, asName, type JsonObject } from '../../../runtime/errors/index.js';
import type { Json, Metadata } from '../../metadata/index.js';
import type { OpHandler, OpOutput } from '../types.js';
import { compact } from './compact.js';
import { dropped, findBy, listOf, removeBy, upsert, withList } from './document.js';
import { readQueryText } from './graphql-text.js';

const q = JSON.stringify;

export function findCollection(md: Metadata, name: string): JsonObject | undefined {
  return findBy(listOf(md, 'query_collections'), 'name', name);
}

/** The collection, or `not-exists` at `path` ("query collection with name \"c\" does not exist"). */
export function requireCollection(md: Metadata, name: string, path: readonly (string | number)[]): JsonObject {
  const c = findCollection(md, name);
  if (c === undefined) throw new ApiError('not-exists', `query collection with name ${q(name)} does not exist`, 400, path);
  return c;
}

export function queriesOf(collection: JsonObject): readonly JsonObject[] {
  const def = collection['definition'];
  const list = def !== null && typeof def === 'object' && !Array.isArray(def) ? def['queries'] : undefined;
  return Array.isArray(list) ? list.filter((x): x is JsonObject => x !== null && typeof x === 'object' && !Array.isArray(x)) : [];
}

/** `definition.queries` of a collection: each `{name, query}`, the query parsed as GraphQL. */
export function readQueries(r: ArgsReader): JsonObject[] {
  const def = r.object('definition');
  const list = asArray(def.required('queries'), def.at('queries'));
  return list.map((el, i) => {
    const item = ArgsReader.object(el, [...def.at('queries'), i]);
    return { name: item.name('name'), query: readQueryText(item.required('query'), item.at('query')) };
  });
}

function duplicates(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return [...dup];
}

function withCollections(md: Metadata, items: readonly Json[]): Metadata {
  return withList(md, 'query_collections', items);
}

export const createQueryCollection: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('name');
  const queries = readQueries(r);
  const comment = r.comment();
  if (findCollection(input.metadata, name) !== undefined) {
    throw new ApiError('already-exists', `query collection with name ${q(name)} already exists`, 400, ['args', 'name']);
  }
  const dup = duplicates(queries.map((x) => x.name as string));
  if (dup.length > 0) {
    throw new ApiError('not-supported', `found duplicate query names ${dup.map((d) => q(d)).join(', ')}`, 400,
      ['args', 'definition', 'queries']);
  }
  const entry = compact({ name, definition: { queries }, comment });
  return rebuilt(withCollections(input.metadata, [...listOf(input.metadata, 'query_collections'), entry]));
};

// Hasura runs the collection operations as a whole rebuild inside withNewInconsistentObjsCheck
// (RQL/DDL/QueryCollection.hs): a query that does not validate is 500 "newly found", not a 400.
function rebuilt(md: Metadata): OpOutput {
  return { metadata: md, effect: { kind: 'rebuild' } };
}

/** Renames a collection; the allow-list and REST endpoints that name it follow the new name. */
export const renameQueryCollection: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('name');
  const newName = r.name('new_name');
  const old = requireCollection(input.metadata, name, ['args']);
  if (findCollection(input.metadata, newName) !== undefined) {
    throw new ApiError('already-exists', `query collection with name ${q(newName)} already exists`, 400, ['args', 'new_name']);
  }
  let md = withCollections(input.metadata, upsert(listOf(input.metadata, 'query_collections'), 'name', name, { ...old, name: newName }));
  md = withList(md, 'allowlist', listOf(md, 'allowlist').map((e) => (e['collection'] === name ? { ...e, collection: newName } : e)));
  md = withList(md, 'rest_endpoints', listOf(md, 'rest_endpoints').map((e) => renameInEndpoint(e, name, newName)));
  return rebuilt(md);
};

function renameInEndpoint(e: JsonObject, from: string, to: string): JsonObject {
  const def = e['definition'];
  if (def === null || typeof def !== 'object' || Array.isArray(def)) return e;
  const ref = def['query'];
  if (ref === null || typeof ref !== 'object' || Array.isArray(ref) || ref['collection_name'] !== from) return e;
  return { ...e, definition: { ...def, query: { ...ref, collection_name: to } } };
}

export const dropQueryCollection: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const name = r.name('collection');
  r.required('cascade');
  const cascade = r.bool('cascade', false);
  requireCollection(input.metadata, name, ['args', 'collection']);
  const listed = findBy(listOf(input.metadata, 'allowlist'), 'collection', name) !== undefined;
  if (listed && !cascade) {
    throw new ApiError('dependency-error', `query collection with name ${q(name)} is present in the allowlist; cannot proceed to drop. `
      + 'please use cascade to confirm you wish to drop it from the allowlist as well', 400, ['args', 'collection']);
  }
  let md = withCollections(input.metadata, removeBy(listOf(input.metadata, 'query_collections'), 'name', name));
  if (listed) md = withList(md, 'allowlist', removeBy(listOf(md, 'allowlist'), 'collection', name));
  return dropped(md, cascade);
};

export const addQueryToCollection: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const collection = r.name('collection_name');
  const queryName = r.name('query_name');
  const query = readQueryText(r.required('query'), r.at('query'));
  const coll = requireCollection(input.metadata, collection, ['args']);
  const queries = queriesOf(coll);
  if (queries.some((x) => x['name'] === queryName)) {
    throw new ApiError('already-exists', `query with name ${q(queryName)} already exists in collection ${q(collection)}`, 400, ['args']);
  }
  const next = { ...coll, definition: { ...(coll['definition'] as JsonObject), queries: [...queries, { name: queryName, query }] } };
  return rebuilt(withCollections(input.metadata, upsert(listOf(input.metadata, 'query_collections'), 'name', collection, next)));
};

export const dropQueryFromCollection: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const collection = r.name('collection_name');
  const queryName = asName(r.required('query_name'), r.at('query_name'));
  const coll = requireCollection(input.metadata, collection, ['args']);
  const queries = queriesOf(coll);
  if (!queries.some((x) => x['name'] === queryName)) {
    throw new ApiError('not-found', `query with name ${q(queryName)} not found in collection ${q(collection)}`, 400, ['args']);
  }
  const next = { ...coll, definition: { ...(coll['definition'] as JsonObject), queries: queries.filter((x) => x['name'] !== queryName) } };
  const md = withCollections(input.metadata, upsert(listOf(input.metadata, 'query_collections'), 'name', collection, next));
  return dropped(md, false);
};
