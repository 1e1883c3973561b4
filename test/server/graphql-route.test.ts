import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { echoed, post, start, type Running } from './helpers.js';

let srv: Running;
beforeAll(async () => { srv = await start(); });
afterAll(async () => { await srv.close(); });

const IDENTITY = { 'accept-encoding': 'identity' };

describe('POST /v1/graphql', () => {
  // `identity`: fetch asks for gzip by default, and a gzipped body's length is not the text's (compression.test.ts).
  it('writes the engine text out unchanged, as JSON with a content-length', async () => {
    const res = await post(srv.url('/v1/graphql'), { query: '{ a }' }, IDENTITY);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(text.startsWith('{"data" :  {')).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  it('counts the content-length in bytes when the answer holds multi-byte characters', async () => {
    const query = 'query { \u00e9t\u00e9: a } # \u65e5\u672c \u2713 \ud83d\ude00';
    const res = await post(srv.url('/v1/graphql'), { query }, IDENTITY);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(bytes.length).toBeGreaterThan(bytes.toString('utf8').length);
    const { request: seen } = (JSON.parse(bytes.toString('utf8')) as { data: { request: { query: string } } }).data;
    expect(seen.query).toBe(query);
  });

  it('passes query, variables and operationName to the engine', async () => {
    const request = { query: 'query Q($id: Int) { a }', variables: { id: 1 }, operationName: 'Q' };
    const { request: seen } = await echoed(await post(srv.url('/v1/graphql'), request));
    expect(seen).toEqual(request);
  });

  it('answers a batch with an array in request order, each element on its own', async () => {
    const res = await post(srv.url('/v1/graphql'), [{ query: 'one' }, { query: 'api-error' }, { query: 'three' }]);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith('[{"data" :  ')).toBe(true);
    const body = JSON.parse(text) as unknown[];
    expect(body).toHaveLength(3);
    expect((body[0] as { data: { request: { query: string } } }).data.request.query).toBe('one');
    expect(body[1]).toEqual({ errors: [{ message: 'boom', extensions: { path: '$.selectionSet.x', code: 'validation-failed' } }] });
    expect((body[2] as { data: { request: { query: string } } }).data.request.query).toBe('three');
  });

  it('answers an empty batch with an empty array', async () => {
    const res = await post(srv.url('/v1/graphql'), []);
    expect(await res.text()).toBe('[]');
  });

  it('reports a body that is not JSON as invalid-json with HTTP 200', async () => {
    const res = await post(srv.url('/v1/graphql'), '{"query": ');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { errors: { extensions: unknown }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.extensions).toEqual({ path: '$', code: 'invalid-json' });
  });

  it('reports a JSON body of the wrong shape as parse-failed', async () => {
    const cases: [unknown, string, string][] = [
      ['"just a string"', '$', 'parsing Object failed, expected Object, but encountered String'],
      [{ variables: {} }, '$', "the key 'query' was not present"],
      [{ query: 42 }, '$.query', 'parsing Text failed, expected String, but encountered Number'],
      [{ query: '{ a }', variables: [1] }, '$.variables', 'parsing Object failed, expected Object, but encountered Array'],
      [[{ query: 'ok' }, { query: null }], '$[1].query', 'parsing Text failed, expected String, but encountered Null'],
    ];
    for (const [body, path, message] of cases) {
      const res = await post(srv.url('/v1/graphql'), body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ errors: [{ message, extensions: { path, code: 'parse-failed' } }] });
    }
  });

  it('answers an engine ApiError as a GraphQL error with HTTP 200', async () => {
    const res = await post(srv.url('/v1/graphql'), { query: 'api-error' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ errors: [{ message: 'boom', extensions: { path: '$.selectionSet.x', code: 'validation-failed' } }] });
  });

  it('hides any other engine failure behind "unexpected" and logs it', async () => {
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const res = await post(srv.url('/v1/graphql'), { query: 'bug' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }] });
      expect(log.mock.calls.some(([s]) => String(s).includes('engine bug'))).toBe(true);
    } finally {
      log.mockRestore();
    }
  });

  it('answers GET with the not-supported error (no query over GET)', async () => {
    const res = await fetch(srv.url('/v1/graphql'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      errors: [{ message: 'PersistedQueryNotSupported', extensions: { path: '$', code: 'not-supported' } }],
    });
  });

  it('keeps connections alive with a 65 s timeout', async () => {
    const res = await post(srv.url('/v1/graphql'), { query: '{ a }' });
    await res.text();
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });
});

describe('POST /v1alpha1/graphql', () => {
  it('uses the error status instead of 200', async () => {
    const invalid = await post(srv.url('/v1alpha1/graphql'), 'nope');
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('invalid-json');
    const failed = await post(srv.url('/v1alpha1/graphql'), { query: 'api-error' });
    expect(failed.status).toBe(400);
    const ok = await post(srv.url('/v1alpha1/graphql'), { query: '{ a }' });
    expect(ok.status).toBe(200);
    expect((await echoed(ok)).request.query).toBe('{ a }');
  });
});
