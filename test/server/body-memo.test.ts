// Bodies without variable values are parsed once and kept by their text (request-shape.ts): the
// same body answers the same, the kept request is frozen (no reader can change the next request),
// and bodies with values, batches and large bodies are parsed each time. Over a real socket with a
// recording engine.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLRequest, Session } from '../../runtime/graphql/index.js';
import type { GraphQLEngine } from '../../runtime/server/index.js';
import { memoizeBody, memoizedBody, toGraphQLBody } from '../../runtime/server/request-shape.js';
import { post, start, type Running } from './helpers.js';

const seen: GraphQLRequest[] = [];
const recording: GraphQLEngine = {
  async execute(req: GraphQLRequest, session: Session): Promise<string> {
    seen.push(req);
    const query = req.query;
    // A reader that tries to change what it was given: refused on a kept (frozen) request.
    let changed = 'no';
    try {
      (req as { query: string }).query = 'changed';
      changed = 'yes';
    } catch {
      changed = 'refused';
    }
    return JSON.stringify({ data: { query, changed, role: session.role } });
  },
};

let srv: Running;
beforeAll(async () => { srv = await start({ engine: recording }); });
afterAll(async () => { await srv.close(); });

async function send(body: string, headers: Record<string, string> = {}): Promise<{ query: string; changed: string; role: string }> {
  const res = await post(srv.url('/v1/graphql'), body, headers);
  return ((await res.json()) as { data: { query: string; changed: string; role: string } }).data;
}

describe('parsed bodies kept by their text', () => {
  it('serves a body with no variable values from one frozen parse, each time with its own session', async () => {
    const body = JSON.stringify({ query: 'query { kept_once }', variables: {} });
    seen.length = 0;
    const first = await send(body);
    const second = await send(body, { 'x-svc-role': 'user' });
    expect(first).toEqual({ query: 'query { kept_once }', changed: 'refused', role: 'admin' });
    expect(second).toEqual({ query: 'query { kept_once }', changed: 'refused', role: 'user' });
    expect(seen[0]).toBe(seen[1]);
    expect(Object.isFrozen(seen[0]!.variables)).toBe(true);
    expect(memoizedBody(body)).toBeDefined();
  });

  it('parses a body with variable values every time, and keeps nothing of it', async () => {
    const body = JSON.stringify({ query: 'query ($n: Int) { with_values }', variables: { n: 1 } });
    seen.length = 0;
    const first = await send(body);
    const second = await send(body);
    expect(first.changed).toBe('yes');
    expect(second).toEqual({ query: 'query ($n: Int) { with_values }', changed: 'yes', role: 'admin' });
    expect(seen[0]).not.toBe(seen[1]);
    expect(memoizedBody(body)).toBeUndefined();
  });

  it('keeps neither batches, nor bodies over 4,096 characters, nor bodies that fail to parse', async () => {
    const batch = JSON.stringify([{ query: 'query { in_a_batch }' }]);
    await post(srv.url('/v1/graphql'), batch).then((r) => r.text());
    expect(memoizedBody(batch)).toBeUndefined();
    const big = JSON.stringify({ query: `query { big } # ${'x'.repeat(4100)}` });
    expect((await send(big)).changed).toBe('yes');
    expect(memoizedBody(big)).toBeUndefined();
    const bad = '{"query": 1}';
    const res = await post(srv.url('/v1/graphql'), bad);
    expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('parse-failed');
    expect(memoizedBody(bad)).toBeUndefined();
  });

  it('keeps a null or absent variables as it was sent, and at most 512 bodies', () => {
    const absent = '{"query":"{ a }"}';
    const kept = memoizeBody(absent, toGraphQLBody(JSON.parse(absent)));
    expect(kept.kind === 'single' && !('variables' in kept.request)).toBe(true);
    const nulled = '{"query":"{ a }","variables":null}';
    const keptNull = memoizeBody(nulled, toGraphQLBody(JSON.parse(nulled)));
    expect(keptNull.kind === 'single' && keptNull.request.variables).toBeNull();
    for (let i = 0; i < 600; i++) {
      const t = JSON.stringify({ query: `{ n${i} }` });
      memoizeBody(t, toGraphQLBody(JSON.parse(t)));
    }
    // Cleared when the 513th came: the earliest are gone, the latest kept.
    expect(memoizedBody(JSON.stringify({ query: '{ n0 }' }))).toBeUndefined();
    expect(memoizedBody(JSON.stringify({ query: '{ n599 }' }))).toBeDefined();
  });
});
