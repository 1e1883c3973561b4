// replace_metadata without allow_inconsistent_metadata refuses every inconsistency, an inherited
// role whose parents disagree on a permission included (Hasura: buildSchemaCacheStrict,
// "cannot continue due to inconsistent metadata", the objects in `internal`), and changes nothing;
// with allow_inconsistent_metadata the document is taken and the inconsistency listed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('replace_metadata and inherited roles whose parents disagree', () => {
  let server: ServedDatabase;
  const post = (path: string, body: unknown): Promise<{ status: number; body: any }> => server.post(path, body);
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => post('/v1/metadata', { type, args, ...more });

  beforeAll(async () => {
    server = await serveDatabase('fidreplace', 'CREATE TABLE memo (id serial PRIMARY KEY, body text, owner int);', { track: ['memo'] });
  });
  afterAll(() => server?.close());

  const document = (source: any) => ({
    version: 3,
    sources: [{ ...source, tables: [{ table: { schema: 'public', name: 'memo' },
      update_permissions: [
        { role: 'writer', permission: { columns: ['body'], filter: {}, check: null } },
        { role: 'owner', permission: { columns: ['body'], filter: { owner: { _eq: 'X-Svc-User-Id' } }, check: null } },
      ] }] }],
    inherited_roles: [{ role_name: 'editors', role_set: ['writer', 'owner'] }],
  });
  const expected = [{ type: 'inherited role permission inconsistency', name: 'editors',
    entity: { permission_type: 'update', source: 'default', table: 'memo' },
    reason: "Could not inherit permission for the role 'editors' for the entity: 'update permission, table: memo, source: 'default''" }];

  it('refuses the document in both envelopes and keeps the metadata as it was', async () => {
    const before = (await md('export_metadata', {}, { version: 2 })).body;
    const next = document(before.metadata.sources[0]);
    for (const body of [{ type: 'replace_metadata', version: 2, args: { metadata: next } }, { type: 'replace_metadata', args: next }]) {
      const r = await post('/v1/metadata', body);
      expect(r).toEqual({ status: 400, body: { path: '$.args', code: 'unexpected', error: 'cannot continue due to inconsistent metadata', internal: expected } });
    }
    const after = (await md('export_metadata', {}, { version: 2 })).body;
    expect(after).toEqual(before);
  });

  it('takes it when inconsistencies are allowed, and lists the role', async () => {
    const before = (await md('export_metadata', {}, { version: 2 })).body;
    const r = await post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: document(before.metadata.sources[0]) } });
    expect(r).toEqual({ status: 200, body: { is_consistent: false, inconsistent_objects: expected } });
    expect((await md('export_metadata', {})).body.inherited_roles).toEqual([{ role_name: 'editors', role_set: ['writer', 'owner'] }]);
  });
});
