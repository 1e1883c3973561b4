// The envelope's `version`: 1 or 2 for every operation of both management APIs, and 2 only for
// the operations that have a second version (/v1/metadata: replace_metadata, export_metadata;
// /v1/query: track_table, set_table_custom_fields, track_function, replace_metadata). A refused
// version changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('the version of a management operation', () => {
  let db: TestDatabase;
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const tracked = async () => (await post('/v1/metadata', { type: 'export_metadata', args: {} })).body.sources[0].tables.map((t: any) => t.table.name);

  beforeAll(async () => {
    server = await serveDatabase('envversion', 'CREATE TABLE lamp (id serial PRIMARY KEY); CREATE TABLE desk (id serial PRIMARY KEY);');
    db = server.db;
  });
  afterAll(() => server?.close());

  it('refuses a version other than 1 or 2 on either API, whatever the operation', async () => {
    for (const [path, type] of [['/v1/metadata', 'pg_track_table'], ['/v1/metadata', 'export_metadata'], ['/v1/query', 'track_table']] as const) {
      expect(await post(path, { type, version: 3, args: { table: 'lamp' } }))
        .toEqual({ status: 400, body: { path: '$.version', code: 'parse-failed', error: 'expected 1 or 2, encountered 3' } });
    }
    expect(await tracked()).toEqual([]);
  });

  it('takes version 2 only for the operations that have one', async () => {
    expect(await post('/v1/metadata', { type: 'pg_track_table', version: 2, args: { table: 'lamp' } })).toEqual({ status: 400, body: {
      path: '$.type', code: 'parse-failed',
      error: 'parsing RQLMetadataV2 failed, expected tag field to be one of ["replace_metadata","export_metadata"], but found tag "pg_track_table"' } });
    expect(await post('/v1/query', { type: 'run_sql', version: 2, args: { sql: 'DROP TABLE desk' } })).toEqual({ status: 400, body: {
      path: '$.type', code: 'parse-failed',
      error: 'parsing RQLQueryV2 failed, expected tag field to be one of ["track_table","set_table_custom_fields","track_function","replace_metadata"], but found tag "run_sql"' } });
    expect((await db.query("SELECT to_regclass('desk')::text AS t"))[0]).toEqual({ t: 'desk' });
    expect(await tracked()).toEqual([]);

    expect((await post('/v1/query', { type: 'track_table', version: 2, args: { table: 'lamp', configuration: { custom_name: 'light' } } })).status).toBe(200);
    expect((await post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })).body.metadata.sources[0].tables[0])
      .toMatchObject({ table: { schema: 'public', name: 'lamp' }, configuration: { custom_name: 'light' } });
    expect((await post('/v1/metadata', { type: 'pg_track_table', version: 1, args: { table: 'desk' } })).status).toBe(200);
  });
});
