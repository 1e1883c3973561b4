import pg from 'pg';

export const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';

/** A fresh database for one test file; `drop()` removes it. */
export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** Creates `kiln_<prefix>_<random>` and runs `setup` in it. */
export async function createTestDatabase(prefix: string, setup = ''): Promise<TestDatabase> {
  const name = `kiln_${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = `${PG_ROOT}/${name}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  if (setup) await client.query(setup);
  return {
    url, name,
    exec: async (sql) => { await client.query(sql); },
    query: async (sql, params) => (await client.query(sql, params)).rows,
    drop: async () => {
      await client.end();
      const a = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}
