// SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES: bigint, numeric, float8 and money values are JSON strings in
// PostgreSQL's own text form (scale kept: "2.50"), in selects, aggregates, mutation results and
// computed fields; aggregates follow the column's type, as Hasura's do (avg of an int stays a number).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';
import { dataOf, metadataOf, table } from './setup.js';

const SETUP = `
CREATE TABLE meter (id int PRIMARY KEY, reading numeric(10,2), total bigint, ratio float8, fee money, hits int);
INSERT INTO meter VALUES (1, 2.50, 9007199254740993, 0.1, 3.5, 3), (2, 10.25, 7, 2.5, 1, 4);
CREATE FUNCTION meter_double(m meter) RETURNS numeric LANGUAGE sql STABLE AS $$ SELECT m.reading * 2 $$;
`;

let db: TestDatabase;
let kiln: TestKiln;

beforeAll(async () => {
  db = await createTestDatabase('strnum', SETUP);
  const meter = table('meter', {
    computed_fields: [{ name: 'doubled', definition: { function: { schema: 'public', name: 'meter_double' } } }],
  });
  kiln = await startKiln({ metadata: metadataOf([meter]), databaseUrl: db.url, stringifyNumeric: true });
});
afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

describe('numeric output as strings', () => {
  it('prints each big-number column in PostgreSQL\'s text form, and leaves int columns numbers', async () => {
    expect(dataOf(await kiln.gql('{ meter(order_by: {id: asc}, limit: 1) { reading total ratio fee hits doubled } }'))).toEqual({
      meter: [{ reading: '2.50', total: '9007199254740993', ratio: '0.1', fee: '$3.50', hits: 3, doubled: '5.00' }],
    });
  });

  it('prints aggregates by the column\'s type: sum, avg, stddev, max and min of big-number columns are strings', async () => {
    const q = `{ meter_aggregate { aggregate { count
      sum { reading total ratio hits } avg { reading total hits } stddev { reading } max { reading total } min { ratio } } } }`;
    const agg = (dataOf(await kiln.gql(q)) as { meter_aggregate: { aggregate: Record<string, unknown> } }).meter_aggregate.aggregate;
    const [pg] = await db.query<Record<string, string>>(`SELECT avg(reading)::text AS avg_r, avg(total)::text AS avg_t, stddev(reading)::text AS sd
      FROM meter`);
    expect(agg).toEqual({
      count: 2,
      sum: { reading: '12.75', total: '9007199254741000', ratio: '2.6', hits: 7 },
      avg: { reading: pg!['avg_r'], total: pg!['avg_t'], hits: 3.5 },
      stddev: { reading: pg!['sd'] },
      max: { reading: '10.25', total: '9007199254740993' },
      min: { ratio: '0.1' },
    });
  });

  it('prints mutation results the same way', async () => {
    const r = dataOf(await kiln.gql('mutation { insert_meter_one(object: {id: 3, reading: "1.5", total: "9007199254740995"}) { reading total } '
      + 'update_meter(where: {id: {_eq: 2}}, _inc: {reading: "0.25"}) { returning { reading ratio } } }'));
    expect(r).toEqual({ insert_meter_one: { reading: '1.50', total: '9007199254740995' }, update_meter: { returning: [{ reading: '10.50', ratio: '2.5' }] } });
  });
});
