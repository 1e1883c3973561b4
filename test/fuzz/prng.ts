// A small seeded PRNG (mulberry32) and the choices the query generator makes with it, so that a
// seed printed with a failure regenerates exactly the same query.

/** Deterministic random choices from one 32-bit seed. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1): mulberry32. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `n` distinct items (fewer when the list is shorter), in random order. */
  some<T>(items: readonly T[], n: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }

  /** The items in random order. */
  shuffle<T>(items: readonly T[]): T[] {
    return this.some(items, items.length);
  }
}

/** A seed for item `i` of a named stream (FNV-1a of the name, mixed with the base seed and `i`). */
export function deriveSeed(base: number, name: string, i: number): number {
  let h = 0x811c9dc5 ^ base;
  for (const ch of `${name}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}
