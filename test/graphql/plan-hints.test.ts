// Which statements are value-sensitive, so that the driver times PostgreSQL's generic plan against
// per-run plans (test/drivers/plan-choice.test.ts): a user filter under an ORDER BY with a LIMIT.
// A literal limit also puts the list under a planning bound (test/integration/planning-bound.test.ts);
// a variable one keeps the plain `LIMIT $n`.
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

  it('marks a filtered, ordered list limited by a variable, which keeps LIMIT $n', () => {
    const p = plan('query ($n: Int) { track(where: {genre: {name: {_eq: "TV Shows"}}}, order_by: {track_id: asc}, limit: $n) { name } }', { n: 50 });
    expect(p.valueSensitive).toBe(true);
    expect(p.sql.text).toMatch(/LIMIT \(\$\d+\)::int4/);
  });

  it('puts a literal limit under a planning bound, still marked value-sensitive', () => {
    const p = plan('{ track(where: {genre: {name: {_eq: "TV Shows"}}}, order_by: {track_id: asc}, limit: 50) { name } }');
    expect(p.valueSensitive).toBe(true);
    expect(p.sql.text).toMatch(/LIMIT 64\)/);
  });

  it('leaves lists without a user filter, without a limit, or without an order unmarked', () => {
    expect(plan('{ track(order_by: {track_id: asc}, limit: 20) { name } }').valueSensitive).toBe(false);
    expect(plan('{ track(where: {unit_price: {_gt: 1}}, order_by: {track_id: asc}) { name } }').valueSensitive).toBe(false);
    expect(plan('{ track(where: {unit_price: {_gt: 1}}, limit: 5) { name } }').valueSensitive).toBe(false);
  });

  it('names the statement by its text', () => {
    const a = plan('{ track(limit: 1) { name } }');
    const b = plan('{ track(limit: 1) { name } }');
    const c = plan('{ track(limit: 1) { track_id } }');
    expect(a.name).toBe(b.name);
    expect(a.name).not.toBe(c.name);
  });
});
