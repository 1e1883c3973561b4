// POST /v1/graphql/explain on `kiln serve` in catalog mode (metadata in svc_catalog, engine
// replaced on every change): explain follows the engine the metadata API has just compiled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../compiler/cli/serve.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

const SECRET = 'explain-catalog-secret';

describe('explain in catalog mode', () => {
  let db: TestDatabase;
  let close: () => Promise<void>;
  let url: string;

  const post = async (path: string, body: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    db = await createTestDatabase('explaincat', `
      CREATE TABLE note (id serial PRIMARY KEY, owner text NOT NULL, body text NOT NULL);
      INSERT INTO note (owner, body) VALUES ('u1', 'a'), ('u2', 'b');`);
    const s = await serveCommand({
      databaseUrl: db.url, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', adminSecret: SECRET,
      pgConnections: 4, stringifyNumericTypes: false, console: false,
    });
    url = `http://127.0.0.1:${s.port}`;
    close = () => s.close();
  });

  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  it('explains against the metadata tracked at run time, with the role\'s filter', async () => {
    const body = { query: { query: '{ note { id body } }' }, user: { 'x-svc-role': 'user', 'x-svc-user-id': 'u1' } };
    // Nothing tracked yet: the role has no such field.
    const before = await post('/v1/graphql/explain', body);
    expect(before.status).toBe(400);
    expect(before.body).toMatchObject({ code: 'validation-failed' });

    const setup = await post('/v1/metadata', { type: 'bulk', args: [
      { type: 'pg_track_table', args: { source: 'default', table: 'note' } },
      { type: 'pg_create_select_permission', args: { source: 'default', table: 'note', role: 'user',
        permission: { columns: ['id', 'body'], filter: { owner: { _eq: 'X-Svc-User-Id' } } } } },
    ] });
    expect(setup.status).toBe(200);

    const after = await post('/v1/graphql/explain', body);
    expect(after.status).toBe(200);
    const [entry] = after.body as { field: string; sql: string; plan: string[] }[];
    expect(entry!.field).toBe('note');
    expect(entry!.sql).toMatch(/"owner" = \(\$1\)::text/);
    expect(entry!.sql).toMatch(/^-- \$1 = session x-svc-user-id :: text = "u1"$/m);
    expect(entry!.plan.join('\n')).toMatch(/Filter: \(owner = 'u1'::text\)/);
  });
});
