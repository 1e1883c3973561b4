// One-off scheduled events and the get_ operations are read by parsers Hasura writes by hand with
// aeson's `.:` (CreateScheduledEvent's `o .: "webhook"`, `o .: "schedule_at"`; parseScheduledEvent's
// `o .: "type"` and `o .: "trigger_name"` in RQL/Types/ScheduledTrigger.hs): a missing key is
// aeson's `key "schedule_at" not found` at the object's path, a null one a type error at the key.
// delete_scheduled_event's parser is derived and keeps "the key 'type' was not present". Kiln used
// the derived wording everywhere. Nothing is stored on a refusal.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('scheduled events: required keys in aeson words', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown) => server.metadata(type, args);
  const refusal = (path: string, error: string) => ({ status: 400, body: { path, error, code: 'parse-failed' } });
  const event = { webhook: 'http://127.0.0.1:1/hook', schedule_at: '2099-01-01T00:00:00Z' };

  beforeAll(async () => { server = await serveDatabase('fidschedkeys', ''); });
  afterAll(() => server?.close());

  it('create_scheduled_event', async () => {
    for (const key of ['webhook', 'schedule_at'] as const) {
      const { [key]: _left, ...args } = event;
      expect(await md('create_scheduled_event', args)).toEqual(refusal('$.args', `key "${key}" not found`));
    }
    expect((await md('create_scheduled_event', { ...event, schedule_at: null })).body)
      .toMatchObject({ path: '$.args.schedule_at', code: 'parse-failed' });
    expect((await md('get_scheduled_events', { type: 'one_off' })).body).toMatchObject({ events: [] });
  });

  it('get_scheduled_events and get_scheduled_event_invocations', async () => {
    expect(await md('get_scheduled_events', {})).toEqual(refusal('$.args', 'key "type" not found'));
    expect(await md('get_scheduled_events', { type: 'cron' })).toEqual(refusal('$.args', 'key "trigger_name" not found'));
    expect(await md('get_scheduled_event_invocations', { type: 'cron' })).toEqual(refusal('$.args', 'key "trigger_name" not found'));
  });

  it('delete_scheduled_event keeps the derived wording', async () => {
    expect(await md('delete_scheduled_event', { event_id: 'x' })).toEqual(refusal('$.args', "the key 'type' was not present"));
  });
});
