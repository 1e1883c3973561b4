// A test database of its own, served by `kiln serve` in catalog mode, as most tests over a real
// socket set themselves up: created with its SQL, served, its tables tracked and any other
// metadata applied (each call insisting on 200). `close` stops the server and drops the database;
// a set-up that fails half way does both before it throws, so no database is left behind.

import { serveCatalog, type CatalogOptions, type CatalogServer } from './catalog-server.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { postJson } from './http.js';

/** A table to track: its name in public, or schema and name. */
export type TrackedTable = string | { readonly schema: string; readonly name: string };

export interface ServeDatabaseOptions extends CatalogOptions {
  /** Tracked with pg_track_table, one call each, in order. */
  readonly track?: readonly TrackedTable[];
  /** Whole /v1/metadata bodies (`{ type, args }`), sent one by one after the tracking. */
  readonly metadata?: readonly unknown[];
}

export interface ServedDatabase extends CatalogServer {
  readonly db: TestDatabase;
  /** POST /v1/graphql with exactly `headers` (no admin secret added); answers the body, whatever the status. */
  gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  /** POST /v1/metadata `{ type, args, ...more }`; answers the status and the body. */
  metadata(type: string, args: unknown, more?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** Stops the server, then drops the database. */
  close(): Promise<void>;
}

/** Creates `kiln_<prefix>_<random>` with `sql`, serves it and applies `opts.track` and `opts.metadata`. */
export async function serveDatabase(prefix: string, sql = '', opts: ServeDatabaseOptions = {}): Promise<ServedDatabase> {
  const { track = [], metadata = [], ...serve } = opts;
  const db = await createTestDatabase(prefix, sql);
  let server: CatalogServer | undefined;
  try {
    server = await serveCatalog(db.url, serve);
    for (const table of track) await server.ok('/v1/metadata', { type: 'pg_track_table', args: { table } });
    for (const body of metadata) await server.ok('/v1/metadata', body);
    return served(server, db);
  } catch (e) {
    try { await server?.close(); } finally { await db.drop(); }
    throw e;
  }
}

function served(s: CatalogServer, db: TestDatabase): ServedDatabase {
  return {
    ...s, db,
    gql: async (query, variables, headers = {}) =>
      (await postJson(s.url, '/v1/graphql', variables === undefined ? { query } : { query, variables }, headers)).body,
    metadata: (type, args, more = {}) => s.post('/v1/metadata', { type, args, ...more }),
    close: async () => {
      try { await s.close(); } finally { await db.drop(); }
    },
  };
}
