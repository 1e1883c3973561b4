// The hot path's request tally: counts and latency buckets kept in plain numbers, written into
// prom-client metrics only when scraped.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestTally } from '../../runtime/server/request-tally.js';

describe('request tally', () => {
  it('adds to a counter only what was counted since the last scrape', async () => {
    const registry = new Registry();
    const tally = new RequestTally([0.01, 0.1]);
    const c = new Counter({ name: 'c_total', help: 'h', labelNames: ['e'], registers: [registry], collect() { tally.flushCounter(this); } });
    for (let i = 0; i < 3; i++) tally.add('a', () => ({ e: 'a' }), null);
    tally.add('b', () => ({ e: 'b' }), null);
    expect((await c.get()).values.map((v) => [v.labels.e, v.value])).toEqual([['a', 3], ['b', 1]]);
    tally.add('a', () => ({ e: 'a' }), null);
    expect((await c.get()).values.map((v) => [v.labels.e, v.value])).toEqual([['a', 4], ['b', 1]]);
    expect(await registry.metrics()).toContain('c_total{e="a"} 4');
  });

  it('fills a histogram with the same buckets, sum and count as observing each value would', async () => {
    const tally = new RequestTally([0.01, 0.1]);
    const filled = new Histogram({ name: 'f', help: 'h', labelNames: ['e'], buckets: [0.01, 0.1], registers: [], collect() { tally.fillHistogram(this); } });
    const observed = new Histogram({ name: 'f', help: 'h', labelNames: ['e'], buckets: [0.01, 0.1], registers: [] });
    for (const [e, s] of [['x', 0.005], ['x', 0.05], ['x', 0.5], ['y', 0.01], ['y', 0.02]] as const) {
      tally.add(e, () => ({ e }), s);
      observed.observe({ e }, s);
    }
    const norm = (vs: { labels: object; value: number; metricName?: string }[]) => vs.map((v) => [v.metricName, JSON.stringify(v.labels), Number(v.value.toFixed(6))]).sort();
    expect(norm((await filled.get()).values)).toEqual(norm((await observed.get()).values));
    // Filled again after more requests: the totals, not twice the totals.
    tally.add('y', () => ({ e: 'y' }), 0.2);
    observed.observe({ e: 'y' }, 0.2);
    expect(norm((await filled.get()).values)).toEqual(norm((await observed.get()).values));
  });
});

describe('server metrics', () => {
  it('counts each kind of request under its own labels when kinds alternate and repeat (the last kind is kept aside)', async () => {
    const { ServerMetrics } = await import('../../runtime/server/metrics.js');
    const m = new ServerMetrics();
    const kinds: [string, 'query' | 'mutation' | 'none', number, boolean][] = [
      ['/v1/graphql', 'query', 200, false], ['/v1/graphql', 'query', 200, false], ['/v1/graphql', 'mutation', 200, false],
      ['/v1/graphql', 'query', 200, true], ['/healthz', 'none', 200, false], ['/v1/graphql', 'query', 200, false], ['/v1/graphql', 'query', 500, true],
    ];
    for (const [e, o, s, f] of kinds) { m.started(); m.finished(e, o, s, f, 0.001); }
    const text = await m.text();
    expect(text).toContain('svc_http_requests_total{endpoint="/v1/graphql",operation_type="query",status="200"} 4');
    expect(text).toContain('svc_http_requests_total{endpoint="/v1/graphql",operation_type="query",status="500"} 1');
    expect(text).toContain('svc_http_requests_total{endpoint="/v1/graphql",operation_type="mutation",status="200"} 1');
    expect(text).toContain('svc_http_requests_total{endpoint="/healthz",operation_type="none",status="200"} 1');
    expect(text).toContain('svc_graphql_requests_total{operation_type="query",response_status="success"} 3');
    expect(text).toContain('svc_graphql_requests_total{operation_type="query",response_status="failed"} 2');
    expect(text).toContain('svc_http_connections 0');
  });
});
