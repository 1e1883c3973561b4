// export_metadata shows a cron trigger as Hasura's export writes it (Metadata.hs,
// cronTriggersToOrdJSON): its retry_conf only when it is not the default one (0 retries, 10 s
// interval, 60 s timeout, 21600 s tolerance) and its headers only when there are some;
// get_cron_triggers still shows the whole definition. Exporting and replacing keeps both.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';
import type { TestDatabase } from '../helpers/database.js';

const DEFAULT_RETRY = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };

describe('cron triggers in export_metadata', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const exported = async (): Promise<any[]> => (await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).cron_triggers;
  const cron = (name: string, extra: object) => ({ type: 'create_cron_trigger', args: { name, webhook: 'http://127.0.0.1:9/never', schedule: '7 3 * * *', payload: { k: 1 }, include_in_metadata: true, ...extra } });

  beforeAll(async () => {
    server = await serveDatabase('fidcronexport', '', { metadata: [
      cron('nightly', {}),
      cron('patient', { retry_conf: { num_retries: 3 }, headers: [{ name: 'x-batch', value: 'yes' }] }),
    ] });
    db = server.db;
    // Given in full but equal to the defaults: left out all the same.
    await server.ok('/v1/query', cron('explicit', { retry_conf: DEFAULT_RETRY, headers: [] }));
  });

  afterAll(() => server?.close());

  it('leaves out the default retry_conf and empty headers, keeps the others', async () => {
    expect(await exported()).toEqual([
      { name: 'nightly', webhook: 'http://127.0.0.1:9/never', schedule: '7 3 * * *', include_in_metadata: true, payload: { k: 1 } },
      { name: 'patient', webhook: 'http://127.0.0.1:9/never', schedule: '7 3 * * *', include_in_metadata: true, payload: { k: 1 },
        retry_conf: { ...DEFAULT_RETRY, num_retries: 3 }, headers: [{ name: 'x-batch', value: 'yes' }] },
      { name: 'explicit', webhook: 'http://127.0.0.1:9/never', schedule: '7 3 * * *', include_in_metadata: true, payload: { k: 1 } },
    ]);
  });

  it('get_cron_triggers shows the whole definition', async () => {
    const listed = (await server.ok('/v1/metadata', { type: 'get_cron_triggers', args: {} })).cron_triggers;
    expect(listed.map((t: { name: string; retry_conf: unknown }) => [t.name, t.retry_conf])).toEqual([
      ['nightly', DEFAULT_RETRY], ['patient', { ...DEFAULT_RETRY, num_retries: 3 }], ['explicit', DEFAULT_RETRY]]);
  });

  it('an export replaced is exported the same, and its triggers keep their events', async () => {
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    await server.ok('/v1/metadata', { type: 'replace_metadata', args: md });
    expect(await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).toEqual(md);
    const events = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM svc_catalog.hdb_cron_events WHERE trigger_name = 'nightly'");
    expect(events[0]!.n).toBeGreaterThan(0);
  });
});
