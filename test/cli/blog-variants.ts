// The blog fixture's metadata with edits, compiled in process or written for `kiln compile`:
// the permission changes `kiln diff` and `kiln check` are tested on.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleDir, Manifest } from '../../compiler/cli/bundle-dir.js';
import { buildBundle, type Bundle, type BundleInput } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { ROOT } from './cli-helpers.js';
import { expandLayout } from '../../runtime/bundle/index.js';

type Json = any; // a metadata document, edited by the tests

/** fixtures/blog/ paths. */
export const BLOG = { metadata: join(ROOT, 'fixtures', 'blog', 'metadata.json'), introspection: join(ROOT, 'fixtures', 'blog', 'introspection.json') };

/** A fresh copy of the blog metadata, changed by `edit`. */
export function blogMetadata(edit: (md: Json) => void = () => {}): Json {
  const md = JSON.parse(readFileSync(BLOG.metadata, 'utf8')) as Json;
  edit(md);
  return md;
}

/** The permission object of `role` in `<kind>_permissions` of table `name`. */
export function permission(md: Json, table: string, kind: 'select' | 'insert' | 'update' | 'delete', role: string): Json {
  const t = md.sources[0].tables.find((x: Json) => x.table.name === table);
  return t[`${kind}_permissions`].find((p: Json) => p.role === role).permission;
}

/** A query collection `app` (allow-listed) with reads, a filtered read through relationships and an insert. */
export function withCollection(md: Json): void {
  md.query_collections = [{ name: 'app', definition: { queries: [
    { name: 'articles', query: 'query Articles { article { id title author { name } } }' },
    { name: 'by_title', query: 'query ByTitle($t: String!) { article(where: {title: {_eq: $t}, author: {name: {_like: "a%"}}}) { id article_tags { tag { label } } } }' },
    { name: 'add', query: 'mutation Add($t: String) { insert_article_one(object: {title: $t}) { id author { name } } }' },
  ] } }];
  md.allowlist = [{ collection: 'app', scope: { global: true } }];
}

/** Compiles a blog metadata document against the fixture's introspection snapshot. */
export async function compileBlog(md: Json, layout?: BundleInput['layout']): Promise<Bundle> {
  const parsed = parseMetadata(md);
  if (!parsed.value) throw new Error(`test metadata is invalid: ${parsed.errors.map((e) => e.message).join('; ')}`);
  const snap = introspectionFromJson(JSON.parse(readFileSync(BLOG.introspection, 'utf8')));
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: snap }, engineVersion: 'test', ...(layout ? { layout } : {}) });
  if (bundle.inconsistencies.length) throw new Error(`test metadata is inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  return bundle;
}

/** A compiled bundle as `kiln check` reads it from disk, with some files replaced. */
export function asBundleDir(bundle: Bundle, replace: Record<string, string> = {}): BundleDir {
  // Edited as on disk: a file several roles share is edited in shared/ (for all of them).
  const manifest = JSON.parse(bundle.files.get('manifest.json')!) as Manifest;
  const schemas = (manifest['schemas'] ?? {}) as Record<string, string>;
  const stored = new Map([...bundle.stored].filter(([p]) => /^(sql|persisted|schema|shared)\//.test(p)));
  for (const [p, text] of Object.entries(replace)) {
    const sql = /^sql\/([^/]+)\/(.+)$/.exec(p);
    const link = sql ? (JSON.parse(stored.get(`sql/${sql[1]}/links.json`) ?? '{}') as Record<string, string>)[sql[2]!] : undefined;
    const schema = /^schema\/([^/]+)\.graphql$/.exec(p);
    if (link) stored.set(`shared/${link}.sql`, text.slice(text.indexOf('\n') + 1));
    else if (schema && schemas[schema[1]!]) stored.set(schemas[schema[1]!]!, text);
    else stored.set(p, text);
  }
  return { dir: 'memory', manifest, model: bundle.model, files: expandLayout(stored, schemas), stored };
}
