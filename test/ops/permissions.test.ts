import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependentLabel, normalizeConnectives } from '../../compiler/ops/index.js';
import { apply, applyAll, blogSetup, failure, inconsistencies, newInconsistencies, openFixture, type OpsFixture } from './helpers.js';

let f: OpsFixture;
beforeAll(async () => { f = await openFixture('ops_perms'); });
afterAll(async () => { await f.db.drop(); });

function tableOf(md: ReturnType<typeof blogSetup>, name: string) {
  return md.sources[0]!.tables.find((t) => t.table.name === name)!;
}

describe('select permissions', () => {
  it('stores the permission; /v1/query connectives are stored with _', () => {
    const md = blogSetup(f);
    const r = apply(f, md, 'create_select_permission', {
      table: 'article', role: 'user',
      permission: { columns: ['id', 'title'], filter: { $or: [{ is_published: { $eq: true } }, { $not: { author_id: { _is_null: true } } }] } },
    }, 'query');
    expect(tableOf(r.metadata!, 'article').select_permissions).toEqual([{
      role: 'user', permission: { columns: ['id', 'title'], filter: { _or: [{ is_published: { $eq: true } }, { _not: { author_id: { _is_null: true } } }] } },
    }]);
    expect(r.effect).toEqual({ kind: 'create', object: { type: 'select_permission', name: 'select_permission user in table article in source default' } });
    expect(inconsistencies(f, r.metadata!)).toEqual([]);
    const m = apply(f, md, 'pg_create_select_permission', { table: 'article', role: 'user', permission: { columns: '*', filter: { $or: [] } } });
    expect(tableOf(m.metadata!, 'article').select_permissions![0]!.permission.filter).toEqual({ $or: [] });
    expect(normalizeConnectives({ $and: [{ $exists: { _table: 't', _where: { $or: [] } } }] })).toEqual({ _and: [{ _exists: { _table: 't', _where: { _or: [] } } }] });
  });

  it('refuses admin and a role defined twice (corpus create_article_permission_role_admin_error)', () => {
    const md = applyAll(f, [['create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', filter: {} } }]], blogSetup(f));
    expect(failure(() => apply(f, md, 'create_select_permission', { table: 'author', role: 'admin', permission: { columns: '*', filter: {} } }, 'query')))
      .toEqual({ path: '$.args', error: 'select permission already defined on table "author" with role "admin"', code: 'already-exists' });
    expect(failure(() => apply(f, md, 'pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', filter: {} } })))
      .toEqual({ path: '$.args', error: 'select permission already defined on table "author" with role "user"', code: 'already-exists' });
    expect(failure(() => apply(f, md, 'create_insert_permission', { table: 'author', role: '', permission: { check: {} } }, 'query')))
      .toEqual({ path: '$.role', error: 'empty string not allowed', code: 'parse-failed' });
    expect(failure(() => apply(f, md, 'create_select_permission', { table: 'author', role: 'x', permission: { columns: 3 } }, 'query')).path).toBe('$.permission.columns');
  });

  it('a missing computed field is the created object with Hasura reason and definition (corpus computed_fields/create_permissions)', () => {
    const md = applyAll(f, [['add_computed_field', { table: 'author', name: 'full_name', definition: { function: 'full_name' } }]], blogSetup(f));
    const r = apply(f, md, 'create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', computed_fields: ['full_name', 'random'], filter: {} } }, 'query');
    expect(newInconsistencies(f, md, r.metadata!)).toEqual([{
      definition: {
        role: 'user', source: 'default', comment: null,
        permission: { allow_aggregations: false, computed_fields: ['full_name', 'random'], columns: '*', filter: {} },
        table: { schema: 'public', name: 'author' },
      },
      reason: 'Inconsistent object: in table "author": in permission for role "user": computed field "random" does not exist',
      name: 'select_permission user in table author in source default', type: 'select_permission',
    }]);
    const withTableCf = applyAll(f, [['add_computed_field', { table: 'author', name: 'get_articles', definition: { function: 'fetch_articles', table_argument: 'author_row' } }]], md);
    const t = apply(f, withTableCf, 'create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', computed_fields: ['full_name', 'get_articles'], filter: {} } }, 'query');
    expect(newInconsistencies(f, withTableCf, t.metadata!).map((i) => i.reason)).toEqual([
      'Inconsistent object: in table "author": in permission for role "user": select permissions on computed field "get_articles" are auto-derived from the permissions on its returning table "article" and cannot be specified manually',
    ]);
  });

  it('drops and comments; a missing one is refused', () => {
    const md = applyAll(f, [['create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', filter: {} } }]], blogSetup(f));
    const c = apply(f, md, 'pg_set_permission_comment', { table: 'author', role: 'user', type: 'select', comment: 'readers' });
    expect(tableOf(c.metadata!, 'author').select_permissions![0]!.comment).toBe('readers');
    const d = apply(f, md, 'drop_select_permission', { table: 'author', role: 'user' }, 'query');
    expect(tableOf(d.metadata!, 'author').select_permissions).toBeUndefined();
    expect(d.effect).toEqual({ kind: 'drop', cascade: false });
    expect(failure(() => apply(f, d.metadata!, 'drop_select_permission', { table: 'author', role: 'user' }, 'query')))
      .toEqual({ path: '$.args', error: 'select permission on "author" for role "user" does not exist', code: 'permission-denied' });
  });
});

describe('insert, update, delete permissions', () => {
  it('are stored and checked against the catalog', () => {
    const md = applyAll(f, [
      ['create_insert_permission', { table: 'article', role: 'user', permission: { check: { author_id: { _eq: 'X-Svc-User-Id' } }, columns: ['title', 'content'], set: { author_id: 'X-Svc-User-Id' } } }],
      ['create_update_permission', { table: 'article', role: 'user', permission: { columns: ['title'], filter: { author: { id: { $eq: 'X-Svc-User-Id' } } } } }],
      ['create_delete_permission', { table: 'article', role: 'user', permission: { filter: { $and: [{ author_id: { _eq: 'X-Svc-User-Id' } }] } } }],
    ], blogSetup(f));
    const article = tableOf(md, 'article');
    expect(article.insert_permissions).toHaveLength(1);
    expect(article.update_permissions).toHaveLength(1);
    expect(article.delete_permissions![0]!.permission).toEqual({ filter: { _and: [{ author_id: { _eq: 'X-Svc-User-Id' } }] } });
    expect(inconsistencies(f, md)).toEqual([]);
    const bad = apply(f, md, 'pg_create_insert_permission', { table: 'author', role: 'user', permission: { check: {}, columns: ['ghost'] } });
    expect(bad.effect).toEqual({ kind: 'create', object: { type: 'insert_permission', name: 'insert_permission user in table author in source default' } });
    expect(inconsistencies(f, bad.metadata!).map((i) => [i.type, i.name, i.reason])).toEqual([
      ['insert_permission', 'insert_permission user in table author in source default', 'Inconsistent object: in table "author": in permission for role "user": no such column exists: "ghost"'],
    ]);
    const dropped = apply(f, md, 'drop_relationship', { table: 'article', relationship: 'author' }, 'query');
    expect(newInconsistencies(f, md, dropped.metadata!).map(dependentLabel)).toEqual(['permission article.user.update in source "default"']);
    const d = apply(f, md, 'pg_drop_update_permission', { table: 'article', role: 'user' });
    expect(tableOf(d.metadata!, 'article').update_permissions).toBeUndefined();
  });
});
