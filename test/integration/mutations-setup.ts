// An engine over a real database with a driver that counts the statements it sends, for the
// mutation tests (one round trip per nested insert is a statement count).
import { buildBundle } from '../../compiler/emit/index.js';
import { introspectPostgres } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { Engine } from '../../runtime/graphql/index.js';

export interface CountingEngine {
  /** Runs a request as `role` with the given session variables; the parsed response. */
  run(query: string, variables?: Record<string, unknown> | null, role?: string, session?: Record<string, string>): Promise<{ data?: any; errors?: any[] }>;
  /** Statements sent to the database since the last reset (BEGIN/COMMIT/ROLLBACK included). */
  readonly statements: string[];
  readonly engine: Engine;
  readonly sdl: { readonly [role: string]: string };
  close(): Promise<void>;
}

export async function startCountingEngine(metadata: unknown, url: string): Promise<CountingEngine> {
  const parsed = parseMetadata(metadata);
  if (!parsed.value) throw new Error(`invalid metadata: ${JSON.stringify(parsed.errors)}`);
  const base = createPgDriver({ url, max: 2 });
  const statements: string[] = [];
  const driver: Driver = {
    dialect: base.dialect,
    queryText: (text, params, name, custom) => { statements.push(text); return base.queryText(text, params, name, custom); },
    query: (text, params) => { statements.push(text); return base.query(text, params); },
    runScript: (text) => base.runScript(text),
    transaction: (fn, opts) => base.transaction((tx) => {
      statements.push('BEGIN');
      return fn({ ...tx, queryText: (text, params, name, custom) => { statements.push(text); return tx.queryText(text, params, name, custom); } });
    }, opts),
    close: () => base.close(),
  };
  const bundle = await buildBundle({ metadata: parsed.value, introspection: { default: await introspectPostgres(base) }, engineVersion: 'test' });
  if (bundle.inconsistencies.length) throw new Error(`inconsistent: ${JSON.stringify(bundle.inconsistencies)}`);
  const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: () => driver });
  return {
    statements, engine, sdl: bundle.sdl,
    async run(query, variables, role = 'admin', session = {}) {
      const text = await engine.execute({ query, variables: variables ?? null }, { role, variables: session, isAdmin: role === 'admin' });
      return JSON.parse(text);
    },
    close: () => base.close(),
  };
}
