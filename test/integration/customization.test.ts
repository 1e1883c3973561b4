// Source customization: root_fields prefix and suffix apply on top of every root field name
// (custom ones included); a namespace and type-name customization resolve into the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModel } from '../../compiler/model/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver } from '../../runtime/drivers/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKiln, type TestKiln } from '../helpers/kiln.js';

let db: TestDatabase;
let kiln: TestKiln;

const source = (customization: unknown) => ({
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', configuration: {}, customization,
    tables: [
      { table: { schema: 'public', name: 'pet' } },
      { table: { schema: 'public', name: 'toy' }, configuration: { custom_root_fields: { select: 'all_toys' } } },
    ] }],
});

beforeAll(async () => {
  db = await createTestDatabase('custom', `CREATE TABLE pet (id int PRIMARY KEY, name text);
    INSERT INTO pet VALUES (1, 'Rex');
    CREATE TABLE toy (id int PRIMARY KEY, label text);
    INSERT INTO toy VALUES (7, 'ball');`);
  kiln = await startKiln({ databaseUrl: db.url, metadata: source({ root_fields: { prefix: 'zoo_', suffix: '_v1' } }) });
});

afterAll(async () => {
  await kiln?.close();
  await db?.drop();
});

describe('source customization', () => {
  it('puts the prefix and suffix around every root field, custom names included', async () => {
    const res = await kiln.gql('{ zoo_pet_v1 { name } zoo_pet_by_pk_v1(id: 1) { name } zoo_all_toys_v1 { label } }');
    expect(res).toEqual({ data: { zoo_pet_v1: [{ name: 'Rex' }], zoo_pet_by_pk_v1: { name: 'Rex' }, zoo_all_toys_v1: [{ label: 'ball' }] } });
    const plain = await kiln.gql('{ pet { name } }');
    expect(plain.errors?.[0]?.message).toBe(`field "pet" not found in type: 'query_root'`);
  });

  it('resolves a namespace and type-name customization into the model (served: test/graphql/source-customization.test.ts)', async () => {
    const md = parseMetadata(source({ root_fields: { namespace: 'zoo' }, type_names: { prefix: 'Z_' } }));
    const driver = createPgDriver({ url: db.url, max: 1 });
    try {
      const r = resolveModel(md.value!, { engineVersion: 'test', introspection: { default: await introspectPostgres(driver) } });
      expect(r.inconsistencies).toEqual([]);
      expect(r.value.sources[0]!.namespace).toEqual({ field: 'zoo', queryType: 'Z_zoo_query', mutationType: 'Z_zoo_mutation_frontend' });
      expect(r.value.tables['default:public.pet']!.typeAffix).toEqual({ prefix: 'Z_', suffix: '' });
      expect(Object.keys(r.value.roots['admin']!.query)).toContain('zoo.all_toys');
    } finally {
      await driver.close();
    }
  });
});
