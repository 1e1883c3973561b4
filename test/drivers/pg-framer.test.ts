// The row-size guard's reading of the backend protocol's framing (runtime/drivers/pg-guard.ts):
// however the bytes of a stream of messages are cut into chunks, it finds every message's length
// and reports the first one over the cap, at the chunk that completes that message's header.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framer } from '../../runtime/drivers/pg-guard.js';

function message(type: number, bodyLength: number): Buffer {
  const m = Buffer.alloc(5 + bodyLength, 0x61);
  m[0] = type;
  m.writeUInt32BE(4 + bodyLength, 1);
  return m;
}

// Cuts `bytes` at the given points (sorted, deduplicated, inside the buffer).
function cut(bytes: Buffer, points: number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of [...at, bytes.length]) {
    if (p > from) chunks.push(bytes.subarray(from, p));
    from = Math.max(from, p);
  }
  return chunks;
}

describe('pg row-size framer', () => {
  it('reads every header wherever the chunks are cut, and reports the first message over the cap', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 20 }),
      fc.integer({ min: 4, max: 304 }),
      (bodies, points, max) => {
        const stream = Buffer.concat(bodies.map((b, i) => message(0x44 + (i % 3), b)));
        const over = bodies.map((b) => 4 + b).find((len) => len > max) ?? null;
        const frame = framer(max);
        let seen: number | null = null;
        for (const chunk of cut(stream, points)) {
          seen = frame(chunk);
          if (seen !== null) break;
        }
        expect(seen).toBe(over);
      },
    ), { numRuns: 3000 });
  });

  it('keeps its place across chunks of one byte', () => {
    const stream = Buffer.concat([message(0x54, 10), message(0x44, 70_000), message(0x43, 3)]);
    const frame = framer(100_000);
    for (let i = 0; i < stream.length; i++) expect(frame(stream.subarray(i, i + 1))).toBeNull();
    const tight = framer(1000);
    const results = [...stream].map((_, i) => tight(stream.subarray(i, i + 1)));
    // The second message's header ends at byte 15 + 5 = 20: that chunk reports it.
    expect(results.findIndex((r) => r !== null)).toBe(19);
    expect(results[19]).toBe(70_004);
  });
});
