import { describe, expect, it } from 'vitest';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { formatPath } from '../../runtime/errors/index.js';

/** A version 3 document with one postgres source holding `tables`. */
function withTables(...tables: unknown[]): unknown {
  return { version: 3, sources: [{ name: 'default', kind: 'postgres', tables }] };
}

function withTable(extra: Record<string, unknown>): unknown {
  return withTables({ table: 'author', ...extra });
}

function problems(doc: unknown): [string, string, string][] {
  const r = parseMetadata(doc);
  if (r.errors.length > 0) expect(r.value).toBeNull();
  return r.errors.map((e) => [e.code, formatPath(e.path), e.message]);
}

const T = '$.sources[0].tables[0]';

const cases: [string, unknown, string, string, string][] = [
  ['a document that is not an object', null, 'parse-failed', '$', 'parsing Object failed, expected Object, but encountered Null'],
  ['an unsupported version', { version: 7, sources: [] }, 'parse-failed', '$.version', 'unsupported metadata version: 7 (expected 1, 2 or 3)'],
  ['sources given as an object', { version: 3, sources: {} }, 'parse-failed', '$.sources', 'parsing [] failed, expected Array, but encountered Object'],
  ['a source without a name', { version: 3, sources: [{ kind: 'postgres', tables: [] }] }, 'parse-failed', '$.sources[0]', "the key 'name' was not present"],
  ['an unknown source kind', { version: 3, sources: [{ name: 'x', kind: 'oracle', tables: [] }] }, 'parse-failed', '$.sources[0].kind',
    'backend kind "oracle" was not recognized as a valid backend name'],
  ['two sources with one name', { version: 3, sources: [{ name: 'db', kind: 'postgres', tables: [] }, { name: 'db', kind: 'mssql', tables: [] }] },
    'already-exists', '$.sources[1].name', 'source with name "db" already exists'],
  ['a table entry without table', withTables({ is_enum: true }), 'parse-failed', T, "the key 'table' was not present"],
  ['a table name that is a number', withTables({ table: 42 }), 'parse-failed', `${T}.table`, 'parsing Object failed, expected Object, but encountered Number'],
  ['one table listed twice', withTables({ table: 'author' }, { table: { schema: 'public', name: 'author' } }),
    'already-exists', '$.sources[0].tables[1].table', 'table "public.author" already exists in source "default"'],
  ['a relationship without using', withTable({ object_relationships: [{ name: 'a' }] }), 'parse-failed', `${T}.object_relationships[0]`, "the key 'using' was not present"],
  ['a relationship without name', withTable({ array_relationships: [{ using: { foreign_key_constraint_on: { table: 'b', column: 'a_id' } } }] }),
    'parse-failed', `${T}.array_relationships[0]`, "the key 'name' was not present"],
  ['a relationship using both forms', withTable({ object_relationships: [{ name: 'a', using: { foreign_key_constraint_on: 'x', manual_configuration: {} } }] }),
    'parse-failed', `${T}.object_relationships[0].using`, 'expecting exactly one of the keys "foreign_key_constraint_on", "manual_configuration"'],
  ['an array relationship naming a local column', withTable({ array_relationships: [{ name: 'a', using: { foreign_key_constraint_on: 'x' } }] }),
    'parse-failed', `${T}.array_relationships[0].using.foreign_key_constraint_on`, 'Expecting object { table, columns }.'],
  ['a remote side with both column and columns', withTable({ array_relationships: [{ name: 'a', using: { foreign_key_constraint_on: { table: 'b', column: 'x', columns: ['x'] } } }] }),
    'parse-failed', `${T}.array_relationships[0].using.foreign_key_constraint_on`, "expected exactly one of 'column' or 'columns'"],
  ['a remote column that is a number', withTable({ array_relationships: [{ name: 'a', using: { foreign_key_constraint_on: { table: 'b', column: 3 } } }] }),
    'parse-failed', `${T}.array_relationships[0].using.foreign_key_constraint_on.column`, 'Expected string or array'],
  ['an object relationship on a number', withTable({ object_relationships: [{ name: 'o', using: { foreign_key_constraint_on: 3 } }] }),
    'parse-failed', `${T}.object_relationships[0].using.foreign_key_constraint_on`, 'Expected string or array'],
  ['two relationships with one name', withTable({
    object_relationships: [{ name: 'rel', using: { foreign_key_constraint_on: 'x' } }],
    array_relationships: [{ name: 'rel', using: { foreign_key_constraint_on: { table: 'b', column: 'a_id' } } }],
  }), 'already-exists', `${T}.array_relationships[0].name`, 'relationship with name "rel" already exists on table "author"'],
  ['a permission without role', withTable({ select_permissions: [{ permission: { columns: '*', filter: {} } }] }), 'parse-failed', `${T}.select_permissions[0]`, "the key 'role' was not present"],
  ['a permission without body', withTable({ update_permissions: [{ role: 'user' }] }), 'parse-failed', `${T}.update_permissions[0]`, "the key 'permission' was not present"],
  ['a select permission without columns', withTable({ select_permissions: [{ role: 'user', permission: { filter: {} } }] }),
    'parse-failed', `${T}.select_permissions[0].permission`, "the key 'columns' was not present"],
  ['select columns given as a number', withTables({ table: 'a' }, { table: 'b' }, { table: 'c', select_permissions: [{ role: 'user', permission: { columns: 1, filter: {} } }] }),
    'parse-failed', '$.sources[0].tables[2].select_permissions[0].permission.columns',
    'parsing PermColSpec failed, expected "*" or an array of column names, but encountered Number'],
  ['a negative limit', withTable({ select_permissions: [{ role: 'user', permission: { columns: [], filter: {}, limit: -1 } }] }),
    'parse-failed', `${T}.select_permissions[0].permission.limit`, 'expected a non-negative integer, but found -1'],
  ['a select permission without filter', withTable({ select_permissions: [{ role: 'user', permission: { columns: '*' } }] }),
    'parse-failed', `${T}.select_permissions[0].permission`, "the key 'filter' was not present"],
  ['an insert permission without check', withTable({ insert_permissions: [{ role: 'user', permission: { columns: '*' } }] }),
    'parse-failed', `${T}.insert_permissions[0].permission`, "the key 'check' was not present"],
  ['an update permission without columns and filter', withTable({ update_permissions: [{ role: 'user', permission: { check: {} } }] }),
    'parse-failed', `${T}.update_permissions[0].permission`, "the key 'columns' was not present\u0000the key 'filter' was not present"],
  ['a delete permission without filter', withTable({ delete_permissions: [{ role: 'user', permission: { backend_only: true } }] }),
    'parse-failed', `${T}.delete_permissions[0].permission`, "the key 'filter' was not present"],
  ['one role twice in a permission list', withTable({ delete_permissions: [{ role: 'user', permission: { filter: {} } }, { role: 'user', permission: { filter: {} } }] }),
    'already-exists', `${T}.delete_permissions[1].role`, 'delete permission already defined on table "author" with role "user"'],
  ['an insert check that is not an object', withTable({ insert_permissions: [{ role: 'user', permission: { check: 'yes' } }] }),
    'parse-failed', `${T}.insert_permissions[0].permission.check`, 'parsing Object failed, expected Object, but encountered String'],
  ['a custom root field that is not a GraphQL name', withTable({ configuration: { custom_root_fields: { select: 'all authors' } } }),
    'parse-failed', `${T}.configuration.custom_root_fields.select`, '"all authors" is not a valid GraphQL name'],
  ['two custom root fields with one name', withTable({ configuration: { custom_root_fields: { select: 'x', select_aggregate: { name: 'x' } } } }),
    'parse-failed', `${T}.configuration.custom_root_fields`, 'the following custom root field names are duplicated: x'],
  ['a column config key that needs quoting', withTable({ configuration: { column_config: { 'my col': { custom_name: 3 } } } }),
    'parse-failed', `${T}.configuration.column_config['my col'].custom_name`, 'parsing Text failed, expected String, but encountered Number'],
  ['remote_schemas given as an object', { version: 3, sources: [], remote_schemas: {} }, 'parse-failed', '$.remote_schemas', 'parsing [] failed, expected Array, but encountered Object'],
  ['custom_types given as a list', { version: 3, sources: [], custom_types: [] }, 'parse-failed', '$.custom_types', 'parsing Object failed, expected Object, but encountered Array'],
  ['an action that is not an object', { version: 3, sources: [], actions: [{ name: 'a' }, 'b'] }, 'parse-failed', '$.actions[1]', 'parsing Object failed, expected Object, but encountered String'],
  ['event triggers given as an object', withTable({ event_triggers: {} }), 'parse-failed', `${T}.event_triggers`, 'parsing [] failed, expected Array, but encountered Object'],
  ['a wrapper whose metadata is a string', { resource_version: 3, metadata: 'x' }, 'parse-failed', '$.metadata', 'parsing Object failed, expected Object, but encountered String'],
  ['a legacy table name that is a list', { version: 2, tables: [{ table: ['a'] }] }, 'parse-failed', '$.tables[0].table', 'parsing Object failed, expected Object, but encountered Array'],
  ['a legacy function listed twice', { version: 2, tables: [], functions: ['f', { schema: 'public', name: 'f' }] },
    'already-exists', '$.functions[1]', 'function "public.f" already exists in source "default"'],
  ['a from_env that is not a string', { version: 3, sources: [{ name: 'd', kind: 'postgres', tables: [], configuration: { connection_info: { database_url: { from_env: 1 } } } }] },
    'parse-failed', '$.sources[0].configuration.connection_info.database_url.from_env', 'parsing Text failed, expected String, but encountered Number'],
  ['an empty role name', withTable({ select_permissions: [{ role: '', permission: { columns: '*', filter: {} } }] }), 'parse-failed', `${T}.select_permissions[0].role`, 'empty string not allowed'],
  // Hasura's parseListAsMap: the lists it keys by name refuse a name given twice, at the document.
  ['one collection twice in the allow-list', { version: 3, sources: [], allowlist: [{ collection: 'c1' }, { collection: 'c1', scope: { global: true } }] },
    'parse-failed', '$', 'multiple declarations exist for the following allowlist entries: c1'],
  ['two actions and two cron triggers of one name', { version: 3, sources: [], actions: [{ name: 'a' }, { name: 'b' }, { name: 'a' }, { name: 'b' }],
    cron_triggers: [{ name: 'c' }, { name: 'c' }] }, 'parse-failed', '$',
    'multiple declarations exist for the following actions: a, b\u0000multiple declarations exist for the following cron triggers: c'],
  ['a wrapped document with one remote schema twice', { metadata: { version: 3, sources: [], remote_schemas: [{ name: 'r' }, { name: 'r' }] } },
    'parse-failed', '$.metadata', 'multiple declarations exist for the following remote schemas: r'],
  ['a legacy document with one collection twice', { version: 2, tables: [], query_collections: [{ name: 'q' }, { name: 'q' }] }, 'parse-failed', '$',
    'multiple declarations exist for the following query collections: q'],
  ['one inherited role twice', { version: 3, sources: [], inherited_roles: [{ role_name: 'i', role_set: ['a'] }, { role_name: 'i', role_set: ['b'] }] },
    'parse-failed', '$', 'multiple declarations exist for the following inherited roles: i'],
  ['a raw value that is not JSON', { version: 3, sources: [], backend_configs: { timeout: Number.POSITIVE_INFINITY } }, 'parse-failed', '$.backend_configs.timeout', 'Infinity is not a JSON number'],
];

describe('bad metadata', () => {
  it.each(cases)('reports %s', (_name, doc, code, path, message) => {
    // Several problems at one path are written joined by \u0000 in the table above.
    expect(problems(doc)).toEqual(message.split('\u0000').map((m) => [code, path, m]));
  });

  it('reports every problem of a document at once, in document order', () => {
    const doc = {
      version: 3,
      sources: [
        { name: 'a', kind: 'nope', tables: [{ table: 't', select_permissions: [{ role: 'r', permission: { columns: 'id', filter: {} } }] }, { table: 't' }] },
        { name: 'a', kind: 'postgres', tables: 'all' },
      ],
      cron_triggers: 5,
    };
    expect(problems(doc).map(([code, path]) => `${code} ${path}`)).toEqual([
      'parse-failed $.sources[0].kind',
      'parse-failed $.sources[0].tables[0].select_permissions[0].permission.columns',
      'already-exists $.sources[0].tables[1].table',
      'parse-failed $.sources[1].tables',
      'already-exists $.sources[1].name',
      'parse-failed $.cron_triggers',
    ]);
  });

  it('answers every non-object input with one problem at $', () => {
    for (const doc of [undefined, 0, 'metadata', true, [], [{ version: 3 }]]) {
      const r = parseMetadata(doc);
      expect(r.value).toBeNull();
      expect(r.errors.map((e) => [e.code, formatPath(e.path)])).toEqual([['parse-failed', '$']]);
    }
  });
});
