import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependentLabel, dropObjects } from '../../compiler/ops/index.js';
import { apply, applyAll, blogSetup, failure, inconsistencies, newInconsistencies, openFixture, type OpsFixture } from './helpers.js';

let f: OpsFixture;
beforeAll(async () => { f = await openFixture('ops_rels'); });
afterAll(async () => { await f.db.drop(); });

const userOnArticle = ['create_select_permission', {
  table: 'article', role: 'user', permission: { columns: '*', filter: { author: { id: { _eq: 'X-Svc-User-Id' } } } },
}] as const;

describe('relationships', () => {
  it('stores both kinds with a null comment by default, names them as the model does', () => {
    const md = blogSetup(f);
    const article = md.sources[0]!.tables.find((t) => t.table.name === 'article')!;
    expect(article.object_relationships).toEqual([{ name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: null }]);
    const author = md.sources[0]!.tables.find((t) => t.table.name === 'author')!;
    expect(author.array_relationships).toEqual([{
      name: 'articles', comment: null,
      using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } },
    }]);
    expect(inconsistencies(f, md)).toEqual([]);
    const r = apply(f, md, 'pg_create_object_relationship', { table: 'article', name: 'writer', using: { manual_configuration: { remote_table: 'author', column_mapping: { author_id: 'id' } } }, comment: 'who' });
    expect(r.effect).toEqual({ kind: 'create', object: { type: 'object_relation', name: 'object_relation writer in table article in source default' } });
    expect(inconsistencies(f, r.metadata!)).toEqual([]);
  });

  it('refuses a name already used by a relationship or a column, and a table that is not tracked', () => {
    const md = blogSetup(f);
    expect(failure(() => apply(f, md, 'create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } }, 'query')))
      .toEqual({ path: '$.args', error: 'field with name "author" already exists in table "article"', code: 'already-exists' });
    expect(failure(() => apply(f, md, 'create_object_relationship', { table: 'article', name: 'title', using: { foreign_key_constraint_on: 'author_id' } }, 'query')))
      .toEqual({ path: '$.args', error: 'field with name "title" already exists in table "article"', code: 'already-exists' });
    expect(failure(() => apply(f, md, 'create_object_relationship', { table: 'colors', name: 'x', using: { foreign_key_constraint_on: 'y' } }, 'query')))
      .toEqual({ path: '$.args', error: 'table "colors" does not exist in source: default', code: 'not-exists' });
    expect(failure(() => apply(f, md, 'create_object_relationship', { table: 'article', name: 'x', using: {} }, 'query')).code).toBe('parse-failed');
  });

  it('a relationship to an untracked table is inconsistent under the created name', () => {
    const md = applyAll(f, [['track_table', { table: 'article' }]]);
    const r = apply(f, md, 'create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } }, 'query');
    const found = inconsistencies(f, r.metadata!);
    expect(found.map((i) => [i.type, i.name, i.reason])).toEqual([
      ['object_relation', 'object_relation author in table article in source default', 'Inconsistent object: table "author" is not tracked'],
    ]);
    expect(r.effect).toEqual({ kind: 'create', object: { type: found[0]!.type, name: found[0]!.name } });
  });

  it('drops a relationship; a permission using it is a dependent (dropped by cascade)', () => {
    const md = applyAll(f, [userOnArticle as never], blogSetup(f));
    expect(inconsistencies(f, md)).toEqual([]);
    const r = apply(f, md, 'drop_relationship', { table: 'article', relationship: 'author' }, 'query');
    expect(r.effect).toEqual({ kind: 'drop', cascade: false });
    const deps = newInconsistencies(f, md, r.metadata!);
    expect(deps.map(dependentLabel)).toEqual(['permission article.user.select in source "default"']);
    expect(deps[0]!.definition).toEqual({
      role: 'user', source: 'default', comment: null, table: { schema: 'public', name: 'article' },
      permission: { allow_aggregations: false, computed_fields: [], columns: '*', filter: { author: { id: { _eq: 'X-Svc-User-Id' } } } },
    });
    expect(deps[0]!.reason.startsWith('Inconsistent object: in table "article": in permission for role "user": ')).toBe(true);
    const after = dropObjects(r.metadata!, deps);
    expect(after.sources[0]!.tables.find((t) => t.table.name === 'article')).toEqual({ table: { schema: 'public', name: 'article' } });
    expect(apply(f, md, 'pg_drop_relationship', { table: 'article', relationship: 'author', cascade: true }).effect).toEqual({ kind: 'drop', cascade: true });
    expect(failure(() => apply(f, md, 'drop_relationship', { table: 'article', relationship: 'nope' }, 'query')))
      .toEqual({ path: '$.args.relationship', error: 'relationship "nope" does not exist in table "article"', code: 'not-exists' });
  });

  it('renames (the permissions that reach the relationship follow, as in Hasura\'s renameRelationshipInMetadata) and sets a comment', () => {
    const md = applyAll(f, [userOnArticle as never], blogSetup(f));
    const r = apply(f, md, 'pg_rename_relationship', { table: 'article', name: 'author', new_name: 'writer' });
    const article = r.metadata!.sources[0]!.tables.find((t) => t.table.name === 'article')!;
    expect(article.object_relationships![0]!.name).toBe('writer');
    expect(article.select_permissions![0]!.permission.filter).toEqual({ writer: { id: { _eq: 'X-Svc-User-Id' } } });
    expect(r.effect).toEqual({ kind: 'drop', cascade: false });
    expect(newInconsistencies(f, md, r.metadata!)).toEqual([]);
    expect(failure(() => apply(f, md, 'pg_rename_relationship', { table: 'author', name: 'articles', new_name: 'name' })).code).toBe('already-exists');
    const c = apply(f, md, 'pg_set_relationship_comment', { table: 'author', relationship: 'articles', comment: 'all of them' });
    expect(c.metadata!.sources[0]!.tables.find((t) => t.table.name === 'author')!.array_relationships![0]!.comment).toBe('all of them');
  });
});
