// The blog fixture with query collections, an allow-list and a REST endpoint added: what the
// persisted-query tests and goldens compile.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { loadMetadata, type Metadata } from '../../compiler/metadata/index.js';

/** The stored queries, by collection. */
export const COLLECTIONS = {
  site: {
    articles_with_authors: 'query ArticlesWithAuthors {\n  article(order_by: {id: asc}) { id title author { name } }\n}',
    author_by_id: 'query AuthorById($id: Int!) { author_by_id(id: $id) { id name } }',
    new_article: 'mutation NewArticle($title: String!) { insert_article_one(object: {title: $title}) { id title } }',
    ordered: 'query Ordered($order: [article_order_by!]) { article(order_by: $order) { id } }',
  },
  readers: {
    titles: 'query Titles { article(order_by: {id: asc}) { title } }',
  },
} as const;

/** Compiles fixtures/blog with COLLECTIONS (`site` allow-listed for all, `readers` for reader). */
export async function compileBlogWithCollections(stringifyNumeric = false): Promise<Bundle> {
  const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'blog');
  const md = await loadMetadata(join(dir, 'metadata.json'));
  if (!md.value) throw new Error(md.errors.map((e) => e.message).join('; '));
  const metadata: Metadata = {
    ...md.value,
    query_collections: Object.entries(COLLECTIONS).map(([name, queries]) => ({
      name, definition: { queries: Object.entries(queries).map(([q, query]) => ({ name: q, query })) },
    })),
    allowlist: [{ collection: 'site', scope: { global: true } }, { collection: 'readers', scope: { global: false, roles: ['reader'] } }],
    rest_endpoints: [{ name: 'author', url: 'author/:id', methods: ['GET'], definition: { query: { collection_name: 'site', query_name: 'author_by_id' } } }],
  };
  const snap = introspectionFromJson(JSON.parse(await readFile(join(dir, 'introspection.json'), 'utf8')));
  return buildBundle({ metadata, introspection: { default: snap }, engineVersion: 'golden', stringifyNumeric });
}
