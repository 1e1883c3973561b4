// A source that leaves the metadata takes Kiln's event catalog out of its database, as Hasura's
// postDropSourceHook takes hdb_catalog out of a dropped source (Hasura's own test:
// TestEventCreateAndResetNonDefaultSource): its capture triggers no longer log events for a
// source no one serves. pg_drop_source, clear_metadata and replace_metadata alike; the metadata
// database keeps its catalog. Kiln left the triggers writing to the dropped source's event log.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const URL_VARIABLE = 'KILN_FID_DROPPED_SOURCE_URL';

describe('the event catalog of a dropped source', () => {
  let other: TestDatabase;
  let server: ServedDatabase;
  const catalogOf = async (d: TestDatabase): Promise<boolean> =>
    (await d.query<{ present: boolean }>("SELECT to_regnamespace('svc_catalog') IS NOT NULL AS present"))[0]!.present;
  const captures = async (d: TestDatabase): Promise<number> =>
    (await d.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE 'notify_svc_%'"))[0]!.n;
  const addWithTrigger = async (): Promise<void> => {
    await server.ok('/v1/metadata', { type: 'pg_add_source', args: { name: 'depot', configuration: { connection_info: { database_url: { from_env: URL_VARIABLE } } } } });
    await server.ok('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { source: 'depot', table: 'crate' } },
      { type: 'pg_create_event_trigger', args: { source: 'depot', name: 'crate_moved', table: 'crate', insert: { columns: '*' }, webhook: 'http://127.0.0.1:9/never' } },
    ] });
    await server.ok('/v1/query', { type: 'insert', args: { source: 'depot', table: 'crate', objects: [{ id: Math.floor(Math.random() * 1e6) }] } });
    expect(await captures(other)).toBe(1);
    expect((await other.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_catalog.event_log'))[0]!.n).toBeGreaterThan(0);
  };
  const gone = async (): Promise<void> => {
    expect(await catalogOf(other)).toBe(false);
    expect(await captures(other)).toBe(0);
    await other.exec('INSERT INTO crate VALUES (-1); DELETE FROM crate WHERE id = -1;');
    expect(await catalogOf(server.db)).toBe(true);
  };

  beforeAll(async () => {
    other = await createTestDatabase('fiddropsrc2', 'CREATE TABLE crate (id int PRIMARY KEY);');
    process.env[URL_VARIABLE] = other.url;
    server = await serveDatabase('fiddropsrc');
  });

  afterAll(async () => {
    delete process.env[URL_VARIABLE];
    await server?.close();
    await other?.drop();
  });

  it('pg_drop_source', async () => {
    await addWithTrigger();
    await server.ok('/v1/metadata', { type: 'pg_drop_source', args: { name: 'depot', cascade: true } });
    await gone();
  });

  it('clear_metadata', async () => {
    await addWithTrigger();
    await server.ok('/v1/metadata', { type: 'clear_metadata', args: {} });
    await gone();
  });

  it('replace_metadata without the source; the default source keeps serving', async () => {
    const empty = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    await addWithTrigger();
    await server.ok('/v1/metadata', { type: 'replace_metadata', args: empty });
    await gone();
    expect((await server.post('/v1/graphql', { query: '{ __typename }' })).body).toEqual({ data: { __typename: 'query_root' } });
  });
});
