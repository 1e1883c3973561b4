// The planners ask the dialect what it can do (Dialect.can) instead of its name: a dialect
// without a capability gets a clear not-supported error at planning time, with the path of
// what asked for it; the same operation plans on PostgreSQL.
import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../runtime/errors/index.js';
import { planMutation, planOperation } from '../../runtime/graphql/index.js';
import { postgres, type Dialect, type DialectCapabilities } from '../../runtime/sql/index.js';
import { compileFixture } from '../helpers/fixtures.js';

describe('planning reads the dialect capabilities', async () => {
  const bundle = await compileFixture('blog');
  const input = (query: string, dialect: Dialect) => {
    const document = parse(query);
    const operation = document.definitions[0] as OperationDefinitionNode;
    return { model: bundle.model, schema: bundle.schemas['admin']!, role: 'admin', dialect, stringifyNumeric: false, document, operation, variables: {}, structural: new Set<string>() };
  };
  const without = (can: Partial<DialectCapabilities>): Dialect => ({ ...postgres, name: 'mssql', can: { ...postgres.can, ...can } });
  const refusal = (f: () => unknown): ApiError => {
    try { f(); } catch (e) { if (e instanceof ApiError) return e; throw e; }
    throw new Error('expected an ApiError');
  };

  it('DISTINCT ON', () => {
    const q = '{ article(distinct_on: status, order_by: {status: asc}) { id } }';
    expect(planOperation(input(q, postgres)).kind).toBe('sql');
    const e = refusal(() => planOperation(input(q, without({ distinctOn: false }))));
    expect([e.code, e.message, e.path]).toEqual(['not-supported', '"distinct_on" is not supported on a mssql source', ['selectionSet', 'article', 'args', 'distinct_on']]);
  });

  it('JSON built in SQL', () => {
    const e = refusal(() => planOperation(input('{ article { id } }', without({ jsonInSql: false }))));
    expect([e.code, e.message]).toEqual(['not-supported', 'queries on a mssql source are not supported yet']);
  });

  it('writes, and the rows they return', () => {
    const m = 'mutation { delete_article(where: {}) { affected_rows } }';
    expect(planMutation(input(m, postgres)).fields).toHaveLength(1);
    for (const can of [{ writes: false }, { returning: false, outputClause: false }]) {
      const e = refusal(() => planMutation(input(m, without(can))));
      expect([e.code, e.message, e.path]).toEqual(['not-supported', 'mutations on a mssql source are not supported', ['selectionSet', 'delete_article']]);
    }
    expect(planMutation(input(m, without({ returning: false, outputClause: true }))).fields).toHaveLength(1);
  });

  it('upserts', () => {
    const m = 'mutation { insert_author(objects: [{id: 1, name: "a", email: "e"}], on_conflict: {constraint: author_email_key, update_columns: [name]}) { affected_rows } }';
    expect(planMutation(input(m, postgres)).fields).toHaveLength(1);
    const e = refusal(() => planMutation(input(m, without({ upsert: null }))));
    expect([e.code, e.path]).toEqual(['not-supported', ['selectionSet', 'insert_author', 'args', 'on_conflict']]);
  });
});
