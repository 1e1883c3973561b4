// Creating an event trigger checks the request against the trigger it replaces and the table it
// listens to, before anything is built (Hasura.RQL.DDL.EventTrigger resolveEventTriggerQuery):
// `replace: true` needs the trigger to exist (askTabInfoFromTrigger: not-exists `event trigger "t"
// does not exist`) on the same table (not-supported `cannot replace table or schema for trigger`);
// each listened column (`columns`, not `payload`) must be a column of the table (askColInfo:
// not-exists `column "c" does not exist`). A replaced definition keeps its place in the table's
// list (`ix name .~ conf`). Kiln created a trigger on replace, moved it to another table, and
// judged a missing column as an inconsistent object.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('create_event_trigger: replace and listened columns', () => {
  let server: ServedDatabase;
  const parcel = { schema: 'shop', name: 'parcel' };
  const crate = { schema: 'shop', name: 'crate' };
  const md = (type: string, args: unknown) => server.metadata(type, args);
  const v1 = (type: string, args: unknown) => server.post('/v1/query', { type, args });
  const triggersOf = async (table: string): Promise<string[]> => {
    const tables = (await md('export_metadata', {})).body.sources[0].tables as { table: { name: string }; event_triggers?: { name: string }[] }[];
    return (tables.find((t) => t.table.name === table)?.event_triggers ?? []).map((e) => e.name);
  };

  beforeAll(async () => {
    server = await serveDatabase('fidetreplace', `CREATE SCHEMA shop;
      CREATE TABLE shop.parcel (id int PRIMARY KEY, weight int, label text);
      CREATE TABLE shop.crate (id int PRIMARY KEY);`, {
      track: [parcel, crate],
      metadata: ['first', 'second', 'third'].map((name) => ({ type: 'pg_create_event_trigger', args: {
        name, table: parcel, webhook: 'http://127.0.0.1:9/hook', insert: { columns: '*' } } })),
    });
  });

  afterAll(() => server?.close());

  it('replace needs an existing trigger on the same table', async () => {
    const missing = await md('pg_create_event_trigger', { name: 'fourth', table: parcel, webhook: 'http://127.0.0.1:9/hook',
      insert: { columns: '*' }, replace: true });
    expect(missing).toEqual({ status: 400, body: { path: '$.args', code: 'not-exists', error: 'event trigger "fourth" does not exist' } });
    const moved = await v1('create_event_trigger', { name: 'second', table: crate, webhook: 'http://127.0.0.1:9/hook',
      insert: { columns: '*' }, replace: true });
    expect(moved).toEqual({ status: 400, body: { path: '$.args', code: 'not-supported', error: 'cannot replace table or schema for trigger' } });
    expect(await triggersOf('parcel')).toEqual(['first', 'second', 'third']);
    expect(await triggersOf('crate')).toEqual([]);
  });

  it('a replaced trigger keeps its place', async () => {
    const r = await md('pg_create_event_trigger', { name: 'second', table: parcel, webhook: 'http://127.0.0.1:9/other',
      update: { columns: ['weight'] }, replace: true });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect(await triggersOf('parcel')).toEqual(['first', 'second', 'third']);
  });

  it('a listened column must exist; payload columns are judged later', async () => {
    const r = await md('pg_create_event_trigger', { name: 'weighed', table: parcel, webhook: 'http://127.0.0.1:9/hook',
      insert: { columns: '*' }, update: { columns: ['weight', 'height'] } });
    expect(r).toEqual({ status: 400, body: { path: '$.args', code: 'not-exists', error: 'column "height" does not exist' } });
    const p = await md('pg_create_event_trigger', { name: 'weighed', table: parcel, webhook: 'http://127.0.0.1:9/hook',
      update: { columns: ['weight'], payload: ['height'] } });
    expect(p.status).toBe(400);
    expect(p.body.code).toBe('invalid-configuration');
    expect(await triggersOf('parcel')).toEqual(['first', 'second', 'third']);
  });
});
