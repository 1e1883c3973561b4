// set_graphql_schema_introspection_options takes SetGraphqlIntrospectionOptions, a newtype record
// Hasura derives with Template Haskell (RQL/Types/GraphqlSchemaIntrospection.hs): its one key is
// required, "the key 'disabled_for_roles' was not present", and a null is not a list; the same
// object in a replace_metadata document is read the same way. Kiln took a missing or null
// `disabled_for_roles` as no role and cleared the options.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

describe('introspection options: disabled_for_roles is required', () => {
  let server: ServedDatabase;
  const md = (type: string, args: unknown, more: Record<string, unknown> = {}) => server.metadata(type, args, more);

  beforeAll(async () => {
    server = await serveDatabase('fidintroopts', '');
    await md('set_graphql_schema_introspection_options', { disabled_for_roles: ['guest'] });
  });
  afterAll(() => server?.close());

  it('refuses args without it or with null, and keeps the options', async () => {
    expect(await md('set_graphql_schema_introspection_options', {})).toEqual({ status: 400,
      body: { path: '$.args', error: "the key 'disabled_for_roles' was not present", code: 'parse-failed' } });
    expect(await md('set_graphql_schema_introspection_options', { disabled_for_roles: null })).toEqual({ status: 400,
      body: { path: '$.args.disabled_for_roles', error: 'parsing [] failed, expected Array, but encountered Null', code: 'parse-failed' } });
    expect((await md('export_metadata', {})).body.graphql_schema_introspection).toEqual({ disabled_for_roles: ['guest'] });
  });

  it('refuses a document whose options lack it', async () => {
    const base = (await md('export_metadata', {})).body;
    expect(await md('replace_metadata', { ...base, graphql_schema_introspection: {} })).toEqual({ status: 400,
      body: { path: '$.args.graphql_schema_introspection', error: "the key 'disabled_for_roles' was not present", code: 'parse-failed' } });
    expect((await md('export_metadata', {})).body).toEqual(base);
  });
});
