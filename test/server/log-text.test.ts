// The http-log line's hand-made JSON pieces (request-log.ts): strings quoted as JSON.stringify
// would, and seconds written to the nanosecond as valid JSON numbers.

import { describe, expect, it } from 'vitest';
import { jsonText, nextRequestId, secondsText } from '../../runtime/server/request-log.js';

describe('jsonText', () => {
  it('is JSON.stringify for every kind of string: plain, quotes, backslashes, controls, non-ASCII, lone surrogates', () => {
    const cases = ['', 'admin', '/v1/graphql', '127.0.0.1', '::ffff:127.0.0.1', 'a"b', 'a\\b', 'tab\there', 'nl\n', '\u0000', '\u001f',
      '\u007f', 'caf\u00e9', '\u65e5\u672c', '\ud83d\ude00', '\ud800', 'x\udc00y', `${'id-'.repeat(70)}"`];
    for (const s of cases) {
      expect(jsonText(s)).toBe(JSON.stringify(s));
      expect(JSON.parse(jsonText(s))).toBe(JSON.parse(JSON.stringify(s)));
    }
  });
});

describe('secondsText', () => {
  it('writes milliseconds as seconds to the nanosecond, a JSON number each time', () => {
    const cases: [number, string][] = [[0, '0.000000000'], [0.0004, '0.000000400'], [0.024095000000000264, '0.000024095'],
      [1.5, '0.001500000'], [999.9999994, '0.999999999'], [1000, '1.000000000'], [61234.5678901, '61.234567890']];
    for (const [ms, text] of cases) {
      expect(secondsText(ms)).toBe(text);
      expect(Math.abs(JSON.parse(secondsText(ms)) - ms / 1000)).toBeLessThan(1e-9);
    }
  });

  it('falls back to the plain number for values it cannot write to the nanosecond', () => {
    expect(JSON.parse(secondsText(1e13))).toBe(1e10);
    expect(secondsText(-1)).toBe('-0.001');
  });
});

describe('nextRequestId', () => {
  it('makes ids shaped as a UUID that count up by one, across the point where its low digits wrap', () => {
    const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const seen = new Set<string>();
    let before: bigint | null = null;
    // More than 65,536 ids: the count's low four digits wrap at least once.
    for (let i = 0; i < 70_000; i++) {
      const id = nextRequestId();
      expect(id).toMatch(shape);
      const count = BigInt(`0x${id.slice(24)}`);
      if (before !== null && before !== 0xffffffffffffn) expect(count).toBe(before + 1n);
      before = count;
      seen.add(id);
    }
    expect(seen.size).toBe(70_000);
  });
});
