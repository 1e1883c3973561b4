// A cron trigger is read by parsers Hasura writes by hand with aeson's `.:` (CreateCronTrigger
// and CronTriggerMetadata in RQL/Types/ScheduledTrigger.hs): a missing name, webhook, schedule or
// include_in_metadata is aeson's `key "webhook" not found` at the object's path, a null one a type
// error, whether it comes from create_cron_trigger or from a replace_metadata document (where the
// entry sits at `$.args.cron_triggers[0]`). Kiln said "the key 'webhook' was not present" for the
// operation and stored a document's entry unread. Nothing changes on a refusal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('cron triggers: required keys in aeson words', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);
  const refusal = (path: string, error: string) => ({ status: 400, body: { path, error, code: 'parse-failed' } });
  const cron = { name: 'nightly', webhook: 'http://127.0.0.1:1/hook', schedule: '0 0 * * *', include_in_metadata: true };

  beforeAll(async () => { server = await serveDatabase('fidcronkeys', ''); });
  afterAll(() => server?.close());

  it('create_cron_trigger', async () => {
    for (const key of ['name', 'webhook', 'schedule', 'include_in_metadata'] as const) {
      const { [key]: _left, ...args } = cron;
      expect(await md('create_cron_trigger', args)).toEqual(refusal('$.args', `key "${key}" not found`));
    }
    expect((await md('create_cron_trigger', { ...cron, include_in_metadata: null })).body).toMatchObject({ path: '$.args.include_in_metadata', code: 'parse-failed' });
    expect((await md('export_metadata', {})).body.cron_triggers).toBeUndefined();
  });

  it('a replace_metadata document', async () => {
    const base = (await md('export_metadata', {})).body;
    const { webhook: _w, ...noWebhook } = cron;
    expect(await md('replace_metadata', { ...base, cron_triggers: [noWebhook] })).toEqual(refusal('$.args.cron_triggers[0]', 'key "webhook" not found'));
    expect(await md('replace_metadata', { metadata: { ...base, cron_triggers: [{ ...cron, schedule: 'never' }] } }, { version: 2 }))
      .toMatchObject({ status: 400, body: { path: '$.args.metadata.cron_triggers[0].schedule', code: 'parse-failed' } });
    expect((await md('export_metadata', {})).body).toEqual(base);
    expect(await md('replace_metadata', { ...base, cron_triggers: [cron] })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await md('export_metadata', {})).body.cron_triggers).toEqual([cron]);
  });
});
