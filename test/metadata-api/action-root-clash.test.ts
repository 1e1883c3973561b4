// An action and a table's generated root field may not share a name in the root type the action
// joins (mutation root for a mutation action, query root for a query action), whichever is created
// first: the second edit fails with Hasura's 500 `unexpected` and leaves the metadata as it was.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('actions against generated root fields', () => {
  let server: ServedDatabase;
  const post = (body: unknown): Promise<{ status: number; body: any }> => server.post('/v1/metadata', body);
  const action = (name: string, type?: 'query') => ({ type: 'create_action', args: { name, definition: {
    ...(type ? { type } : {}), kind: 'synchronous', arguments: [{ name: 'code', type: 'String!' }], output_type: 'Ticket', handler: 'http://127.0.0.1:9/none' } } });
  const clash = (name: string, root: string) => ({ status: 500, body: { path: '$.args', code: 'unexpected', error: `found duplicate fields in selection set${root}: ${name}` } });
  const names = async () => {
    const md = (await post({ type: 'export_metadata', args: {} })).body;
    return { actions: (md.actions ?? []).map((a: any) => a.name), tables: md.sources[0].tables.map((t: any) => t.table.name) };
  };

  beforeAll(async () => {
    server = await serveDatabase('actclash', 'CREATE TABLE ticket (id serial PRIMARY KEY, code text); CREATE TABLE gate (id serial PRIMARY KEY);');
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    await post({ type: 'clear_metadata', args: {} });
    expect((await post({ type: 'set_custom_types', args: { objects: [{ name: 'Ticket', fields: [{ name: 'id', type: 'Int!' }] }] } })).status).toBe(200);
  });

  it('refuses to track a table whose insert field an action already holds', async () => {
    expect((await post(action('insert_ticket'))).status).toBe(200);
    expect(await post({ type: 'pg_track_table', args: { table: 'ticket' } })).toEqual(clash('insert_ticket', ' for mutation root'));
    expect(await names()).toEqual({ actions: ['insert_ticket'], tables: [] });
  });

  it('refuses an action named like a tracked table\'s delete field, and a query action named like its select field', async () => {
    expect((await post({ type: 'pg_track_table', args: { table: 'gate' } })).status).toBe(200);
    expect(await post(action('delete_gate'))).toEqual(clash('delete_gate', ' for mutation root'));
    expect(await post(action('gate_by_pk', 'query'))).toEqual(clash('gate_by_pk', ''));
    // The same names in the other root type do not clash.
    expect((await post(action('gate', undefined))).status).toBe(200);
    expect(await names()).toEqual({ actions: ['gate'], tables: ['gate'] });
  });
});
