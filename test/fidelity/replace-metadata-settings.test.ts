// replace_metadata reads the settings kept as one object (graphql_schema_introspection,
// api_limits, metrics_config) as their set_* operations read their args, as Hasura parses the
// whole document before it builds (RQL/Types/Metadata.hs): a bad value is `parse-failed` at its
// path under the metadata and nothing changes. Kiln stored the introspection options and metrics
// configuration unread, and a bad api_limits value failed the compile with 500 `unexpected`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('replace_metadata reads its settings', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);
  let base: any;

  beforeAll(async () => {
    server = await serveDatabase('fidrepset', '');
    base = (await md('export_metadata', {})).body;
  });
  afterAll(() => server?.close());

  const cases: [string, Record<string, unknown>, string, string][] = [
    ['introspection options', { graphql_schema_introspection: { disabled_for_roles: 'user' } }, 'graphql_schema_introspection.disabled_for_roles',
      'parsing [] failed, expected Array, but encountered String'],
    ['API limits', { api_limits: { depth_limit: { global: 'deep' } } }, 'api_limits.depth_limit.global', 'expected an integer of at least 0, but encountered String'],
    ['metrics configuration', { metrics_config: { analyze_query_variables: 'yes' } }, 'metrics_config.analyze_query_variables',
      'parsing Bool failed, expected Boolean, but encountered String'],
  ];
  for (const [what, settings, at, error] of cases) {
    it(`refuses bad ${what} and changes nothing`, async () => {
      const before = (await md('export_metadata', {}, { version: 2 })).body;
      expect(await md('replace_metadata', { ...base, ...settings })).toEqual({ status: 400, body: { path: `$.args.${at}`, error, code: 'parse-failed' } });
      expect(await md('replace_metadata', { metadata: { ...base, ...settings } }, { version: 2 }))
        .toEqual({ status: 400, body: { path: `$.args.metadata.${at}`, error, code: 'parse-failed' } });
      expect((await md('export_metadata', {}, { version: 2 })).body).toEqual(before);
    });
  }

  it('takes good ones', async () => {
    const settings = { api_limits: { depth_limit: { global: 3 } }, metrics_config: { analyze_query_variables: true },
      graphql_schema_introspection: { disabled_for_roles: ['user'] } };
    expect(await md('replace_metadata', { ...base, ...settings })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await md('export_metadata', {})).body).toMatchObject(settings);
  });
});
