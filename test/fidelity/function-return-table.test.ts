// A tracked function depends on the table it returns: Hasura's buildFunctionInfo records the
// return table as a dependency (SOITable), resolved once the function is built, and a missing
// one is reported as resolveDependency words it, without the function's context
// (Schema/Cache/Dependencies.hs: "table "t" is not tracked", schema-qualified outside public).
// pg_track_function answers it as invalid-configuration with the function in `internal`, and
// replace_metadata with allow_inconsistent_metadata lists it. Before, Kiln answered a reason of its
// own ("in function "f": the function "f" cannot be tracked because its return table ...").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/http.js';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('a function whose return table is not tracked', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown): Promise<{ status: number; body: any }> => server.metadata(type, args);
  const refused = (schema: string, name: string, table: string) => {
    const reason = `Inconsistent object: table "${table}" is not tracked`;
    return { status: 400, body: { path: '$.args', code: 'invalid-configuration', error: reason,
      internal: [{ type: 'function', name: `function ${schema === 'public' ? name : `${schema}.${name}`} in source default`, definition: { schema, name }, reason }] } };
  };

  beforeAll(async () => {
    server = await serveDatabase('fidfnreturn', `CREATE TABLE note (id int PRIMARY KEY);
      CREATE FUNCTION notes() RETURNS SETOF note AS $$ SELECT * FROM note $$ LANGUAGE sql STABLE;
      CREATE SCHEMA lab; CREATE TABLE lab.sample (id int PRIMARY KEY);
      CREATE FUNCTION lab.samples() RETURNS SETOF lab.sample AS $$ SELECT * FROM lab.sample $$ LANGUAGE sql STABLE;`);
  }, 60_000);
  afterAll(() => server?.close());

  it('refuses to track it with the dependency\'s reason, schema-qualified outside public', async () => {
    expect(await md('pg_track_function', { function: 'notes' })).toEqual(refused('public', 'notes', 'note'));
    expect(await md('pg_track_function', { function: { schema: 'lab', name: 'samples' } })).toEqual(refused('lab', 'samples', 'lab.sample'));
    expect((await md('export_metadata', {})).body.sources[0].functions).toBeUndefined();
  });

  it('lists it among the inconsistent objects of a document that allows them, and tracks it once its table is', async () => {
    const current = (await md('export_metadata', {})).body;
    const next = { ...current, sources: [{ ...current.sources[0], functions: [{ function: { schema: 'public', name: 'notes' } }] }] };
    const r = await postJson(`http://127.0.0.1:${server.port}`, '/v1/metadata',
      { type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: next } });
    expect(r).toEqual({ status: 200, body: { is_consistent: false, inconsistent_objects: refused('public', 'notes', 'note').body.internal } });
    expect((await md('pg_track_table', { table: 'note' })).status).toBe(200);
    expect((await md('get_inconsistent_metadata', {})).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
  });
});
