// Request and response transforms: parsing the metadata objects and applying them.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/bundle/index.js';
import { ApiError, managementErrorBody } from '../../runtime/errors/index.js';
import {
  applyRequestTransform, applyResponseTransform, parseRequestTransform, parseResponseTransform, requestContext,
  type HttpRequest, type TransformOutcome,
} from '../../runtime/transforms/index.js';

const original: HttpRequest = {
  url: 'https://api.example.com/v1?x=1&flag',
  method: 'POST',
  headers: [['Content-Type', 'application/json'], ['X-Svc-Secret', 's3']],
  body: { kind: 'json', value: { input: { id: 9, q: 'a b', page: null, email: 'a@b.io', name: 'Jo' } } },
};

function apply(transform: Json, session: { [k: string]: Json } | null = { 'X-Svc-Role': 'user' }): TransformOutcome {
  const t = parseRequestTransform(transform, ['request_transform']);
  return applyRequestTransform(t, original, requestContext(original, session, 'https://api.example.com/v1'));
}

function ok(transform: Json): HttpRequest {
  const r = apply(transform);
  if (r.kind === 'error') throw new Error(JSON.stringify(r.errors));
  return r.request;
}

function parseError(transform: Json): unknown {
  try {
    parseRequestTransform(transform, ['args', 'request_transform']);
  } catch (e) {
    if (e instanceof ApiError) return managementErrorBody(e);
    throw e;
  }
  throw new Error('expected a parse error');
}

describe('request transform: the parts', () => {
  it('leaves the request unchanged when nothing is set', () => {
    expect(ok({})).toEqual(original);
  });
  it('replaces the body with a v2 transform template', () => {
    expect(ok({ version: 2, body: { action: 'transform', template: '{"id": {{$body.input.id}}, "role": {{$session_variables.x-svc-role}}}' } }).body)
      .toEqual({ kind: 'json', value: { id: 9, role: 'user' } });
  });
  it('takes a v1 body as a template string (version absent means 1)', () => {
    expect(ok({ body: '"hi {{$body.input.name}}"' }).body).toEqual({ kind: 'json', value: 'hi Jo' });
  });
  it('removes the body', () => {
    expect(ok({ version: 2, body: { action: 'remove' } }).body).toEqual({ kind: 'none' });
  });
  it('encodes a form body in field order', () => {
    const r = ok({ version: 2, body: { action: 'x_www_form_urlencoded', form_template: { to: '{{$body.input.email}}', text: 'Hi {{$body.input.name}}!' } } });
    expect(r.body).toEqual({ kind: 'text', text: 'to=a%40b.io&text=Hi%20Jo%21' });
  });
  it('encodes a v1 body object as a form under content_type form-urlencoded and sets the header', () => {
    const r = ok({ content_type: 'application/x-www-form-urlencoded', body: '{"a": {{$body.input.id}}, "b": "x y"}' });
    expect(r.body).toEqual({ kind: 'text', text: 'a=9&b=x%20y' });
    expect(r.headers).toEqual([['X-Svc-Secret', 's3'], ['content-type', 'application/x-www-form-urlencoded']]);
  });
  it('sets the method as written', () => {
    expect(ok({ version: 2, method: 'put' }).method).toBe('put');
  });
  it('templates the url from $base_url and keeps the original query only without a url template', () => {
    expect(ok({ version: 2, url: '{{$base_url}}/users/{{$body.input.id}}' }).url).toBe('https://api.example.com/v1/users/9');
  });
  it('replaces the whole query string with the object form, dropping pairs that render as null', () => {
    const r = ok({
      version: 2,
      query_params: { q: '{{$body.input.q}}', page: '{{$body.input.page}}', x: '{{(fromPairs($query_params)).x}}', flag: null },
    });
    expect(r.url).toBe('https://api.example.com/v1?q=a%20b&x=1&flag');
  });
  it('takes the string form of query_params as the query text', () => {
    expect(ok({ version: 2, query_params: 'a=1&b={{$body.input.id}}' }).url).toBe('https://api.example.com/v1?a=1&b=9');
  });
  it('sees $query_params as pairs with null for a key without value', () => {
    expect(ok({ version: 2, body: { action: 'transform', template: '{{$query_params}}' } }).body).toEqual({ kind: 'json', value: [['x', '1'], ['flag', null]] });
  });
  it('drops headers by name in any case, then appends added headers sorted by name', () => {
    const r = ok({ version: 2, request_headers: { remove_headers: ['x-svc-secret'], add_headers: { 'x-b': '{{$body.input.id}}', 'x-a': 'lit' } } });
    expect(r.headers).toEqual([['Content-Type', 'application/json'], ['x-a', 'lit'], ['x-b', '9']]);
  });
});

describe('request transform: errors', () => {
  it('rejects a url that is not absolute', () => {
    expect(apply({ version: 2, url: '{{$body.input.id}}' })).toEqual({ kind: 'error', errors: [{ error_code: 'TransformationError', message: 'Invalid URL: 9' }] });
  });
  it('collects the errors of every part in order url, body, query, headers', () => {
    const r = apply({
      version: 2, url: '{{$body.a}}', body: { action: 'transform', template: '{{$body.b}}' },
      query_params: { k: '{{$body.c}}' }, request_headers: { add_headers: { h: '{{$body.d}}' } },
    });
    expect(r.kind).toBe('error');
    const messages = r.kind === 'error' ? r.errors.map((e) => e.message) : [];
    expect(messages).toEqual(['"$body.a"', '"$body.b"', '"$body.c"', '"$body.d"']);
  });
  it('reports a failing getSessionVariable without a session', () => {
    const t = parseRequestTransform({ version: 2, body: { action: 'transform', template: '{{getSessionVariable("x-svc-role")}}' } }, []);
    const r = applyRequestTransform(t, original, requestContext(original, null));
    expect(r).toMatchObject({ kind: 'error', errors: [{ error_code: 'Function Error', message: 'Session variable "x-svc-role" not found' }] });
  });
});

describe('request transform: parsing', () => {
  it('reports a body template parse error at body.template', () => {
    expect(parseError({ version: 2, body: { action: 'transform', template: '$body.hello }}' } }))
      .toEqual({ code: 'parse-failed', error: "Unexpected token '$body'.", path: '$.args.request_transform.body.template' });
  });
  it('reports a v1 body template parse error at body', () => {
    expect(parseError({ body: '{"a": }' })).toEqual({ code: 'parse-failed', error: "Unexpected token '}'.", path: '$.args.request_transform.body' });
  });
  it('reports a url template parse error at url', () => {
    expect(parseError({ url: 'http://x/{{ $body. }}' })).toMatchObject({ code: 'parse-failed', path: '$.args.request_transform.url' });
  });
  it('accepts only versions 1 and 2', () => {
    expect(parseError({ version: 3 })).toEqual({ code: 'parse-failed', error: 'expected 1 or 2, encountered 3', path: '$.args.request_transform' });
  });
  it('accepts only the known body actions', () => {
    expect(parseError({ version: 2, body: { action: 'zip' } })).toEqual({ code: 'parse-failed', error: 'invalid transform action', path: '$.args.request_transform.body' });
  });
  it('accepts only the Kriti template engine', () => {
    expect(parseError({ template_engine: 'Go' })).toMatchObject({ code: 'parse-failed', path: '$.args.request_transform.template_engine' });
  });
  it('rejects query_params of another JSON type', () => {
    expect(parseError({ query_params: 3 })).toEqual({ code: 'parse-failed', error: 'Invalid query parameter', path: '$.args.request_transform.query_params' });
  });
});

describe('response transform', () => {
  const ctx = { request: null, status: 200, sessionVariables: { 'x-svc-role': 'user' } };
  it('transforms the reply body with $body and $response', () => {
    const t = parseResponseTransform({ version: 2, body: { action: 'transform', template: '{"v": {{$body.a}}, "s": {{$response.status}}, "r": {{getSessionVariable("x-svc-role")}}}' } }, []);
    expect(applyResponseTransform(t, { a: 1 }, ctx)).toEqual({ kind: 'ok', body: { v: 1, s: 200, r: 'user' } });
  });
  it('removes the body as null and encodes a form as a JSON string', () => {
    expect(applyResponseTransform(parseResponseTransform({ version: 2, body: { action: 'remove' } }, []), { a: 1 }, ctx)).toEqual({ kind: 'ok', body: null });
    const form = parseResponseTransform({ version: 2, body: { action: 'x_www_form_urlencoded', form_template: { a: '{{$body.a}}' } } }, []);
    expect(applyResponseTransform(form, { a: 'x y' }, ctx)).toEqual({ kind: 'ok', body: 'a=x%20y' });
  });
  it('reports evaluation errors', () => {
    const t = parseResponseTransform({ body: '{{$body.nope}}' }, []);
    expect(applyResponseTransform(t, {}, ctx)).toMatchObject({ kind: 'error', errors: [{ error_code: 'Invalid Path' }] });
  });
});
