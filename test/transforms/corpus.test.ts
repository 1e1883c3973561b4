// One test per corpus case of test_webhook_transform: the corpus args in, the corpus answer out
// (status 200 → the returned value; status 400 → the ApiError's wire body).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/bundle/index.js';
import { ApiError, managementErrorBody } from '../../runtime/errors/index.js';
import { testWebhookTransform } from '../../runtime/metadata-api/webhook-transform.js';
import { sharedPath } from '../helpers/shared.js';

const dir = sharedPath('conformance', 'corpus', 'queries', 'v1', 'metadata');

interface Case {
  readonly description: string;
  readonly status: number;
  readonly response: Json;
  readonly query: { readonly type: string; readonly args: Json };
}

function outcome(args: Json): { status: number; body: unknown } {
  try {
    return { status: 200, body: testWebhookTransform(args, ['args'], {}) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const body = e.internal === undefined ? managementErrorBody(e) : { ...managementErrorBody(e), internal: e.internal };
    return { status: e.status, body };
  }
}

describe('test_webhook_transform corpus', () => {
  const files = readdirSync(dir).filter((f) => f.startsWith('test_webhook_transform_') && f.endsWith('.json')).sort();

  it('finds the eight corpus files', () => {
    expect(files).toHaveLength(8);
  });

  for (const file of files) {
    const cases = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Case[];
    for (const c of cases) {
      it(`${file}: ${c.description}`, () => {
        expect(c.query.type).toBe('test_webhook_transform');
        const got = outcome(c.query.args);
        expect(got.status).toBe(c.status);
        expect(got.body).toEqual(c.response);
      });
    }
  }

  it('ignores the real environment: from_env needs the mock env', () => {
    const args = { webhook_url: { from_env: 'HOME' }, body: {}, request_transform: {} };
    const got = outcome(args);
    expect(got.status).toBe(400);
    expect(got.body).toMatchObject({ code: 'not-found', path: '$.args.webhook_url.from_env' });
    expect((got.body as { error: string }).error).toMatch(/^Missing Env Var: HOME\. For security reasons/);
  });
});
