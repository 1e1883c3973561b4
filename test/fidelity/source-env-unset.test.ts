// A source whose `database_url` names an environment variable that is not set cannot be resolved
// (Hasura: resolveUrlConf -> getEnv, in resolveSourceConfig), so the source is an inconsistent
// object with the reason "environment variable 'X' not set": pg_add_source and pg_update_source
// answer invalid-configuration and store nothing, replace_metadata is refused. Before, Kiln served
// such a source from the default database. SVC_GRAPHQL_DATABASE_URL, which --database-url stands
// for, keeps its meaning for the default source.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

const UNSET = 'KILN_FID_SOURCE_NEVER_SET';
const SET = 'KILN_FID_SOURCE_URL';

describe('a source naming an unset environment variable', () => {
  let other: TestDatabase;
  let server: ServedDatabase;
  const post = (body: unknown): Promise<{ status: number; body: any }> => server.post('/v1/metadata', body);
  const fromEnv = (name: string, variable: string) => ({ name, configuration: { connection_info: { database_url: { from_env: variable } } } });
  const sourceNames = async (): Promise<string[]> => (await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).sources
    .map((s: { name: string }) => s.name).sort();
  const unset = (name: string) => `Inconsistent object: environment variable '${name}' not set`;

  beforeAll(async () => {
    delete process.env[UNSET];
    other = await createTestDatabase('fidsrcenv2', 'CREATE TABLE forge (id int PRIMARY KEY); INSERT INTO forge VALUES (7);');
    process.env[SET] = other.url;
    server = await serveDatabase('fidsrcenv', 'CREATE TABLE anvil (id int PRIMARY KEY);');
  });

  afterAll(async () => {
    delete process.env[SET];
    await server?.close();
    await other?.drop();
  });

  it('pg_add_source is refused with the variable named, and stores nothing', async () => {
    const res = await post({ type: 'pg_add_source', args: fromEnv('smithy', UNSET) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ path: '$.args', code: 'invalid-configuration', error: unset(UNSET) });
    expect(res.body.internal).toEqual([expect.objectContaining({ type: 'source', reason: unset(UNSET) })]);
    expect(await sourceNames()).toEqual(['default']);
  });

  it('a variable that is set serves its own database, not the default one', async () => {
    await server.ok('/v1/metadata', { type: 'pg_add_source', args: fromEnv('smithy', SET) });
    await server.ok('/v1/metadata', { type: 'pg_track_table', args: { source: 'smithy', table: 'forge' } });
    expect(await server.ok('/v1/graphql', { query: '{ forge { id } }' })).toEqual({ data: { forge: [{ id: 7 }] } });
  });

  it('pg_update_source to an unset variable is refused and the source keeps its database', async () => {
    const res = await post({ type: 'pg_update_source', args: fromEnv('smithy', UNSET) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid-configuration', error: unset(UNSET) });
    expect(await server.ok('/v1/graphql', { query: '{ forge { id } }' })).toEqual({ data: { forge: [{ id: 7 }] } });
  });

  it('replace_metadata with such a source is refused unless inconsistencies are allowed', async () => {
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    const sources = [...md.sources, { ...fromEnv('foundry', UNSET), kind: 'postgres', tables: [] }];
    const strict = await post({ type: 'replace_metadata', args: { ...md, sources } });
    expect(strict.status).toBe(400);
    expect(strict.body.error).toBe('cannot continue due to inconsistent metadata');
    expect(strict.body.internal).toEqual([expect.objectContaining({ type: 'source', reason: unset(UNSET) })]);
    expect(await sourceNames()).toEqual(['default', 'smithy']);
    await server.ok('/v1/metadata', { type: 'replace_metadata', args: { allow_inconsistent_metadata: true, metadata: { ...md, sources } } });
    const inconsistent = await server.ok('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} });
    expect(inconsistent.inconsistent_objects).toEqual([expect.objectContaining({ type: 'source', reason: unset(UNSET) })]);
  });
});
