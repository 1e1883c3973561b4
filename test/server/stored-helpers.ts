// A real Kiln on 127.0.0.1 over metadata with query collections, an allow-list and REST
// endpoints, compiled in process against a test database; the engine is exposed for its counters.
import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';
import type { SubscriptionSettings } from '../../runtime/subscriptions/index.js';

export const SECRET = 'stored-secret';

export const SETUP = `
CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, is_public boolean NOT NULL DEFAULT true, rating numeric(3, 1));
CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author (id));
INSERT INTO author (name, is_public, rating) VALUES ('ann', true, 4.5), ('bob', false, 3.0), ('cyd', true, NULL);
INSERT INTO article (title, author_id) VALUES ('a1', 1), ('b1', 2), ('b2', 2);
`;

/** The stored queries the tests run, by name. */
export const Q = {
  authors: 'query Authors {\n  author(order_by: {id: asc}) {\n    id\n    name\n  }\n}',
  byId: 'query ($id: Int!) { author_by_pk(id: $id) { id name } }',
  byName: 'query ($name: String!) { author(where: {name: {_eq: $name}}) { id name } }',
  byFlag: 'query ($public: Boolean!) { author(where: {is_public: {_eq: $public}}, order_by: {id: asc}) { name } }',
  ordered: 'query ($order: [author_order_by!]) { author(order_by: $order) { name } }',
  articles: 'query { article(order_by: {id: asc}) { title } }',
  ratings: 'query { author(order_by: {id: asc}) { rating } }',
  readerNames: 'query ReaderNames { author(order_by: {id: asc}) { name } }',
  unlisted: 'query Unlisted { author(order_by: {id: asc}) { id } }',
  addArticle: 'mutation ($title: String!, $author: Int!) { insert_article_one(object: {title: $title, author_id: $author}) { title } }',
  live: 'subscription { author(order_by: {id: asc}) { name } }',
  stream: 'subscription { author_stream(batch_size: 1, cursor: {initial_value: {id: 0}}) { id name } }',
} as const;

const endpoint = (name: string, url: string, methods: string[], collection: string, query: string): unknown =>
  ({ name, url, methods, definition: { query: { collection_name: collection, query_name: query } } });

export const METADATA = {
  version: 3,
  sources: [{
    name: 'default', kind: 'postgres', configuration: {}, functions: [],
    tables: [
      {
        table: { schema: 'public', name: 'author' },
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } }],
        select_permissions: [
          // A user sees only themself; a reader sees the public authors.
          { role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Svc-User-Id' } } } },
          { role: 'reader', permission: { columns: ['id', 'name', 'is_public'], filter: { is_public: { _eq: true } } } },
        ],
      },
      {
        table: { schema: 'public', name: 'article' },
        select_permissions: [{ role: 'user', permission: { columns: ['title'], filter: { author_id: { _eq: 'X-Svc-User-Id' } } } }],
      },
    ],
  }],
  query_collections: [
    { name: 'public_queries', definition: { queries: [
      { name: 'authors', query: Q.authors }, { name: 'by_id', query: Q.byId }, { name: 'by_name', query: Q.byName },
      { name: 'by_flag', query: Q.byFlag }, { name: 'ordered', query: Q.ordered }, { name: 'articles', query: Q.articles },
      { name: 'ratings', query: Q.ratings }, { name: 'live', query: Q.live }, { name: 'stream', query: Q.stream },
    ] } },
    { name: 'reader_only', definition: { queries: [{ name: 'reader_names', query: Q.readerNames }] } },
    { name: 'unlisted', definition: { queries: [{ name: 'unlisted', query: Q.unlisted }, { name: 'add_article', query: Q.addArticle }] } },
  ],
  allowlist: [
    { collection: 'public_queries', scope: { global: true } },
    { collection: 'reader_only', scope: { global: false, roles: ['reader'] } },
  ],
  rest_endpoints: [
    endpoint('authors', 'authors', ['GET'], 'public_queries', 'authors'),
    endpoint('author', 'author/:id', ['GET'], 'public_queries', 'by_id'),
    endpoint('search', 'search', ['GET', 'POST'], 'public_queries', 'by_name'),
    endpoint('flag', 'flag', ['GET'], 'public_queries', 'by_flag'),
    endpoint('unlisted', 'unlisted', ['GET'], 'unlisted', 'unlisted'),
    endpoint('add_article', 'articles/:author', ['POST', 'PUT'], 'unlisted', 'add_article'),
  ],
};

export interface StoredKiln {
  readonly url: string;
  readonly wsUrl: string;
  readonly engine: Engine;
  readonly bundle: Bundle;
  close(): Promise<void>;
}

/** Compiles METADATA (or `metadata`) against the database and serves it. */
export async function startStored(o: { databaseUrl: string; allowlist?: boolean; metadata?: unknown; stringifyNumeric?: boolean;
  subscriptions?: Partial<SubscriptionSettings> }): Promise<StoredKiln> {
  const parsed = parseMetadata(o.metadata ?? METADATA);
  if (!parsed.value) throw new Error(`test metadata is invalid: ${JSON.stringify(parsed.errors)}`);
  const driver = createPgDriver({ url: o.databaseUrl, max: 4 });
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: await introspectPostgres(driver) }, engineVersion: 'test' });
  if (bundle.inconsistencies.length) throw new Error(`inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver, allowlist: o.allowlist ?? false,
    stringifyNumeric: o.stringifyNumeric ?? false });
  const server = createServer({
    engine, version: 'test', adminSecret: SECRET, consoleEnabled: false,
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 100, streamRefetchMs: 100, ...o.subscriptions }, log: () => undefined },
  });
  const { port } = await server.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/v1/graphql`, engine, bundle,
    async close() {
      await server.close();
      await driver.close();
    },
  };
}

/** Headers of a request as `role` (with the admin secret, as Hasura's tests send them). */
export function as(role: string, vars: Record<string, string> = {}): Record<string, string> {
  return { 'x-svc-admin-secret': SECRET, 'x-svc-role': role, ...vars };
}

/** POST /v1/graphql; the status and parsed body. */
export async function gql(url: string, query: string, headers: Record<string, string>, variables?: Record<string, unknown>,
  operationName?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables: variables ?? null, ...(operationName ? { operationName } : {}) }) });
  return { status: res.status, body: await res.json() };
}
