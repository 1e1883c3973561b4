// Values for the query generator: pools per scalar type (valid ones, plus a few the database must
// reject with a data exception, recorded as an error the query may draw), and GraphQL literals.
import type { Rng } from './prng.js';

/** A generated input value: its GraphQL literal and the same value as variable JSON. */
export interface Val {
  readonly lit: string;
  readonly json: unknown;
}

/** How the server may reject a value: the database (data-exception) or the planner (a JSON path). */
export type Risk = 'data-exception' | 'validation-failed' | null;

/** A scalar value and how the server may reject it (malformed date, regex, number, JSON path). */
export interface ScalarPick {
  readonly value: unknown;
  readonly risky: Risk;
}

// Valid values per GraphQL scalar; custom scalars take numbers or strings as Hasura accepts them.
const VALID: { readonly [type: string]: readonly unknown[] } = {
  Int: [0, 1, 2, 3, 5, 7, 42, -1, 100, 2147483647, -2147483648],
  Float: [0, 1.5, -2.25, 3, 1e10],
  String: ['', 'a', 'Ada', "O'Brien", 'ü-é', 'The C book', 'line\nbreak', 'back\\slash', '"quoted"', 'null', 'London', 'Rock'],
  Boolean: [true, false],
  bigint: [0, 3, 77, 1200, 9000000000, '77', '-5', 9007199254740993n],
  numeric: [0, 3.25, 4.5, '4.50', 1000, '-0.01', 1.99, '123456789012345678901234567890.5'],
  float8: [0, 1.5, -3],
  date: ['2024-02-01', '2024-03-15', '1999-12-31', '2024-04-30'],
  timestamptz: ['2024-01-01T00:00:00Z', '2024-01-01 00:00:00+00', '2010-06-01T12:00:00+02:00', '2030-01-01'],
  timestamp: ['2009-01-01T00:00:00', '2013-12-22', '2010-06-01 12:00', '2003-05-03T00:00:00'],
  time: ['12:00:00', '00:00'],
  uuid: ['00000000-0000-0000-0000-000000000000', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
  jsonb: [{ city: 'London' }, { langs: ['en'] }, 'London', 1, true, [], {}, { a: { b: [1, 2] } }, { city: 'Murray Hill' }],
  json: [{ a: 1 }, 'x', 2],
  _text: [['computing'], ['c', 'books'], [], '{history}', '{}', ['with space', 'q"uote']],
  _int4: [[1, 2], [], '{3}'],
};

// Values the database rejects with a data exception (class 22): never 'unexpected' or 'postgres-error'.
const INVALID: { readonly [type: string]: readonly unknown[] } = {
  bigint: ['1.5', 'abc', '99999999999999999999'],
  numeric: ['abc', '1e'],
  date: ['2024-13-01', 'yesterday-ish', '2024-02-30'],
  timestamptz: ['not a time', '2024-01-01T25:00:00Z'],
  timestamp: ['not a time'],
  uuid: ['not-a-uuid'],
  _text: ['notanarray', '{unclosed'],
  _int4: ['{a}'],
  time: ['25:99'],
};

// No pattern ends in a lone backslash: PostgreSQL rejects it as 22025, which the driver maps to
// 'bad-request' on purpose (runtime/drivers/database-error.ts), outside what this test allows.
const LIKE: readonly string[] = ['%a%', 'A%', '_da', '%', '%o%', 'The%', '%\\%%', "%'%", ''];
const REGEX: readonly string[] = ['^A', 'a.*', '\\d', 'o{2}', '^$', '(?i)x'];
const BAD_REGEX: readonly string[] = ['[', '(', 'a{2', '*a'];
const SIMILAR: readonly string[] = ['%a%', 'A%', '(a|b)%', '%(C|c)%'];
const PATHS: readonly string[] = ['$.city', 'city', 'langs[0]', '$.langs[1]', '$', "$['city']", '$.a.b[0]', 'nope'];
const BAD_PATHS: readonly string[] = ['$..x', 'a[', '$.[1'];

/** A scalar value for `type`, preferring values sampled from the column when there are any. */
export function scalarValue(rng: Rng, type: string, samples: readonly unknown[], op: string | null): ScalarPick {
  if (op && /^_n?i?like$/.test(op)) return { value: rng.pick(LIKE), risky: null };
  if (op && /^_n?i?regex$/.test(op)) {
    return rng.chance(0.1) ? { value: rng.pick(BAD_REGEX), risky: 'data-exception' } : { value: rng.pick(REGEX), risky: null };
  }
  if (op && /^_n?similar$/.test(op)) return { value: rng.pick(SIMILAR), risky: null };
  if (op === 'path') {
    return rng.chance(0.08) ? { value: rng.pick(BAD_PATHS), risky: 'validation-failed' } : { value: rng.pick(PATHS), risky: null };
  }
  if (op === '_has_key') return { value: rng.pick(['city', 'langs', 'x', '']), risky: null };
  if (samples.length && rng.chance(0.6)) return { value: rng.pick(samples), risky: null };
  const bad = INVALID[type];
  if (bad && rng.chance(0.05)) return { value: rng.pick(bad), risky: 'data-exception' };
  const pool = VALID[type] ?? VALID.String!;
  const value = rng.pick(pool);
  return { value: typeof value === 'bigint' ? value.toString() : value, risky: null };
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A JSON value as a GraphQL literal (object keys must be names), or null when it cannot be one. */
export function jsonLiteral(v: unknown): string | null {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (Array.isArray(v)) {
    const items = v.map(jsonLiteral);
    return items.every((x) => x !== null) ? `[${items.join(', ')}]` : null;
  }
  if (typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const lit = jsonLiteral(x);
      if (!NAME.test(k) || lit === null) return null;
      parts.push(`${k}: ${lit}`);
    }
    return `{${parts.join(', ')}}`;
  }
  return null;
}
