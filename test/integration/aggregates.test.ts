// `<t>_aggregate` at the root and `<rel>_aggregate` on array relationships, with every aggregate
// function, nodes, and the select arguments (limit applies before aggregating, as in Hasura).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, errorOf, ids, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE team (id text PRIMARY KEY, name text NOT NULL);
CREATE TABLE score (id int PRIMARY KEY, team_id text NOT NULL REFERENCES team(id), pts int, amount numeric, big bigint, note text);
INSERT INTO team VALUES ('a', 'Ants'), ('b', 'Bees'), ('c', 'Cats'), ('d', 'Dogs');
INSERT INTO score VALUES
  (1, 'a', 10, 1.5, 100, 'x'), (2, 'a', 20, 2.5, 200, 'y'), (3, 'b', 30, NULL, 300, 'x'),
  (4, 'b', NULL, 4.25, NULL, NULL), (5, 'c', 40, 10, 9007199254740993, 'z');
`;

const METADATA = metadataOf([
  table('team', { array_relationships: [{ name: 'scores', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'score' }, column: 'team_id' } } }] }),
  table('score', { object_relationships: [{ name: 'team', using: { foreign_key_constraint_on: 'team_id' } }] }),
]);

let db: TestDatabase;
let kiln: TestKiln;
let strKiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('agg', SETUP);
  kiln = await startKiln({ metadata: METADATA, databaseUrl: db.url });
  strKiln = await startKiln({ metadata: METADATA, databaseUrl: db.url, stringifyNumeric: true });
});
afterAll(async () => {
  await kiln?.close();
  await strKiln?.close();
  await db?.drop();
});

const agg = async (args: string, selection: string, k = kiln): Promise<Record<string, unknown>> => {
  const d = dataOf(await k.gql(`{ score_aggregate${args ? `(${args})` : ''} { ${selection} } }`));
  return d['score_aggregate'] as Record<string, unknown>;
};

describe('root aggregates', () => {
  it('counts rows, non-null values and distinct values', async () => {
    const a = await agg('', 'aggregate { all: count pts: count(columns: pts) notes: count(columns: [note]) distinct: count(columns: note, distinct: true) nd: count(distinct: false, columns: note) }');
    expect(a).toEqual({ aggregate: { all: 5, pts: 4, notes: 4, distinct: 3, nd: 4 } });
  });

  it('computes sum, avg, min, max over int and numeric columns', async () => {
    const a = (await agg('', 'aggregate { sum { pts amount } avg { pts amount } min { pts amount note } max { pts amount note big } }'))['aggregate'];
    expect(a).toEqual({
      sum: { pts: 100, amount: 18.25 },
      avg: { pts: 25, amount: 4.5625 },
      min: { pts: 10, amount: 1.5, note: 'x' },
      max: { pts: 40, amount: 10, note: 'z', big: 9007199254740992 },   // JSON.parse rounds; the text is exact:
    });
    const r = await kiln.post('/v1/graphql', JSON.stringify({ query: '{ score_aggregate { aggregate { max { big } } } }' }));
    expect(r.text).toContain('"big" : 9007199254740993');
  });

  it('computes the statistics', async () => {
    const a = (await agg('', 'aggregate { stddev { pts } stddev_pop { pts } stddev_samp { pts } variance { pts } var_pop { pts } var_samp { pts } }'))['aggregate'] as Record<string, { pts: number }>;
    expect(a['stddev']!.pts).toBeCloseTo(Math.sqrt(500 / 3), 10);
    expect(a['stddev_samp']!.pts).toBeCloseTo(Math.sqrt(500 / 3), 10);
    expect(a['stddev_pop']!.pts).toBeCloseTo(Math.sqrt(125), 10);
    expect(a['variance']!.pts).toBeCloseTo(500 / 3, 10);
    expect(a['var_samp']!.pts).toBeCloseTo(500 / 3, 10);
    expect(a['var_pop']!.pts).toBe(125);
  });

  it('returns nodes with the aggregate, after where, order_by and limit', async () => {
    const a = await agg('where: {pts: {_is_null: false}}, order_by: {pts: desc}, limit: 2',
      'aggregate { count sum { pts } max { pts } } nodes { id team { name } }');
    expect(a).toEqual({ aggregate: { count: 2, sum: { pts: 70 }, max: { pts: 40 } }, nodes: [{ id: 5, team: { name: 'Cats' } }, { id: 3, team: { name: 'Bees' } }] });
    const page = await agg('order_by: {id: asc}, limit: 2, offset: 1', 'aggregate { count sum { pts } } nodes { id }');
    expect(page).toEqual({ aggregate: { count: 2, sum: { pts: 50 } }, nodes: [{ id: 2 }, { id: 3 }] });
    const only = await agg('where: {team_id: {_eq: "a"}}', 'nodes { id note }');
    expect((only['nodes'] as unknown[]).length).toBe(2);
  });

  it('aggregates nothing to count 0 and null values', async () => {
    const a = await agg('where: {id: {_gt: 100}}', 'aggregate { count sum { pts } avg { amount } max { note } } nodes { id }');
    expect(a).toEqual({ aggregate: { count: 0, sum: { pts: null }, avg: { amount: null }, max: { note: null } }, nodes: [] });
  });

  it('answers __typename alone and with distinct_on', async () => {
    expect(await agg('', '__typename')).toEqual({ __typename: 'score_aggregate' });
    expect(await agg('', 'aggregate { __typename sum { __typename } }')).toEqual({ aggregate: { __typename: 'score_aggregate_fields', sum: { __typename: 'score_sum_fields' } } });
    const a = await agg('distinct_on: team_id, order_by: [{team_id: asc}, {id: desc}]', 'aggregate { count } nodes { id }');
    expect(a).toEqual({ aggregate: { count: 3 }, nodes: [{ id: 2 }, { id: 4 }, { id: 5 }] });
  });

  it('refuses unknown aggregate columns with the type name', async () => {
    const e = errorOf(await kiln.gql('{ score_aggregate { aggregate { sum { note } } } }'));
    expect(e).toEqual({ message: 'field "note" not found in type: \'score_sum_fields\'', path: '$.selectionSet.score_aggregate.selectionSet.aggregate.selectionSet.sum.selectionSet.note', code: 'validation-failed' });
  });
});

describe('relationship aggregates', () => {
  it('aggregates an array relationship per parent row', async () => {
    const d = dataOf(await kiln.gql(`{ team(order_by: {id: asc}) { id
      scores_aggregate { aggregate { count sum { pts } max { amount } } }
      top: scores_aggregate(order_by: {pts: desc_nulls_last}, limit: 1) { nodes { id } } } }`));
    expect(d['team']).toEqual([
      { id: 'a', scores_aggregate: { aggregate: { count: 2, sum: { pts: 30 }, max: { amount: 2.5 } } }, top: { nodes: [{ id: 2 }] } },
      { id: 'b', scores_aggregate: { aggregate: { count: 2, sum: { pts: 30 }, max: { amount: 4.25 } } }, top: { nodes: [{ id: 3 }] } },
      { id: 'c', scores_aggregate: { aggregate: { count: 1, sum: { pts: 40 }, max: { amount: 10 } } }, top: { nodes: [{ id: 5 }] } },
      { id: 'd', scores_aggregate: { aggregate: { count: 0, sum: { pts: null }, max: { amount: null } } }, top: { nodes: [] } },
    ]);
  });

  it('filters parents by their children and filters the aggregated children', async () => {
    const d = dataOf(await kiln.gql(`{ team(where: {scores: {note: {_eq: "x"}}}, order_by: {id: asc}) { id
      scores_aggregate(where: {note: {_eq: "x"}}) { aggregate { count } } } }`));
    expect(d['team']).toEqual([{ id: 'a', scores_aggregate: { aggregate: { count: 1 } } }, { id: 'b', scores_aggregate: { aggregate: { count: 1 } } }]);
    expect(ids(dataOf(await kiln.gql('{ team(order_by: {scores_aggregate: {avg: {pts: desc_nulls_last}}}) { id } }'))['team'])).toEqual(['c', 'b', 'a', 'd']);
  });
});

describe('stringified numbers', () => {
  it('prints every aggregate of a bigint or numeric column as a string (PostgreSQL\'s text), of an int column as a number', async () => {
    const a = (await agg('', 'aggregate { count sum { pts amount big } max { amount big } min { amount } avg { amount pts } }', strKiln))['aggregate'];
    const [pg] = await db.query<{ avg: string }>('SELECT avg(amount)::text AS avg FROM score');
    expect(a).toEqual({
      count: 5,
      sum: { pts: 100, amount: '18.25', big: '9007199254741593' },
      max: { amount: '10', big: '9007199254740993' },
      min: { amount: '1.5' },
      avg: { amount: pg!.avg, pts: 25 },
    });
    expect(pg!.avg).toMatch(/^4\.5625/);
  });
});
