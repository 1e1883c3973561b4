// Names between GraphQL and SQL: custom table, column and root field names, reserved words and
// mixed case, enum tables, and computed fields (scalar and table-returning, with arguments).
import { describe, expect, it } from 'vitest';
import type { TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, serveOnFreshDatabase, table } from './setup.js';

const SETUP = `
CREATE TABLE status (value text PRIMARY KEY, comment text);
INSERT INTO status VALUES ('ACTIVE', 'in use'), ('RETIRED', NULL);
CREATE TABLE "user" (id int PRIMARY KEY, "select" text NOT NULL, "CamelCase" int, status text NOT NULL REFERENCES status(value));
CREATE TABLE "order" (id int PRIMARY KEY, user_id int NOT NULL REFERENCES "user"(id), total numeric NOT NULL);
INSERT INTO "user" VALUES (1, 'one', 10, 'ACTIVE'), (2, 'two', 20, 'RETIRED'), (3, 'three', NULL, 'ACTIVE');
INSERT INTO "order" VALUES (1, 1, 5), (2, 1, 7.5), (3, 2, 1);
CREATE FUNCTION user_label(u "user") RETURNS text LANGUAGE sql STABLE AS $$ SELECT u."select" || '#' || u.id $$;
CREATE FUNCTION user_big_orders(u "user", min numeric DEFAULT 0) RETURNS SETOF "order" LANGUAGE sql STABLE
  AS $$ SELECT * FROM "order" o WHERE o.user_id = u.id AND o.total >= min $$;
CREATE FUNCTION user_scaled(factor int, u "user") RETURNS int LANGUAGE sql STABLE AS $$ SELECT u."CamelCase" * factor $$;
CREATE FUNCTION user_is_me(svc_session json, u "user") RETURNS boolean LANGUAGE sql STABLE
  AS $$ SELECT u.id = (svc_session->>'x-svc-user-id')::int $$;
CREATE FUNCTION members_like(pattern text, svc_session json, lim int DEFAULT 10) RETURNS SETOF "user" LANGUAGE sql STABLE
  AS $$ SELECT * FROM "user" WHERE "select" LIKE pattern AND id <> coalesce((svc_session->>'x-svc-skip')::int, 0) LIMIT lim $$;
`;

const METADATA = metadataOf([
  table('status', { is_enum: true }),
  table('user', {
    configuration: {
      custom_name: 'member',
      custom_root_fields: { select: 'members', select_by_pk: 'member_one' },
      column_config: { select: { custom_name: 'title' }, CamelCase: { custom_name: 'camel' } },
    },
    array_relationships: [{ name: 'orders', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'order' }, column: 'user_id' } } }],
    computed_fields: [
      { name: 'label', definition: { function: { schema: 'public', name: 'user_label' } } },
      { name: 'big_orders', definition: { function: { schema: 'public', name: 'user_big_orders' } } },
      { name: 'scaled', definition: { function: { schema: 'public', name: 'user_scaled' }, table_argument: 'u' } },
      { name: 'is_me', definition: { function: { schema: 'public', name: 'user_is_me' }, table_argument: 'u', session_argument: 'svc_session' } },
    ],
    select_permissions: [{ role: 'viewer', permission: { columns: ['id', 'select'], computed_fields: ['label'], filter: { CamelCase: { _gte: 10 } } } }],
  }),
  table('order', {
    object_relationships: [{ name: 'buyer', using: { foreign_key_constraint_on: 'user_id' } }],
    select_permissions: [{ role: 'viewer', permission: { columns: ['id', 'total'], filter: {} } }],
  }),
], [{ function: { schema: 'public', name: 'members_like' }, configuration: { session_argument: 'svc_session' } }]);

let kiln: TestKiln;
serveOnFreshDatabase('names', SETUP, METADATA, (_, k) => { kiln = k; });

const q = async (query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<Record<string, unknown>> =>
  dataOf(await kiln.gql(query, variables ?? null, headers));

describe('custom names and quoting', () => {
  it('reads reserved-word tables and renamed columns under their GraphQL names', async () => {
    const d = await q('{ members(order_by: {camel: desc_nulls_last}) { id title camel __typename orders(order_by: {total: asc}) { total buyer { title } } } }');
    expect(d['members']).toEqual([
      { id: 2, title: 'two', camel: 20, __typename: 'member', orders: [{ total: 1, buyer: { title: 'two' } }] },
      { id: 1, title: 'one', camel: 10, __typename: 'member', orders: [{ total: 5, buyer: { title: 'one' } }, { total: 7.5, buyer: { title: 'one' } }] },
      { id: 3, title: 'three', camel: null, __typename: 'member', orders: [] },
    ]);
    expect((await q('{ member_one(id: 3) { title } }'))['member_one']).toEqual({ title: 'three' });
  });

  it('uses the GraphQL names in where, distinct_on and aggregates', async () => {
    expect(ids((await q('{ members(where: {title: {_like: "t%"}, camel: {_is_null: false}}) { id } }'))['members'])).toEqual([2]);
    expect(ids((await q('{ order(where: {buyer: {title: {_eq: "one"}}}, order_by: {id: asc}) { id } }'))['order'])).toEqual([1, 2]);
    expect((await q('{ members(distinct_on: camel, order_by: {camel: asc}) { camel } }'))['members']).toEqual([{ camel: 10 }, { camel: 20 }, { camel: null }]);
    const a = await q('{ member_aggregate { aggregate { count(columns: camel) max { camel title } } } }');
    expect(a).toEqual({ member_aggregate: { aggregate: { count: 2, max: { camel: 20, title: 'two' } } } });
    expect(errorOf(await kiln.gql('{ members { select } }')).message).toBe('field "select" not found in type: \'member\'');
  });

  it('maps enum-table columns to a GraphQL enum', async () => {
    expect(ids((await q('{ members(where: {status: {_eq: ACTIVE}}, order_by: {id: asc}) { id status } }'))['members'])).toEqual([1, 3]);
    expect((await q('query Q($s: status_enum) { members(where: {status: {_neq: $s}}) { status } }', { s: 'ACTIVE' }))['members']).toEqual([{ status: 'RETIRED' }]);
    expect(errorOf(await kiln.gql('{ members(where: {status: {_eq: GONE}}) { id } }')).code).toBe('validation-failed');
  });
});

describe('tracked functions', () => {
  it('passes user arguments and the session to a function whose session argument is not the first', async () => {
    const run = async (args: string, headers?: Record<string, string>): Promise<unknown[]> =>
      ids((await q(`{ members_like(args: ${args}, order_by: {id: asc}) { id } }`, undefined, headers))['members_like']);
    expect(await run('{pattern: "t%"}')).toEqual([2, 3]);
    expect(await run('{pattern: "t%"}', { 'X-Svc-Skip': '3' })).toEqual([2]);
    expect(await run('{pattern: "%", lim: 1}')).toEqual([1]);
    const agg = await q('{ members_like_aggregate(args: {pattern: "%o%"}) { aggregate { count } } }');
    expect(agg).toEqual({ members_like_aggregate: { aggregate: { count: 2 } } });
  });
});

describe('computed fields', () => {
  it('selects, filters and orders by a scalar computed field', async () => {
    const d = await q('{ members(where: {label: {_like: "t%"}}, order_by: {id: asc}) { id label } }');
    expect(d['members']).toEqual([{ id: 2, label: 'two#2' }, { id: 3, label: 'three#3' }]);
    expect(ids((await q('{ members(order_by: {label: desc}) { id } }'))['members'])).toEqual([2, 3, 1]);
  });

  it('selects a table computed field with arguments and select arguments', async () => {
    const d = await q('{ member_one(id: 1) { all: big_orders(args: {}, order_by: {id: asc}) { id } big: big_orders(args: {min: 6}) { total } } }');
    expect(d['member_one']).toEqual({ all: [{ id: 1 }, { id: 2 }], big: [{ total: 7.5 }] });
  });

  it('passes the row to a function whose table argument is not the first', async () => {
    const d = await q('{ member_one(id: 2) { scaled(args: {factor: 3}) } }');
    expect(d['member_one']).toEqual({ scaled: 60 });
  });

  it('passes the session to a computed field in selections, filters and ordering', async () => {
    const me = { 'X-Svc-User-Id': '2' };
    expect((await q('{ members(where: {is_me: {_eq: true}}) { id is_me } }', undefined, me))['members']).toEqual([{ id: 2, is_me: true }]);
    expect(ids((await q('{ members(order_by: [{is_me: desc}, {id: asc}]) { id } }', undefined, me))['members'])).toEqual([2, 1, 3]);
  });

  it('keeps a role to its permitted rows, columns and computed fields', async () => {
    const viewer = { 'X-Svc-Role': 'viewer' };
    expect((await q('{ members(order_by: {id: asc}) { id title label } }', null as never, viewer))['members'])
      .toEqual([{ id: 1, title: 'one', label: 'one#1' }, { id: 2, title: 'two', label: 'two#2' }]);
    expect(errorOf(await kiln.gql('{ members { scaled(args: {factor: 1}) } }', null, viewer)).message).toBe('field "scaled" not found in type: \'member\'');
  });
});
