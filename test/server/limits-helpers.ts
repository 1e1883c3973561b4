// A real Kiln on 127.0.0.1 (HTTP and WebSocket) over a small author/article schema, compiled in
// process from metadata that may carry api_limits and introspection options, with the database
// statements it runs counted (to show a refused request reached no SQL).
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine, type QueryCaps } from '../../runtime/graphql/index.js';
import { createServer } from '../../runtime/server/index.js';

export const LIMITS_SCHEMA = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE article (id int PRIMARY KEY, author_id int NOT NULL REFERENCES author(id), title text NOT NULL);
INSERT INTO author VALUES (1, 'Ann'), (2, 'Bo');
INSERT INTO article VALUES (1, 1, 'One'), (2, 2, 'Two');
CREATE FUNCTION slow_author(seconds float8) RETURNS SETOF author LANGUAGE sql STABLE AS $$ SELECT a.* FROM author a, pg_sleep(seconds) $$;
CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.title = 'slow' THEN PERFORM pg_sleep(3); END IF; RETURN NEW; END $$;
CREATE TRIGGER slow_insert BEFORE INSERT ON article FOR EACH ROW EXECUTE FUNCTION slow_insert();`;

const table = (name: string) => ({ schema: 'public', name });
const select = (role: string) => ({ role, permission: { columns: '*', filter: {} } });
const ROLES = ['user', 'editor'];

/** The metadata: both tables readable by `user` and `editor`, articles insertable by `editor`, relationships both ways, `slow_author` tracked. */
export function limitsMetadata(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 3,
    sources: [{
      name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: { from_env: 'UNUSED_LIMITS_DB' } } },
      tables: [
        { table: table('author'), array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: table('article'), column: 'author_id' } } }],
          select_permissions: ROLES.map(select) },
        { table: table('article'), object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
          select_permissions: ROLES.map(select),
          insert_permissions: [{ role: 'editor', permission: { check: {}, columns: ['id', 'author_id', 'title'] } }] },
      ],
      functions: [{ function: table('slow_author') }],
    }],
    ...extra,
  };
}

export interface LimitsServer {
  readonly url: string;
  readonly wsUrl: string;
  readonly engine: Engine;
  /** Statements sent to the database since the start. */
  statements(): number;
  /** POST /v1/graphql (or another path) as a role (`admin` sends no role header); status and parsed body. */
  post(body: unknown, role?: string, headers?: Record<string, string>, path?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startLimitsServer(o: { databaseUrl: string; metadata?: Record<string, unknown>; caps?: QueryCaps }): Promise<LimitsServer> {
  const parsed = parseMetadata(o.metadata ?? limitsMetadata());
  if (!parsed.value) throw new Error(`test metadata is invalid: ${JSON.stringify(parsed.errors)}`);
  const inner = createPgDriver({ url: o.databaseUrl, max: 4 });
  let statements = 0;
  const driver: Driver = {
    ...inner,
    queryText: (...a) => { statements++; return inner.queryText(...a); },
    transaction: (fn, opts) => { statements++; return inner.transaction(fn, opts); },
  };
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: await introspectPostgres(inner) }, engineVersion: 'test' });
  if (bundle.inconsistencies.length) throw new Error(`inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver, ...(o.caps ? { caps: o.caps } : {}) });
  const server = createServer({ engine, version: 'test', consoleEnabled: false,
    subscriptions: { engine: () => engine, settings: { liveRefetchMs: 100 }, log: () => undefined } });
  const { port } = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  return {
    url, wsUrl: `ws://127.0.0.1:${port}/v1/graphql`, engine,
    statements: () => statements,
    async post(body, role = 'admin', headers = {}, path = '/v1/graphql') {
      const res = await fetch(url + path, { method: 'POST', body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(role === 'admin' ? {} : { 'x-svc-role': role }), ...headers } });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as unknown };
    },
    async close() {
      await server.close();
      await inner.close();
    },
  };
}

/** Fragments that double at each level (the shape of issue 15): 2^levels copies of `F0`, 2·levels deep. */
export function fragmentBomb(levels: number): string {
  let s = 'fragment F0 on author { id }\n';
  for (let i = 1; i <= levels; i++) s += `fragment F${i} on author { ...F${i - 1} a${i}: articles { author { ...F${i - 1} } } }\n`;
  return `query { author { ...F${levels} } }\n${s}`;
}

/** `author { articles { author { ... id } } }`, `levels` selections deep. */
export function nested(levels: number): string {
  let s = 'id';
  for (let i = levels - 1; i >= 1; i--) s = `${i % 2 === 1 ? 'articles' : 'author'} { id ${s} }`;
  return `{ author { ${s} } }`;
}

/** `count` aliases of the author list at the root. */
export function aliasFlood(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: author { id name }`).join(' ')} }`;
}
