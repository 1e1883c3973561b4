// Which statements ask PostgreSQL for a custom plan: a user filter under an ORDER BY with a LIMIT
// (a generic plan guesses a parameter LIMIT at 10% of the rows and scans in index order), unless
// the limit is known when planning and the statement carries a planning bound instead
// (test/integration/planning-bound.test.ts).
import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { planOperation } from '../../runtime/graphql/index.js';
import { postgres } from '../../runtime/sql/index.js';
import { compileFixture } from '../helpers/fixtures.js';

describe('plan hints', async () => {
  const bundle = await compileFixture('chinook');
  const plan = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const p = planOperation({ model: bundle.model, schema: bundle.schemas.admin!, role: 'admin', dialect: postgres, stringifyNumeric: false,
      document, operation, variables, structural: new Set() });
    if (p.kind !== 'sql') throw new Error('expected SQL');
    return p;
  };

  it('asks for a custom plan for a filtered, ordered list limited by a variable', () => {
    const p = plan('query ($n: Int) { track(where: {genre: {name: {_eq: "TV Shows"}}}, order_by: {track_id: asc}, limit: $n) { name } }', { n: 50 });
    expect(p.customPlan).toBe(true);
    expect(p.sql.text).toMatch(/LIMIT \(\$\d+\)::int4/);
  });

  it('keeps the generic plan under a planning bound when the limit is a literal', () => {
    const p = plan('{ track(where: {genre: {name: {_eq: "TV Shows"}}}, order_by: {track_id: asc}, limit: 50) { name } }');
    expect(p.customPlan).toBe(false);
    expect(p.sql.text).toMatch(/LIMIT 64\)/);
  });

  it('keeps generic plans without a user filter, without a limit, or without an order', () => {
    expect(plan('{ track(order_by: {track_id: asc}, limit: 20) { name } }').customPlan).toBe(false);
    expect(plan('{ track(where: {unit_price: {_gt: 1}}, order_by: {track_id: asc}) { name } }').customPlan).toBe(false);
    expect(plan('{ track(where: {unit_price: {_gt: 1}}, limit: 5) { name } }').customPlan).toBe(false);
  });

  it('names the statement by its text', () => {
    const a = plan('{ track(limit: 1) { name } }');
    const b = plan('{ track(limit: 1) { name } }');
    const c = plan('{ track(limit: 1) { track_id } }');
    expect(a.name).toBe(b.name);
    expect(a.name).not.toBe(c.name);
  });
});
