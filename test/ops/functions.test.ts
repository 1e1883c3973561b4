import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dependentLabel, dropObjects } from '../../compiler/ops/index.js';
import { apply, applyAll, blogSetup, failure, inconsistencies, newInconsistencies, openFixture, type OpsFixture } from './helpers.js';

let f: OpsFixture;
beforeAll(async () => { f = await openFixture('ops_fns'); });
afterAll(async () => { await f.db.drop(); });

describe('computed fields', () => {
  it('adds, names and refuses as Hasura does (corpus computed_fields/add_and_drop)', () => {
    const md = blogSetup(f);
    const r = apply(f, md, 'add_computed_field', { table: 'author', name: 'get_articles', definition: { function: 'fetch_articles', table_argument: 'author_row' } }, 'query');
    expect(r.effect).toEqual({ kind: 'create', object: { type: 'computed_field', name: 'computed_field get_articles in table author in source default' } });
    expect(r.metadata!.sources[0]!.tables.find((t) => t.table.name === 'author')!.computed_fields).toEqual([{
      name: 'get_articles', definition: { function: { schema: 'public', name: 'fetch_articles' }, table_argument: 'author_row' }, comment: null,
    }]);
    expect(inconsistencies(f, r.metadata!)).toEqual([]);
    expect(failure(() => apply(f, r.metadata!, 'drop_computed_field', { table: 'random', name: 'x' }, 'query')))
      .toEqual({ path: '$.args.table', error: 'table "random" does not exist in source: default', code: 'not-exists' });
    expect(failure(() => apply(f, r.metadata!, 'drop_computed_field', { table: 'author', name: 'random' }, 'query')))
      .toEqual({ path: '$.args.name', error: 'computed field "random" does not exist', code: 'not-exists' });
    expect(failure(() => apply(f, r.metadata!, 'pg_add_computed_field', { table: 'author', name: 'articles', definition: { function: 'full_name' } })).code).toBe('already-exists');
    const bad = apply(f, md, 'pg_add_computed_field', { table: 'author', name: 'nope', definition: { function: 'no_such_fn' } });
    const found = inconsistencies(f, bad.metadata!);
    expect(found.map((i) => [i.type, i.name])).toEqual([['computed_field', 'computed_field nope in table author in source default']]);
    expect(found[0]!.definition).toEqual({ definition: { function: { schema: 'public', name: 'no_such_fn' } }, name: 'nope', source: 'default', comment: null, table: { schema: 'public', name: 'author' } });
  });

  it('dropping one a permission lists is refused with the permission as dependent (corpus create_permissions)', () => {
    const md = applyAll(f, [
      ['add_computed_field', { table: 'author', name: 'full_name', definition: { function: 'full_name' } }],
      ['create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', computed_fields: ['full_name'], filter: {} } }],
    ], blogSetup(f));
    expect(inconsistencies(f, md)).toEqual([]);
    const r = apply(f, md, 'drop_computed_field', { table: 'author', name: 'full_name' }, 'query');
    expect(r.effect).toEqual({ kind: 'drop', cascade: false });
    const deps = newInconsistencies(f, md, r.metadata!);
    expect(`cannot drop due to the following dependent objects : ${deps.map(dependentLabel).join(', ')}`)
      .toBe('cannot drop due to the following dependent objects : permission author.user.select in source "default"');
    expect(inconsistencies(f, dropObjects(r.metadata!, deps))).toEqual([]);
    expect(apply(f, md, 'pg_drop_computed_field', { table: 'author', name: 'full_name', cascade: true }).effect).toEqual({ kind: 'drop', cascade: true });
  });
});

describe('functions', () => {
  it('tracks v1 {schema, name} and v2 {function, configuration}', () => {
    const md = blogSetup(f);
    const v1 = apply(f, md, 'track_function', { schema: 'public', name: 'search_articles' }, 'query');
    expect(v1.metadata!.sources[0]!.functions).toEqual([{ function: { schema: 'public', name: 'search_articles' } }]);
    expect(v1.effect).toEqual({ kind: 'create', object: { type: 'function', name: 'function search_articles in source default' } });
    expect(inconsistencies(f, v1.metadata!)).toEqual([]);
    const v2 = apply(f, md, 'track_function', { function: 'search_articles', configuration: { custom_name: 'find' } }, 'query', 2);
    expect(v2.metadata!.sources[0]!.functions).toEqual([{ function: { schema: 'public', name: 'search_articles' }, configuration: { custom_name: 'find' } }]);
    expect(failure(() => apply(f, v1.metadata!, 'pg_track_function', { function: 'search_articles' })))
      .toEqual({ path: '$.args', error: 'function already tracked : "search_articles"', code: 'already-tracked' });
    expect(failure(() => apply(f, md, 'pg_track_function', { function: 'nope' })).code).toBe('not-exists');
  });

  it('refuses a function named like a tracked table (corpus track_table_function_same_name)', () => {
    const md = applyAll(f, [['track_table', { schema: 'public', name: 'test1' }]]);
    expect(failure(() => apply(f, md, 'track_function', { schema: 'public', name: 'test1' }, 'query')))
      .toEqual({ path: '$.args', error: 'table with name "test1" already exists', code: 'not-supported' });
  });

  it('reports session argument problems as the function itself (corpus track_function_v2_errors)', () => {
    const md = applyAll(f, [['track_table', { table: 'text_result' }]]);
    const cases: readonly (readonly [string, string])[] = [['random', 'not the input argument of the function'], ['session_var', 'is not of type json']];
    for (const [arg, why] of cases) {
      const r = apply(f, md, 'track_function', { function: 'get_session_var_value', configuration: { session_argument: arg } }, 'query', 2);
      expect(inconsistencies(f, r.metadata!)).toEqual([{
        definition: { schema: 'public', name: 'get_session_var_value' },
        reason: `Inconsistent object: in function "get_session_var_value": the function "get_session_var_value" cannot be tracked because given session argument "${arg}" ${why}`,
        name: 'function get_session_var_value in source default', type: 'function',
      }]);
    }
  });

  it('untracks, customizes, and manages function permissions', () => {
    const md = applyAll(f, [['track_function', { schema: 'public', name: 'search_articles' }]], blogSetup(f));
    const c = apply(f, md, 'pg_set_function_customization', { function: 'search_articles', configuration: { custom_root_fields: { function: 'find' } } });
    expect(c.metadata!.sources[0]!.functions![0]!.configuration).toEqual({ custom_root_fields: { function: 'find' } });
    // A function permission needs a permission of the role on the table the function returns (Hasura's runCreateFunctionPermission).
    expect(failure(() => apply(f, md, 'pg_create_function_permission', { function: 'search_articles', role: 'user' }))).toEqual({ path: '$.args', code: 'not-supported',
      error: 'function permission can only be added when the function\'s return table "article" has select permission configured for role: "user"' });
    const readable = apply(f, md, 'pg_create_select_permission', { table: 'article', role: 'user', permission: { columns: '*', filter: {} } }).metadata!;
    const p = apply(f, readable, 'pg_create_function_permission', { function: 'search_articles', role: 'user' });
    expect(p.metadata!.sources[0]!.functions![0]!.permissions).toEqual([{ role: 'user' }]);
    expect(failure(() => apply(f, p.metadata!, 'pg_create_function_permission', { function: 'search_articles', role: 'user' }))).toEqual({ path: '$.args', code: 'already-exists',
      error: 'permission of role "user" already exists for function "search_articles" in source: "default"' });
    const dp = apply(f, p.metadata!, 'pg_drop_function_permission', { function: 'search_articles', role: 'user' });
    expect(failure(() => apply(f, dp.metadata!, 'pg_drop_function_permission', { function: 'search_articles', role: 'user' }))).toEqual({ path: '$.args', code: 'not-exists',
      error: 'permission of role "user" does not exist for function "search_articles" in source: "default"' });
    expect(dp.metadata!.sources[0]!.functions![0]).toEqual({ function: { schema: 'public', name: 'search_articles' } });
    const u = apply(f, md, 'untrack_function', { schema: 'public', name: 'search_articles' }, 'query');
    expect(u.metadata!.sources[0]!.functions).toBeUndefined();
    expect(failure(() => apply(f, u.metadata!, 'pg_untrack_function', { function: 'search_articles' })))
      .toEqual({ path: '$.args', error: 'function "search_articles" not found in the cache', code: 'not-exists' });
  });
});
