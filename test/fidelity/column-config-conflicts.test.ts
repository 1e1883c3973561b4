// A table's column configuration is checked against its columns as Hasura builds its table cache
// (RQL/DDL/Schema/Table.hs, collectColumnConfiguration and assertNoDuplicateFieldNames):
// configuration for a column the table does not have, or two columns given the same GraphQL name,
// make the table an inconsistent object; so every operation that sets a table's configuration
// (set_table_customization, set_table_custom_fields, track_table, replace_metadata) is refused
// and changes nothing, instead of serving a schema with the column left out or named twice. A
// run_sql that drops a configured column drops its configuration (possiblyDropCustomColumnNames).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDatabase, type ServedDatabase } from '../helpers/served-database.js';

let server: ServedDatabase;

const SETUP = `CREATE TABLE kettle (id serial PRIMARY KEY, brand text, litres numeric);
  CREATE TABLE mug (id serial PRIMARY KEY, colour text, motto text);
  INSERT INTO kettle (brand, litres) VALUES ('Alba', 1.5);`;

const table = (name: string) => ({ schema: 'public', name });
const refusal = (name: string, reason: string) => ({ status: 400, body: {
  path: '$.args', code: 'invalid-configuration', error: `Inconsistent object: ${reason}`,
  internal: [{ type: 'table', name: `table ${name} in source default`, definition: table(name), reason: `Inconsistent object: ${reason}` }],
} });
const sameName = (a: string, b: string, field: string): string => `the definitions of columns "${a}" and "${b}" are in conflict: they are mapped to the same field name, "${field}"`;

beforeAll(async () => {
  server = await serveDatabase('fidcolcfg', SETUP, { track: ['kettle'] });
});
afterAll(() => server?.close());

describe('column configuration checked against the columns', () => {
  it('refuses configuration of a column the table does not have, in either spelling', async () => {
    const reason = 'configuration was given for the column "volume", but no such column exists';
    expect(await server.post('/v1/metadata', { type: 'pg_set_table_customization', args: { table: 'kettle',
      configuration: { column_config: { volume: { custom_name: 'capacity' } } } } })).toEqual(refusal('kettle', reason));
    expect(await server.post('/v1/query', { type: 'set_table_custom_fields', version: 2, args: { table: 'kettle',
      custom_column_names: { volume: 'capacity' } } })).toEqual(refusal('kettle', reason));
  });

  it('refuses two columns under one GraphQL name, whether renamed onto another\'s name or onto the same new one', async () => {
    expect(await server.post('/v1/metadata', { type: 'pg_set_table_customization', args: { table: 'kettle',
      configuration: { column_config: { brand: { custom_name: 'id' } } } } })).toEqual(refusal('kettle', sameName('id', 'brand', 'id')));
    expect(await server.post('/v1/metadata', { type: 'pg_track_table', args: { table: 'mug',
      configuration: { custom_column_names: { colour: 'label', motto: 'label' } } } })).toEqual(refusal('mug', sameName('colour', 'motto', 'label')));
  });

  it('leaves the metadata and the schema as they were, and takes a configuration that fits', async () => {
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    expect(md.sources[0].tables).toEqual([{ table: table('kettle') }]);
    expect(await server.ok('/v1/graphql', { query: '{ kettle { id brand } }' })).toEqual({ data: { kettle: [{ id: 1, brand: 'Alba' }] } });
    await server.ok('/v1/metadata', { type: 'pg_set_table_customization', args: { table: 'kettle',
      configuration: { column_config: { brand: { custom_name: 'maker' }, id: { custom_name: 'brand' } } } } });
    expect(await server.ok('/v1/graphql', { query: '{ kettle { brand maker } }' })).toEqual({ data: { kettle: [{ brand: 1, maker: 'Alba' }] } });
  });

  it('drops a dropped column\'s configuration with it, as run_sql does in Hasura, and keeps the others\'', async () => {
    await server.ok('/v1/metadata', { type: 'pg_set_table_customization', args: { table: 'kettle',
      configuration: { column_config: { brand: { custom_name: 'maker' }, litres: { custom_name: 'volume' } } } } });
    expect(await server.ok('/v2/query', { type: 'run_sql', args: { sql: 'ALTER TABLE kettle DROP COLUMN litres; ALTER TABLE kettle RENAME COLUMN brand TO make;' } }))
      .toEqual({ result_type: 'CommandOk', result: null });
    expect((await server.ok('/v1/metadata', { type: 'export_metadata', args: {} })).sources[0].tables[0].configuration)
      .toEqual({ column_config: { make: { custom_name: 'maker' } }, custom_column_names: { make: 'maker' } });
    expect(await server.ok('/v1/graphql', { query: '{ kettle { maker } }' })).toEqual({ data: { kettle: [{ maker: 'Alba' }] } });
  });

  it('lists such a table among the inconsistencies of a replace_metadata that allows them', async () => {
    const md = await server.ok('/v1/metadata', { type: 'export_metadata', args: {} });
    md.sources[0].tables.push({ table: table('mug'), configuration: { column_config: { handle: { custom_name: 'grip' } } } });
    const res = await server.ok('/v1/metadata', { type: 'replace_metadata', args: { allow_inconsistent_metadata: true, metadata: md } });
    expect(res).toMatchObject({ is_consistent: false, inconsistent_objects: [{ type: 'table', name: 'table mug in source default',
      reason: 'Inconsistent object: configuration was given for the column "handle", but no such column exists' }] });
  });
});
