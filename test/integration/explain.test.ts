// POST /v1/graphql/explain through a real socket on a real database: per root field the SQL the
// session's role would run (its permission filter included, request values as parameters) and
// PostgreSQL's plan; admin only; mutations refused; bad requests answered with Hasura's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id), views int NOT NULL);
INSERT INTO author VALUES (1, 'Alice'), (2, 'Bob');
INSERT INTO article VALUES (1, 'A1', 1, 10), (2, 'A2', 1, 3), (3, 'B1', 2, 7);
`;

const METADATA = metadataOf([
  table('author', {
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: {} } }],
  }),
  table('article', {
    object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
    select_permissions: [{ role: 'user', permission: { columns: ['id', 'title', 'views'], filter: { author_id: { _eq: 'X-Svc-User-Id' } } } }],
  }),
]);

const SECRET = 'explain-secret';
const QUERY = 'query Popular($min: Int!) { article(where: {views: {_gte: $min}}) { id title author { name } } }';

interface Entry { field: string; sql: string | null; plan: string[] | null }

let db: TestDatabase;
let open: TestKiln;
let guarded: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('explain', SETUP);
  open = await startKiln({ metadata: METADATA, databaseUrl: db.url });
  guarded = await startKiln({ metadata: METADATA, databaseUrl: db.url, adminSecret: SECRET });
});

afterAll(async () => {
  await open?.close();
  await guarded?.close();
  await db?.drop();
});

async function explain(kiln: TestKiln, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const r = await kiln.post('/v1/graphql/explain', JSON.stringify(body), headers);
  return { status: r.status, body: JSON.parse(r.text) as unknown };
}

// The statement part of an entry's `sql` (the parameter notes follow it as comment lines).
const statementOf = (sql: string): string => sql.split('\n').filter((l) => !l.startsWith('-- $')).join('\n');

describe('explain of a query', () => {
  it('shows the role\'s filter, the variable and session value as parameters, and PostgreSQL\'s plan', async () => {
    const r = await explain(open, { query: { query: QUERY, variables: { min: 5 }, operationName: 'Popular' },
      user: { 'x-svc-role': 'user', 'X-Svc-User-Id': '1' } });
    expect(r.status).toBe(200);
    const entries = r.body as Entry[];
    expect(entries).toHaveLength(1);
    const [e] = entries;
    expect(e!.field).toBe('article');
    const statement = statementOf(e!.sql!);
    expect(statement).toContain('FROM "public"."article"');
    expect(statement).toContain('FROM "public"."author"');
    // The permission filter on the session value and the where on the variable, both placeholders.
    expect(statement).toMatch(/"author_id" = \(\$\d+\)::int4/);
    expect(statement).toMatch(/"views" >= \(\$\d+\)::int4/);
    expect(e!.sql).toMatch(/^-- \$\d+ = session x-svc-user-id :: int4 = "1"$/m);
    expect(e!.sql).toMatch(/^-- \$\d+ = variable \$min :: int4 = 5$/m);
    // EXPLAIN output, one line per element, planned with the bound values.
    expect(Array.isArray(e!.plan)).toBe(true);
    const plan = e!.plan!.join('\n');
    expect(e!.plan![0]).toMatch(/cost=\d/);
    expect(plan).toMatch(/on article/);
    expect(plan).toMatch(/author_id = 1/);
    expect(plan).toMatch(/views >= 5/);
    // The shown statement, run with the values its notes list, answers what /v1/graphql answers the role.
    const values = e!.sql!.split('\n').filter((l) => l.startsWith('-- $')).map((l) => JSON.parse(l.slice(l.lastIndexOf(' = ') + 3)) as unknown);
    const [row] = await db.query(statement, values);
    const viaGraphql = await open.gql(QUERY, { min: 5 }, { 'x-svc-role': 'user', 'x-svc-user-id': '1' });
    expect(JSON.parse(Object.values(row!)[0] as string)).toEqual(viaGraphql.data);
    expect(viaGraphql.data).toEqual({ article: [{ id: 1, title: 'A1', author: { name: 'Alice' } }] });
  });

  it('plans as admin without the role filter when no user is given', async () => {
    const r = await explain(open, { query: { query: QUERY, variables: { min: 5 } } });
    expect(r.status).toBe(200);
    const [e] = r.body as Entry[];
    expect(statementOf(e!.sql!)).not.toContain('"author_id" = (');
    expect(e!.plan!.join('\n')).not.toMatch(/author_id = /);
  });

  it('answers one entry per root field, by response key, with nulls for __typename', async () => {
    const r = await explain(open, { query: { query: '{ a: article { id } author_by_pk(id: 2) { name } __typename }' } });
    expect(r.status).toBe(200);
    const entries = r.body as Entry[];
    expect(entries.map((x) => x.field)).toEqual(['a', 'author_by_pk', '__typename']);
    expect(entries[0]!.sql).toContain('json_build_object(\'a\'');
    expect(entries[1]!.sql).toMatch(/^-- \$1 = constant 2 :: int4$/m);
    expect(entries[1]!.plan!.join('\n')).toMatch(/author/);
    expect(entries[2]).toEqual({ field: '__typename', sql: null, plan: null });
  });

  it('explains a live-query subscription as its multiplexed statement', async () => {
    const r = await explain(open, { query: { query: 'subscription { article { id } }' }, user: { 'x-svc-role': 'user', 'x-svc-user-id': '2' } });
    expect(r.status).toBe(200);
    const body = r.body as { sql: string; plan: string[]; variables: unknown };
    expect(body.sql).toContain('unnest(');
    expect(body.sql).toMatch(/^-- \$2 = session x-svc-user-id :: int4 = \["2"\] \(one text value per cohort\)$/m);
    expect(body.plan.join('\n')).toMatch(/on article/);
    expect(body.variables).toEqual({ synthetic: [], query: {}, session: { 'x-svc-user-id': '2' } });
  });
});

describe('explain refusals', () => {
  it('is admin only: a caller of another role is refused', async () => {
    const r = await explain(open, { query: { query: QUERY, variables: { min: 1 } } }, { 'x-svc-role': 'user', 'x-svc-user-id': '1' });
    expect(r).toEqual({ status: 400, body: { path: '$', error: 'You have to be an admin to access this endpoint', code: 'access-denied' } });
  });

  it('wants the admin secret when one is configured', async () => {
    const body = { query: { query: '{ author { id } }' } };
    expect(await explain(guarded, body)).toEqual({ status: 401,
      body: { path: '$', error: 'x-svc-admin-secret/x-svc-access-key required, but not found', code: 'access-denied' } });
    expect(await explain(guarded, body, { 'x-svc-admin-secret': 'wrong' })).toEqual({ status: 401,
      body: { path: '$', error: 'invalid x-svc-admin-secret/x-svc-access-key', code: 'access-denied' } });
    const ok = await explain(guarded, body, { 'x-svc-admin-secret': SECRET });
    expect(ok.status).toBe(200);
    expect((ok.body as Entry[])[0]!.field).toBe('author');
  });

  it('refuses a mutation and runs nothing', async () => {
    const r = await explain(open, { query: { query: 'mutation { delete_article(where: {}) { affected_rows } }' } });
    expect(r).toEqual({ status: 400, body: { path: '$', error: 'only queries can be explained', code: 'invalid-params' } });
    expect(await db.query('SELECT count(*)::int AS n FROM article')).toEqual([{ n: 3 }]);
  });

  it('answers validation errors for a query the role cannot run', async () => {
    expect(await explain(open, { query: { query: '{ article { nope } }' } })).toEqual({ status: 400,
      body: { path: '$.selectionSet.article.selectionSet.nope', error: 'field "nope" not found in type: \'article\'', code: 'validation-failed' } });
    // `author_id` is not among the user role's columns.
    const r = await explain(open, { query: { query: '{ article { author_id } }' }, user: { 'x-svc-role': 'user', 'x-svc-user-id': '1' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'validation-failed', error: 'field "author_id" not found in type: \'article\'' });
    expect(await explain(open, { query: { query: '{ article { ' } })).toEqual({ status: 400,
      body: { path: '$.query', error: 'not a valid graphql query', code: 'validation-failed' } });
    expect(await explain(open, { query: { query: QUERY } })).toEqual({ status: 400,
      body: { path: '$', error: 'expecting a value for non-nullable variable: "min"', code: 'validation-failed' } });
  });

  it('answers parse errors for a malformed body', async () => {
    expect(await explain(open, { user: {} })).toEqual({ status: 400, body: { path: '$', error: "the key 'query' was not present", code: 'parse-failed' } });
    expect(await explain(open, { query: { query: 1 } })).toEqual({ status: 400,
      body: { path: '$.query.query', error: 'parsing Text failed, expected String, but encountered Number', code: 'parse-failed' } });
    expect(await explain(open, { query: { query: '{ author { id } }' }, user: { 'x-svc-role': 7 } })).toEqual({ status: 400,
      body: { path: "$.user['x-svc-role']", error: 'parsing Text failed, expected String, but encountered Number', code: 'parse-failed' } });
  });
});
