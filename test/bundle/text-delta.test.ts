// A statement stored as the changes that turn another into it reads back byte for byte.
import { describe, expect, it } from 'vitest';
import { applyDelta, textDelta, TokenTable } from '../../runtime/bundle/text-delta.js';

describe('text delta', () => {
  const table = new TokenTable();
  const delta = (a: string, b: string, max = 1000) => textDelta(a, table.tokens(a), b, table.tokens(b), max);

  it('turns a text into another with a few edits where they differ', () => {
    const a = 'SELECT "a"."id" FROM "t" AS "a"\nWHERE true;\n';
    const b = 'SELECT "a"."id" FROM "t" AS "a"\nWHERE ("a"."tenant_id" = ($1)::int4)\nLIMIT ($2)::int4;\n';
    const edits = delta(a, b)!;
    expect(applyDelta(a, edits)).toBe(b);
    expect(edits.length).toBeLessThanOrEqual(2);
    expect(edits.every(([at]) => at >= a.indexOf('WHERE'))).toBe(true);
  });

  it('gives an empty delta for equal texts and handles empty ones', () => {
    expect(delta('SELECT 1', 'SELECT 1')).toEqual([]);
    expect(applyDelta('', delta('', 'SELECT 1')!)).toBe('SELECT 1');
    expect(applyDelta('SELECT 1', delta('SELECT 1', '')!)).toBe('');
  });

  it('gives up past the bound on changes', () => {
    expect(delta('a b c d e f', 'u v w x y z', 4)).toBeNull();
  });

  it('reads back any pair of texts byte for byte', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const words = ['SELECT', ' ', '"a"', '.', 'x', '\n', 'WHERE', '(', ')', '$1', 'LIMIT', 'é', '𝄞'];
    const text = (): string => Array.from({ length: Math.floor(random() * 40) }, () => words[Math.floor(random() * words.length)]).join('');
    for (let i = 0; i < 1000; i++) {
      const a = text();
      const cut = Math.floor(random() * a.length);
      const b = random() < 0.5 ? text() : a.slice(0, cut) + text() + a.slice(cut + Math.floor(random() * 5));
      expect(applyDelta(a, delta(a, b)!)).toBe(b);
    }
  });
});
