// GraphQL-text fuzzing (fast-check) of a served `kiln serve` (catalog mode, real socket): mutated
// valid operations, garbage, nesting far past every cap, alias floods, fragment bombs, wrong
// variables, wrong body shapes and batches, to /v1/graphql, /v1alpha1/graphql and
// /v1/graphql/explain under random roles and session values. Every request must be answered
// within the time limit, never with a 500 or an `unexpected` error, always in the route's JSON
// error shape with a known code; /healthz must answer OK after every case, and the process must
// see no uncaught exception.
//
// KILN_TEXT_FUZZ_RUNS: requests (default 200). KILN_TEXT_FUZZ_SEED: fast-check's seed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzServer, type FuzzServer } from './served.js';
import { hostile, type Hostile } from './text-gen.js';

const RUNS = Number(process.env.KILN_TEXT_FUZZ_RUNS ?? 200);
const SEED = Number(process.env.KILN_TEXT_FUZZ_SEED ?? 4242);
const ANSWER_WITHIN = 20_000;

// The codes a hostile request may meet: input refused, access refused, a value the database
// rejects. Not `unexpected` (a bug) and not `postgres-error` (a statement Kiln should not have sent).
const CODES = new Set(['validation-failed', 'parse-failed', 'invalid-json', 'bad-request', 'invalid-headers', 'access-denied',
  'permission-error', 'data-exception', 'not-supported', 'unexpected-payload', 'invalid-params', 'coercion-error', 'not-found']);

let base: string;
let server: FuzzServer;
let crashes: unknown[] = [];

beforeAll(async () => {
  server = await startFuzzServer('fuzztext');
  base = server.base;
  crashes = server.crashes;
});
afterAll(async () => {
  await server?.close();
}, 60_000);

// The problems with one answer to a hostile request (none when it is well formed).
function judge(h: Hostile, status: number, text: string): string[] {
  if (status >= 500) return [`HTTP ${status}`];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`not JSON: ${text.slice(0, 200)}`];
  }
  if (h.path === '/v1/graphql/explain') {
    // Explain answers its plan (an array) or a management-style error.
    if (Array.isArray(body)) return status === 200 ? [] : [`HTTP ${status} with a plan`];
    return managementError(body);
  }
  const answers = Array.isArray(body) ? body : [body];
  return answers.flatMap((a) => graphqlAnswer(a));
}

function graphqlAnswer(a: unknown): string[] {
  if (a === null || typeof a !== 'object') return [`answer not an object: ${JSON.stringify(a)}`];
  const o = a as { data?: unknown; errors?: unknown };
  if (o.errors === undefined) return o.data !== undefined ? [] : ['neither data nor errors'];
  if (!Array.isArray(o.errors) || o.errors.length === 0) return ['errors is not a non-empty list'];
  return o.errors.flatMap((e: { message?: unknown; extensions?: { code?: unknown; path?: unknown } }) => {
    if (typeof e?.message !== 'string' || typeof e.extensions?.code !== 'string' || typeof e.extensions.path !== 'string') return [`bad error shape ${JSON.stringify(e)}`];
    return CODES.has(e.extensions.code) || isTimeout(e.extensions.code, e.message) ? [] : [`code ${e.extensions.code}: ${e.message}`];
  });
}

function managementError(body: unknown): string[] {
  const e = body as { error?: unknown; code?: unknown; path?: unknown };
  if (typeof e?.error !== 'string' || typeof e.code !== 'string' || typeof e.path !== 'string') return [`bad error shape ${JSON.stringify(body).slice(0, 200)}`];
  return CODES.has(e.code) || isTimeout(e.code, e.error) ? [] : [`code ${e.code}: ${e.error}`];
}

// The statement timeout (SVC_GRAPHQL_DEFAULT_STATEMENT_TIMEOUT) cancelling a legitimately huge query.
function isTimeout(code: unknown, message: unknown): boolean {
  return code === 'postgres-error' && message === 'canceling statement due to statement timeout';
}

describe('hostile GraphQL text never takes Kiln down', () => {
  it(`${RUNS} hostile requests: no 500, no unexpected error, JSON error shapes, /healthz up`, async () => {
    const kinds: Record<string, number> = {};
    const codes: Record<string, number> = {};
    let slowest = { ms: 0, kind: '' };
    await fc.assert(fc.asyncProperty(hostile, async (h) => {
      const kind = h.kind.replace(/ \d+/g, '');
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      const started = performance.now();
      let status: number;
      let text: string;
      try {
        const res = await fetch(`${base}${h.path}`, { method: 'POST', body: h.body, headers: h.headers, signal: AbortSignal.timeout(ANSWER_WITHIN) });
        status = res.status;
        text = await res.text();
      } catch (e) {
        throw new Error(`${h.kind} to ${h.path}: no answer (${(e as Error).message})\nbody: ${h.body.slice(0, 2000)}`);
      }
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms: Math.round(ms), kind: h.kind };
      for (const m of text.matchAll(/"code":"([^"]+)"/g)) codes[m[1]!] = (codes[m[1]!] ?? 0) + 1;
      const problems = judge(h, status, text);
      if (problems.length) throw new Error(`${h.kind} to ${h.path} as ${JSON.stringify(h.headers)}: ${problems.slice(0, 3).join('; ')}\nbody: ${h.body.slice(0, 2000)}\nanswer (${status}): ${text.slice(0, 1000)}`);
      const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(ANSWER_WITHIN) });
      if (health.status !== 200) throw new Error(`/healthz answered ${health.status} after ${h.kind}`);
      expect(crashes).toEqual([]);
    }), { numRuns: RUNS, seed: SEED });
    console.log(`text fuzz: ${RUNS} requests, 0 crashes, 0 500s; kinds ${JSON.stringify(kinds)}; codes ${JSON.stringify(codes)}; slowest ${slowest.ms} ms (${slowest.kind}); RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`);
    expect(crashes).toEqual([]);
  }, Math.max(120_000, RUNS * 1000));
});
