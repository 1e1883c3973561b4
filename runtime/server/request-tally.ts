// Request counts and latencies gathered on the hot path in plain numbers, and handed to
// prom-client only when /v1/metrics is scraped. prom-client's labelled inc/observe hash their
// label objects on every call: five of them per request cost about a tenth of a cached query.

import type { Counter, Histogram } from 'prom-client';

/** One label set's running totals: a count, and (for latencies) a sum and a count per bucket. */
export interface Tally {
  readonly labels: Record<string, string | number>;
  count: number;
  sum: number;
  readonly buckets: number[];
}

/** Counts (and optionally latencies) per label set, flushed into prom-client metrics when scraped. */
export class RequestTally {
  private readonly tallies = new Map<string, Tally>();
  private readonly flushed = new Map<string, number>();

  constructor(private readonly bounds: readonly number[]) {}

  /** The totals of one label set (`key` names it; the labels are made only once), to add to with `record`. */
  tally(key: string, labels: () => Record<string, string | number>): Tally {
    let t = this.tallies.get(key);
    if (!t) {
      t = { labels: labels(), count: 0, sum: 0, buckets: new Array<number>(this.bounds.length + 1).fill(0) };
      this.tallies.set(key, t);
    }
    return t;
  }

  /** Adds one request to a label set's totals (and its latency, unless null). */
  record(t: Tally, seconds: number | null): void {
    t.count++;
    if (seconds === null) return;
    t.sum += seconds;
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    t.buckets[i]!++;
  }

  /** Adds one request with these labels. */
  add(key: string, labels: () => Record<string, string | number>, seconds: number | null): void {
    this.record(this.tally(key, labels), seconds);
  }

  /** Adds to `counter` what each label set counted since the last flush. */
  flushCounter(counter: Counter<string>): void {
    for (const [key, t] of this.tallies) {
      const by = t.count - (this.flushed.get(key) ?? 0);
      if (by > 0) counter.inc(t.labels, by);
      this.flushed.set(key, t.count);
    }
  }

  /**
   * Writes the totals into `histogram` as they stand. prom-client has no call to record many
   * observations at once, so its per-label entries (made with `zero`) are filled in directly.
   */
  fillHistogram(histogram: Histogram<string>): void {
    histogram.reset();
    const entries = (histogram as unknown as { hashMap: Record<string, { labels: object; sum: number; count: number; bucketValues: Record<string, number> }> });
    for (const t of this.tallies.values()) {
      if (t.sum === 0 && t.buckets.every((b) => b === 0)) continue;
      const before = new Set(Object.keys(entries.hashMap));
      histogram.zero(t.labels);
      const hash = Object.keys(entries.hashMap).find((h) => !before.has(h));
      const entry = hash === undefined ? undefined : entries.hashMap[hash];
      if (!entry) continue;
      entry.sum = t.sum;
      entry.count = t.buckets.reduce((a, b) => a + b, 0);
      this.bounds.forEach((b, i) => { entry.bucketValues[b] = t.buckets[i]!; });
    }
  }
}
