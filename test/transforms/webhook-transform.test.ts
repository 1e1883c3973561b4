// test_webhook_transform beyond the corpus: mock env, header shapes, URL errors.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/bundle/index.js';
import { ApiError, managementErrorBody } from '../../runtime/errors/index.js';
import { testWebhookTransform } from '../../runtime/metadata-api/webhook-transform.js';

function run(args: Json): unknown {
  try {
    return testWebhookTransform(args, ['args'], { SECRET_URL: 'http://leak.example' });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { ...managementErrorBody(e), ...(e.internal !== undefined ? { internal: e.internal } : {}) };
  }
}

describe('test_webhook_transform', () => {
  it('fills {{VAR}} in the url and header values from the mock env, and sees $base_url as configured', () => {
    expect(run({
      webhook_url: '{{BASE}}/hook', env: { BASE: 'http://h.example', TOKEN: 't1' },
      request_headers: [['X-Token', 'Bearer {{TOKEN}}']], body: { a: 1 },
      request_transform: { version: 2, body: { action: 'transform', template: '{"u": {{$base_url}}}' } },
    })).toEqual({ webhook_url: 'http://h.example/hook', method: 'GET', headers: [['x-token', 'Bearer t1']], body: { u: 'http://h.example/hook' } });
  });
  it('takes request_headers as an object too', () => {
    expect(run({ webhook_url: 'http://h.example', request_headers: { A: 'b' }, body: null, request_transform: {} }))
      .toEqual({ webhook_url: 'http://h.example/', method: 'GET', headers: [['a', 'b']], body: null });
  });
  it('refuses a url placeholder missing from the mock env, even when the server has it', () => {
    expect(run({ webhook_url: '{{SECRET_URL}}', body: {}, request_transform: {} })).toMatchObject({ code: 'not-found', path: '$.args.webhook_url' });
  });
  it('refuses an unclosed url placeholder', () => {
    expect(run({ webhook_url: 'http://{{X', body: {}, request_transform: {} })).toEqual({ code: 'parse-failed', error: 'Invalid Url Template', path: '$.args.webhook_url' });
  });
  it('answers a url that is not absolute with validation-failed', () => {
    expect(run({ webhook_url: 'localhost', body: {}, request_transform: {} })).toEqual({
      code: 'validation-failed', error: 'request transform validation failed', path: '$.args',
      internal: [{ error_code: 'Request Initialization Error', message: 'Invalid URL: localhost' }],
    });
  });
  it('parses the response transform and reports its parse errors', () => {
    expect(run({ webhook_url: 'http://h', body: {}, request_transform: {}, response_transform: { body: '{{ }}' } }))
      .toMatchObject({ code: 'parse-failed', path: '$.args.response_transform.body' });
  });
  it('requires body and request_transform', () => {
    expect(run({ webhook_url: 'http://h', request_transform: {} })).toEqual({ code: 'parse-failed', error: "the key 'body' was not present", path: '$.args' });
    expect(run({ webhook_url: 'http://h', body: {} })).toEqual({ code: 'parse-failed', error: "the key 'request_transform' was not present", path: '$.args' });
  });
  it('shows the original request with the errors as body when a template fails', () => {
    expect(run({ webhook_url: 'http://h', body: {}, request_transform: { version: 2, method: 'PUT', url: '{{$body.u}}' } })).toEqual({
      webhook_url: 'http://h/', method: 'GET', headers: [],
      body: [{ error_code: 'Invalid Path', message: '"$body.u"', source_position: { start_line: 0, start_column: 3, end_line: 0, end_column: 10 } }],
    });
  });
});
