// Persisted queries in the bundle: each collection query compiled whole for the roles that may run
// it (whose schema validates it, narrowed by an allow-list scope of roles), written with the
// header of the sql/ files, listed in the manifest with its allow-list key, carried in the model.
import { describe, expect, it } from 'vitest';
import { queryKey } from '../../runtime/graphql/index.js';
import { COLLECTIONS, compileBlogWithCollections } from './persisted-fixture.js';

const bundle = await compileBlogWithCollections();
const manifest = JSON.parse(bundle.files.get('manifest.json')!) as { persisted: { collection: string; name: string; roles: string[]; sha256: string }[];
  files: Record<string, string> };

describe('persisted queries in the bundle', () => {
  it('compiles each query for every role whose schema validates it, and no other', () => {
    const files = [...bundle.files.keys()].filter((f) => f.startsWith('persisted/'));
    expect(files.filter((f) => f.includes('/site/author_by_id.sql')).sort())
      .toEqual(['persisted/admin/site/author_by_id.sql', 'persisted/reader/site/author_by_id.sql', 'persisted/user/site/author_by_id.sql']);
    // reader has no insert permission: its schema has no mutation_root.
    expect(files.filter((f) => f.includes('/site/new_article.sql')).sort()).toEqual(['persisted/admin/site/new_article.sql', 'persisted/user/site/new_article.sql']);
  });

  it('compiles a collection allow-listed for some roles only for them and admin', () => {
    expect(manifest.persisted.find((p) => p.collection === 'readers')!.roles).toEqual(['admin', 'reader']);
    expect(bundle.files.has('persisted/user/readers/titles.sql')).toBe(false);
  });

  it('writes the role\'s session variables and permission constants as numbered parameters', () => {
    const user = bundle.files.get('persisted/user/site/author_by_id.sql')!;
    expect(user.split('\n').slice(0, 5)).toEqual([
      '-- role: user',
      '-- persisted query: author_by_id in collection site',
      `-- query: ${COLLECTIONS.site.author_by_id}`,
      '-- $1 = variable $id :: int4',
      '-- $2 = session x-svc-user-id :: int4',
    ]);
    expect(user).toContain('"_author_1"."id" = ($2)::int4');
    // The session value is a slot, never text of the statement.
    expect(user.split('\n').filter((l) => !l.startsWith('--')).join('\n')).not.toMatch(/x-svc/i);
    expect(bundle.files.get('persisted/reader/site/author_by_id.sql')).toContain('-- $2 = constant true :: bool');
  });

  it('says so when the values of variables shape the statement', () => {
    expect(bundle.files.get('persisted/user/site/ordered.sql')).toContain('-- planned per request: the values of its variables shape the statement');
    const ordered = bundle.model.persisted!.queries.find((q) => q.name === 'ordered')!;
    expect(ordered.plans).toEqual({ admin: null, reader: null, user: null });
  });

  it('lists every query in the manifest with its roles and the allow-list key of its text', () => {
    expect(manifest.persisted.map((p) => `${p.collection}/${p.name}`))
      .toEqual(['readers/titles', 'site/articles_with_authors', 'site/author_by_id', 'site/new_article', 'site/ordered']);
    for (const p of manifest.persisted) {
      const text = (COLLECTIONS as Record<string, Record<string, string>>)[p.collection]![p.name]!;
      expect(p.sha256).toBe(queryKey(text)!.sha256);
    }
    expect(queryKey('query Titles{article(order_by:{id:asc}){title __typename}}')!.sha256).toBe(manifest.persisted[0]!.sha256);
    expect(Object.keys(manifest.files)).toContain('persisted/user/site/ordered.sql');
  });

  it('carries the allow-list, the REST endpoints and the plans in the model', () => {
    const p = bundle.model.persisted!;
    expect(p.allowlist).toEqual([{ collection: 'site', scope: { global: true } }, { collection: 'readers', scope: { global: false, roles: ['reader'] } }]);
    expect(p.restEndpoints).toEqual([{ name: 'author', url: 'author/:id', methods: ['GET'], collection: 'site', query: 'author_by_id', comment: null }]);
    const byId = p.queries.find((q) => q.name === 'author_by_id')!;
    expect(byId.variables).toEqual([{ name: 'id', type: 'Int!' }]);
    expect(byId.plans['user']).toMatchObject({ kind: 'sql', source: 'default' });
    const insert = p.queries.find((q) => q.name === 'new_article')!.plans['user'];
    expect(insert?.kind === 'mutation' && insert.fields[0]!.kind === 'sql' && insert.fields[0]!.statements[0]!.errors[0])
      .toMatchObject({ code: 'permission-error', status: 400 });
  });

  it('is deterministic', async () => {
    const again = await compileBlogWithCollections();
    expect([...again.files.entries()]).toEqual([...bundle.files.entries()]);
  });
});
