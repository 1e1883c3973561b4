// A relationship's rows drop the part of their filter that their parent row proves: a filter
// conjunct "the relationship back to the parent, on the keys the rows are joined by, reaches a row
// that passes W", where W is part of the parent's own filter (runtime/graphql/bool.ts,
// filterAfterParent). These tests hold every role's answers to the rows the full filters allow, on
// a real database, in the cases where the conjunct is proved and in those where it must stay: other
// join keys, a W the parent's filter does not contain, a W naming the root row, a parent read
// from a function; and they hold the IR proof (`kiln check`'s) to both directions.
import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { permissionGaps, planOperation, planQueryIr } from '../../runtime/graphql/index.js';
import { Alias, postgres, type JsonValue, type ListSelect } from '../../runtime/sql/index.js';
import type { TestKiln } from '../helpers/kiln.js';
import { dataOf, ids, metadataOf, serveOnFreshDatabase, table } from './setup.js';

// Accounts 1 and 2 are u1's, 3 is u2's. Doc 12 is in region eu like account 1 but is account 3's;
// doc 13's label is not its account's owner. Note 101 is a secret.
const SETUP = `
CREATE TABLE account (id int PRIMARY KEY, owner text NOT NULL, region text NOT NULL, label text NOT NULL);
CREATE TABLE doc (id int PRIMARY KEY, account_id int NOT NULL REFERENCES account(id), region text NOT NULL, label text NOT NULL);
CREATE TABLE note (id int PRIMARY KEY, doc_id int NOT NULL REFERENCES doc(id), body text NOT NULL);
INSERT INTO account VALUES (1, 'u1', 'eu', 'u1'), (2, 'u1', 'us', 'u1'), (3, 'u2', 'eu', 'u2');
INSERT INTO doc VALUES (10, 1, 'eu', 'u1'), (11, 2, 'us', 'u1'), (12, 3, 'eu', 'u2'), (13, 1, 'eu', 'x');
INSERT INTO note VALUES (100, 10, 'a'), (101, 10, 'secret'), (102, 12, 'b'), (103, 11, 'c');
CREATE FUNCTION account_docs_fn(a account) RETURNS SETOF account LANGUAGE sql STABLE AS $$ SELECT * FROM account WHERE id = a.id $$;
`;

const owned = { owner: { _eq: 'X-Svc-User-Id' } };
const docPerm = (filter: unknown) => ({ columns: ['id', 'account_id', 'region', 'label'], filter, allow_aggregations: true });

const METADATA = metadataOf([
  table('account', {
    array_relationships: [
      { name: 'docs', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'doc' }, column: 'account_id' } } },
      // Same table, other keys: a doc of the region need not be one of the account's.
      { name: 'region_docs', using: { manual_configuration: { remote_table: { schema: 'public', name: 'doc' }, column_mapping: { region: 'region' } } } },
    ],
    computed_fields: [{ name: 'itself', definition: { function: { schema: 'public', name: 'account_docs_fn' } } }],
    select_permissions: [
      { role: 'owner', permission: { columns: ['id', 'owner', 'region'], filter: owned } },
      { role: 'eu_owner', permission: { columns: ['id', 'owner', 'region'], filter: { _and: [owned, { region: { _eq: 'eu' } }] } } },
      { role: 'wider', permission: { columns: ['id', 'owner', 'region'], filter: owned } },
      { role: 'rooted', permission: { columns: ['id', 'owner', 'region'], filter: { owner: { _ceq: ['$', 'label'] } } } },
    ],
  }),
  table('doc', {
    object_relationships: [{ name: 'account', using: { foreign_key_constraint_on: 'account_id' } }],
    array_relationships: [{ name: 'notes', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'note' }, column: 'doc_id' } } }],
    select_permissions: [
      { role: 'owner', permission: docPerm({ account: owned }) },
      { role: 'eu_owner', permission: docPerm({ account: owned }) },
      // Asks more of the account than the account's own filter does.
      { role: 'wider', permission: docPerm({ account: { _and: [owned, { region: { _eq: 'us' } }] } }) },
      // `$` is the doc here, the account in the account's filter: the same words, not the same filter.
      { role: 'rooted', permission: docPerm({ account: { owner: { _ceq: ['$', 'label'] } } }) },
    ],
  }),
  table('note', {
    object_relationships: [{ name: 'doc', using: { foreign_key_constraint_on: 'doc_id' } }],
    select_permissions: [
      { role: 'owner', permission: { columns: ['id', 'body'], filter: { _and: [{ doc: { account: owned } }, { body: { _neq: 'secret' } }] } } },
    ],
  }),
]);

let kiln: TestKiln;
serveOnFreshDatabase('after_parent', SETUP, METADATA, (_, k) => { kiln = k; });

const as = (role: string, user = 'u1') => ({ 'x-svc-role': role, 'x-svc-user-id': user });

function plan(role: string, query: string) {
  const document = parse(query);
  const args = { model: kiln.bundle.model, schema: kiln.bundle.schemas[role]!, role, dialect: postgres, stringifyNumeric: false,
    document, operation: document.definitions[0] as OperationDefinitionNode, variables: {}, structural: new Set<string>() };
  return { statement: planOperation(args), ir: planQueryIr(args) };
}

// The statement's text for `query` as `role`.
function sqlOf(role: string, query: string): string {
  const { statement } = plan(role, query);
  if (statement.kind !== 'sql') throw new Error('expected one statement');
  return statement.sql.text;
}

const existsCount = (text: string): number => text.split('EXISTS').length - 1;

describe('the rows of an array relationship and their parent row', () => {
  it("drops the conjunct the parent proves, keeps the rest, and answers what the full filters allow", async () => {
    const q = '{ account(order_by: {id: asc}) { id docs(order_by: {id: asc}) { id notes(order_by: {id: asc}) { id body } } docs_aggregate { aggregate { count } nodes { id } } } }';
    const data = dataOf(await kiln.gql(q, null, as('owner')));
    expect(data.account).toEqual([
      { id: 1, docs: [{ id: 10, notes: [{ id: 100, body: 'a' }] }, { id: 13, notes: [] }], docs_aggregate: { aggregate: { count: 2 }, nodes: [{ id: 10 }, { id: 13 }] } },
      { id: 2, docs: [{ id: 11, notes: [{ id: 103, body: 'c' }] }], docs_aggregate: { aggregate: { count: 1 }, nodes: [{ id: 11 }] } },
    ]);
    // No EXISTS left: docs (list and aggregate) and notes are tied to a visible parent; the note's
    // own condition on its body stays.
    const text = sqlOf('owner', q);
    expect(existsCount(text)).toBe(0);
    expect(text).toContain('"body" <> ');
    // u2 sees account 3 only, with its doc 12 and the note on it.
    expect(dataOf(await kiln.gql('{ account { id docs { id notes { id } } } }', null, as('owner', 'u2'))).account)
      .toEqual([{ id: 3, docs: [{ id: 12, notes: [{ id: 102 }] }] }]);
  });

  it('keeps the filter where the rows are joined by other keys', async () => {
    const q = '{ account(order_by: {id: asc}) { id region_docs(order_by: {id: asc}) { id } } }';
    // Doc 12 is in account 1's region, but it is account 3's: u1 may not see it.
    expect(dataOf(await kiln.gql(q, null, as('owner'))).account).toEqual([
      { id: 1, region_docs: [{ id: 10 }, { id: 13 }] },
      { id: 2, region_docs: [{ id: 11 }] },
    ]);
    expect(existsCount(sqlOf('owner', q))).toBe(1);
  });

  it("proves the conjunct when the parent's filter asks more, not when it asks less", async () => {
    const q = '{ account(order_by: {id: asc}) { id docs(order_by: {id: asc}) { id } } }';
    expect(dataOf(await kiln.gql(q, null, as('eu_owner'))).account).toEqual([{ id: 1, docs: [{ id: 10 }, { id: 13 }] }]);
    expect(existsCount(sqlOf('eu_owner', q))).toBe(0);
    // wider: docs only of u1's accounts in region us, though both accounts are visible.
    expect(dataOf(await kiln.gql(q, null, as('wider'))).account).toEqual([{ id: 1, docs: [] }, { id: 2, docs: [{ id: 11 }] }]);
    expect(existsCount(sqlOf('wider', q))).toBe(1);
  });

  it('keeps a filter that names the root row', async () => {
    const q = '{ account(order_by: {id: asc}) { id docs(order_by: {id: asc}) { id } } }';
    // Account 1 passes (owner = its label); doc 13's label is not u1, so its account's owner is not it.
    expect(dataOf(await kiln.gql(q, null, as('rooted'))).account).toEqual([
      { id: 1, docs: [{ id: 10 }] }, { id: 2, docs: [{ id: 11 }] }, { id: 3, docs: [{ id: 12 }] },
    ]);
    expect(existsCount(sqlOf('rooted', q))).toBe(1);
  });

  it("keeps the filter under a parent read from a function, and under the root field's own rows", async () => {
    const viaFn = '{ account(order_by: {id: asc}) { id itself { id docs { id } } } }';
    expect(existsCount(sqlOf('owner', viaFn))).toBe(1);
    expect(ids(dataOf(await kiln.gql(viaFn, null, as('owner'))).account)).toEqual([1, 2]);
    const root = '{ doc(order_by: {id: asc}) { id } }';
    expect(ids(dataOf(await kiln.gql(root, null, as('owner'))).doc)).toEqual([10, 11, 13]);
    expect(existsCount(sqlOf('owner', root))).toBe(1);
  });
});

describe("the IR proof of a filter left out in part", () => {
  const valuesOf = (role: string, query: string): JsonValue[] => {
    const { ir } = plan(role, query);
    if (ir.kind !== 'steps') throw new Error('expected SQL steps');
    return ir.plan.steps.flatMap((s) => s.fields.map((f) => f.value));
  };
  const ctxOf = (role: string, query: string) => {
    const { ir } = plan(role, query);
    if (ir.kind !== 'steps') throw new Error('expected SQL steps');
    return ir.ctx;
  };
  const q = '{ account { id docs { id } } }';
  const docsOf = (v: JsonValue): ListSelect => (((v as ListSelect).shape.fields[1]!.value) as ListSelect);

  it('accepts what the parent proves', () => {
    const [v] = valuesOf('owner', q);
    expect(docsOf(v!).rows.permission.afterParent).toBeDefined();
    expect(docsOf(v!).rows.permission.filter).toEqual({ kind: 'true' });
    expect(permissionGaps([v!], ctxOf('owner', q))).toEqual([]);
  });

  it('finds a filter left out that the parent does not prove', () => {
    const [v] = valuesOf('owner', q);
    const list = v as ListSelect;
    const docs = docsOf(list);
    const withShape = (d: ListSelect): ListSelect => ({ ...list, shape: { kind: 'object', fields: [list.shape.fields[0]!, { key: 'docs', value: d }] } });
    // Tied to the account by another key: the parent proves nothing.
    const otherKey: ListSelect = { ...docs, rows: { ...docs.rows, join: [{ kind: 'equals', left: { kind: 'column', row: docs.rows.row, column: 'region' }, right: { kind: 'column', row: list.rows.row, column: 'region' } }] } };
    expect(permissionGaps([withShape(otherKey)], ctxOf('owner', q))).toEqual(['default:public.doc: the filter left out is not what the parent row proves']);
    // A root list claiming a parent: its own child, and a row nothing reads.
    const claim = (parent: Alias): ListSelect => ({ ...list, rows: { ...list.rows, permission: { ...list.rows.permission, filter: { kind: 'true' }, afterParent: parent } } });
    expect(permissionGaps([claim(docs.rows.row)], ctxOf('owner', q))[0]).toBe('default:public.account: the filter left out is not what the parent row proves');
    expect(permissionGaps([claim(new Alias('account'))], ctxOf('owner', q))[0]).toBe('default:public.account: the filter is left out in part for a parent that is not a read of a table');
    // For wider, the same IR is not proved: its docs filter asks more of the account.
    expect(permissionGaps([v!], ctxOf('wider', q))).toEqual(['default:public.doc: the filter left out is not what the parent row proves']);
  });
});
