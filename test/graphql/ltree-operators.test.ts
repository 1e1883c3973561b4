// ltree columns in boolean expressions, as Hasura v2 offers them: `_ancestor`, `_descendant`
// (and their `_any` list forms), `_matches` (lquery), `_matches_any`, `_matches_fulltext`
// (ltxtquery), in a query's `where`, a delete's `where` and a permission filter; an operand that is
// not a label path is parse-failed at the operand, before the database sees it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('ltree operators', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> =>
    (await server.post(path, body, headers)).body;
  const names = async (where: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const vars = Object.keys(variables).map((k) => `$${k}: [ltree!]`).join(', ');
    const r = await post('/v1/graphql', { query: `query ${vars ? `(${vars})` : ''} { dept(where: ${where}, order_by: {name: asc}) { name } }`, variables }, headers);
    return r.data ? r.data.dept.map((d: any) => d.name) : r;
  };

  beforeAll(async () => {
    server = await serveDatabase('ltreeops');
    db = server.db;
    const setup = await post('/v1/query', { type: 'bulk', args: [
      { type: 'run_sql', args: { sql: `CREATE EXTENSION IF NOT EXISTS ltree;
        CREATE TABLE dept (name text PRIMARY KEY, at ltree NOT NULL);
        INSERT INTO dept VALUES ('co', 'Co'), ('eng', 'Co.Eng'), ('web', 'Co.Eng.Web'), ('db', 'Co.Eng.Db'),
          ('ops', 'Co.Ops'), ('oncall', 'Co.Ops.OnCall');` } },
      { type: 'track_table', args: { table: 'dept' } },
      { type: 'create_select_permission', args: { table: 'dept', role: 'engineer', permission: { columns: ['name', 'at'], filter: { at: { _descendant: 'Co.Eng' } } } } },
    ] });
    expect(setup).toHaveLength(3);
  }, 60_000);
  afterAll(() => server?.close());

  it('selects ancestors and descendants of a path or of any path of a list', async () => {
    expect(await names('{at: {_ancestor: "Co.Eng.Web"}}')).toEqual(['co', 'eng', 'web']);
    expect(await names('{at: {_descendant: "Co.Ops"}}')).toEqual(['oncall', 'ops']);
    expect(await names('{at: {_ancestor_any: $p}}', { p: ['Co.Eng.Db', 'Co.Ops'] })).toEqual(['co', 'db', 'eng', 'ops']);
    expect(await names('{at: {_descendant_any: ["Co.Eng.Web", "Co.Ops.OnCall"]}}')).toEqual(['oncall', 'web']);
  });

  it('matches lquery, any of a list of lquery, and ltxtquery', async () => {
    expect(await names('{at: {_matches: "*.Eng.*{1}"}}')).toEqual(['db', 'web']);
    expect(await names('{at: {_matches_any: ["Co.Ops", "*.Db"]}}')).toEqual(['db', 'ops']);
    expect(await names('{at: {_matches_fulltext: "Ops & !OnCall"}}')).toEqual(['ops']);
  });

  it('refuses an operand that is not a label path at the operand, on a literal, a list item and a variable', async () => {
    const failed = (path: string) => ({ errors: [{ message: 'Expecting label path: a sequence of zero or more labels separated by dots, for example L1.L2.L3',
      extensions: { code: 'parse-failed', path } }] });
    expect(await names('{at: {_ancestor: "Co..Eng"}}')).toEqual(failed('$.selectionSet.dept.args.where.at._ancestor'));
    expect(await names('{at: {_descendant_any: ["Co", "Co.Eng."]}}')).toEqual(failed('$.selectionSet.dept.args.where.at._descendant_any[1]'));
    expect(await names('{at: {_ancestor_any: $p}}', { p: ['.Co'] })).toEqual(failed('$.selectionSet.dept.args.where.at._ancestor_any[0]'));
  });

  it('applies ltree operators in permission filters and in a delete\'s where', async () => {
    expect(await names('{}', {}, { 'x-svc-role': 'engineer' })).toEqual(['db', 'eng', 'web']);
    const del = await post('/v1/graphql', { query: 'mutation { delete_dept(where: {at: {_matches: "Co.Ops.*"}}) { affected_rows } }' });
    expect(del).toEqual({ data: { delete_dept: { affected_rows: 2 } } });
    expect(await names('{}')).toEqual(['co', 'db', 'eng', 'web']);
  });
});
