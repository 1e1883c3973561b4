// Root fields of two sources (two databases) in one query: one statement per source, answered as
// one `data` object in the order the query asked for the fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';

let main: TestDatabase;
let other: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  main = await createTestDatabase('msrc_a', `CREATE TABLE book (id int PRIMARY KEY, title text NOT NULL);
    INSERT INTO book VALUES (1, 'Dune'), (2, 'Emma');`);
  other = await createTestDatabase('msrc_b', `CREATE TABLE shelf (id int PRIMARY KEY, label text NOT NULL);
    INSERT INTO shelf VALUES (10, 'fiction');`);
  kiln = await startKiln({
    databaseUrl: main.url,
    metadata: {
      version: 3,
      sources: [
        { name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: main.url } },
          tables: [{ table: { schema: 'public', name: 'book' }, select_permissions: [{ role: 'user', permission: { columns: ['title'], filter: { id: { _eq: 'X-Svc-User-Id' } } } }] }] },
        { name: 'archive', kind: 'postgres', configuration: { connection_info: { database_url: other.url } },
          tables: [{ table: { schema: 'public', name: 'shelf' } }] },
      ],
    },
  });
});

afterAll(async () => {
  await kiln?.close();
  await main?.drop();
  await other?.drop();
});

describe('several sources in one query', () => {
  it('answers fields of both databases, in the order asked, interleaved with __typename', async () => {
    const res = await kiln.gql('{ s: shelf { label } __typename b: book(order_by: {id: asc}) { title } c: shelf_aggregate { aggregate { count } } }');
    expect(res.errors).toBeUndefined();
    expect(Object.keys(res.data!)).toEqual(['s', '__typename', 'b', 'c']);
    expect(res.data).toEqual({ s: [{ label: 'fiction' }], __typename: 'query_root', b: [{ title: 'Dune' }, { title: 'Emma' }], c: { aggregate: { count: 1 } } });
  });

  it('keeps each source on its own database and role rules', async () => {
    const res = await kiln.gql('{ book { title } }', null, { 'x-svc-role': 'user', 'x-svc-user-id': '2' });
    expect(res.data).toEqual({ book: [{ title: 'Emma' }] });
    const denied = await kiln.gql('{ shelf { label } }', null, { 'x-svc-role': 'user', 'x-svc-user-id': '2' });
    expect(denied.errors?.[0]?.extensions.code).toBe('validation-failed');
  });
});
