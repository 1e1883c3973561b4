import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectPostgres, type CatalogConnection, type Introspection } from '../../compiler/introspect/index.js';
import { connection, createCatalogDatabase, dropCatalogDatabase, SCHEMA } from './catalog-fixture.js';

// PGlite is PostgreSQL 18, the embedded default of `kiln serve`: the catalog queries must read it
// exactly as they read the 15 server, and json results must not trip the reader (PGlite parses
// json-typed columns itself; the reader asks for text).
function pgliteConnection(db: PGlite): CatalogConnection {
  return {
    async query(text, params = []) {
      const res = await db.query<unknown[]>(text, [...params], { rowMode: 'array' });
      return { rows: res.rows };
    },
  };
}

let lite: PGlite | undefined;
let server: Awaited<ReturnType<typeof createCatalogDatabase>> | undefined;
let fromLite: Introspection;
let fromServer: Introspection;

beforeAll(async () => {
  lite = new PGlite();
  await lite.exec(SCHEMA);
  fromLite = await introspectPostgres(pgliteConnection(lite));
  server = await createCatalogDatabase();
  fromServer = await introspectPostgres(connection(server.client));
}, 60_000);

afterAll(async () => {
  await lite?.close();
  await dropCatalogDatabase(server);
});

describe('introspectPostgres on PGlite (PostgreSQL 18)', () => {
  it('gives the same snapshot as the server for the same schema', () => {
    expect(fromLite.serverVersion).toMatch(/^18\./);
    expect({ ...fromLite, serverVersion: null }).toStrictEqual({ ...fromServer, serverVersion: null });
  });

  it('reads a virtual generated column and keeps NOT NULL constraints out of the key lists', async () => {
    await lite!.exec(`CREATE TABLE public.box (
      id int PRIMARY KEY, w int NOT NULL, h int NOT NULL, area int GENERATED ALWAYS AS (w * h))`);
    const snap = await introspectPostgres(pgliteConnection(lite!));
    const box = snap.tables.find((t) => t.name === 'box')!;
    expect(box.columns.find((c) => c.name === 'area')).toMatchObject({ generated: 'virtual', default: null });
    expect(box.primaryKey).toEqual({ name: 'box_pkey', columns: ['id'] });
    expect(box.uniqueConstraints).toEqual([]);
    expect(box.foreignKeys).toEqual([]);
  });
});
