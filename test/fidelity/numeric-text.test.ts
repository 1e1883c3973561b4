// The scale a numeric value keeps depends on the text it reaches PostgreSQL as (Hasura's
// SQL/Value.hs): GraphQL mutations send Haskell's `show` of the number, the v1 DML API a binary
// numeric whose scale is rounded up to a multiple of 4. Read back as strings (stringified numerics).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import { binaryNumericText, plainDecimalText, scientificText } from '../../runtime/sql/index.js';
import type { TestDatabase } from '../helpers/database.js';

describe('numeric text as Hasura sends it', () => {
  it('shows a number as Haskell does, fixed from 0.1 to 10^7 and with an exponent outside', () => {
    expect([7, 0.25, 0.025, 250, '-2E-12', 98765.4321, 123456789, '0.000'].map(scientificText))
      .toEqual(['7.0', '0.25', '2.5e-2', '250.0', '-2.0e-12', '98765.4321', '1.23456789e8', '0.0']);
  });

  it('pads a binary numeric to a multiple of 4 decimals', () => {
    expect([3.5, 42, -0.125, 1e-6, 7.12345].map(binaryNumericText)).toEqual(['3.5000', '42', '-0.1250', '0.00000100', '7.12345000']);
    expect(binaryNumericText('3.5')).toBe('3.5');
    expect(['-2E-2', '1.5e3', 7, 'abc'].map(plainDecimalText)).toEqual(['-0.02', '1500', '7', 'abc']);
  });
});

describe('scale of numeric values written over HTTP', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<any> => server.ok(path, body);
  const gql = (query: string, variables: Record<string, unknown> = {}) => post('/v1/graphql', { query, variables });

  beforeAll(async () => {
    server = await serveDatabase('fidnum', 'CREATE TABLE ledger (id serial PRIMARY KEY, amount numeric, rate numeric(10,3), note text, fee money);', { stringifyNumericTypes: true, track: ['ledger'] });
    db = server.db;
  });

  afterAll(() => server?.close());

  it('inserts and updates through GraphQL with the scale of Haskell\'s text, literals and variables alike', async () => {
    const ins = await gql(`mutation($a: numeric) { insert_ledger(objects: [{amount: 40}, {amount: $a}, {amount: 0.07, rate: 2}]) {
      returning { amount rate } } }`, { a: 0.5 });
    expect(ins).toEqual({ data: { insert_ledger: { returning: [
      { amount: '40.0', rate: null }, { amount: '0.5', rate: null }, { amount: '0.070', rate: '2.000' }] } } });
    // From 10^7 up the text has an exponent (`1.2e7`), whose scale is 0.
    const one = await gql('mutation { insert_ledger_one(object: {amount: 12000000}) { amount } }');
    expect(one).toEqual({ data: { insert_ledger_one: { amount: '12000000' } } });
    const upd = await gql(`mutation($d: numeric) { a: update_ledger(where: {amount: {_eq: 40}}, _inc: {amount: $d}) { returning { amount } }
      b: update_ledger(where: {amount: {_eq: 0.5}}, _set: {amount: 3E-9}) { returning { amount } } }`, { d: -1E-6 });
    expect(upd).toEqual({ data: { a: { returning: [{ amount: '39.9999990' }] }, b: { returning: [{ amount: '0.0000000030' }] } } });
    // Money takes a number written in any form (PostgreSQL's money input refuses exponents).
    const fee = await gql('mutation { a: insert_ledger_one(object: {fee: 25E-1}) { id } b: update_ledger(where: {fee: {_eq: 2.5}}, _inc: {fee: -5E-2}) { returning { fee } } }');
    expect(fee).toMatchObject({ data: { b: { returning: [{ fee: '$2.45' }] } } });
    // A string is passed to PostgreSQL as written.
    const str = await gql('mutation($s: numeric) { insert_ledger_one(object: {amount: $s}) { amount } }', { s: '1.10' });
    expect(str).toEqual({ data: { insert_ledger_one: { amount: '1.10' } } });
  });

  it('writes through the v1 insert and update with the scale of a binary numeric', async () => {
    const ins = await post('/v1/query', { type: 'insert', args: { table: 'ledger', objects: [{ amount: 12.5, note: 'v1' }, { amount: 3, note: 'v1' }], returning: ['amount'] } });
    expect(ins).toEqual({ affected_rows: 2, returning: [{ amount: '12.5000' }, { amount: '3' }] });
    const upd = await post('/v1/query', { type: 'update', args: { table: 'ledger', where: { note: 'v1', amount: 3 }, $inc: { amount: 0.25 }, returning: ['amount'] } });
    expect(upd).toEqual({ affected_rows: 1, returning: [{ amount: '3.2500' }] });
  });
});
