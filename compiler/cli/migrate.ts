// `kiln migrate apply` and `kiln migrate status`: the SQL migrations of a project
// (DIR/migrations/<database>/<version>_<name>/up.sql, as `kiln import-hasura` writes them; a
// Hasura CLI project's own layouts are read too), applied in version order, each in its own
// transaction, and recorded in svc_catalog.schema_migrations as Hasura records them in
// hdb_catalog.schema_migrations.

import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readMigrations, type Migration } from '../import-hasura/index.js';
import { createPgDriver, type Driver } from '../../runtime/drivers/index.js';
import { ensurePgcrypto } from '../../runtime/metadata-api/index.js';
import { CliError, redact } from './project.js';

export interface MigrateOptions {
  readonly project: string;
  readonly databaseUrl?: string;
  readonly databaseName: string;
  /** Only this version (apply). */
  readonly onlyVersion?: string;
  /** Record the versions as applied without running them (a database whose schema is already there). */
  readonly skipExecution?: boolean;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS svc_catalog.schema_migrations (
  version bigint PRIMARY KEY,
  dirty boolean NOT NULL DEFAULT false)`;

// Several `migrate apply` at once take turns (any constant, the same in every Kiln).
const APPLY_LOCK = 7_242_002;

async function projectMigrations(o: MigrateOptions): Promise<Migration[]> {
  const dir = join(o.project, 'migrations');
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new CliError(`${dir} not found: --project names a folder holding migrations/ (kiln import-hasura writes one)`, 2);
  }
  let all: Map<string, Migration[]>;
  try {
    all = await readMigrations(dir);
  } catch (e) {
    throw new CliError((e as Error).message, 2);
  }
  const list = all.get(o.databaseName);
  if (list === undefined && all.size > 0) {
    throw new CliError(`no migrations for database "${o.databaseName}" in ${dir} (found: ${[...all.keys()].join(', ')}; pass --database-name)`, 2);
  }
  return list ?? [];
}

function url(o: MigrateOptions): string {
  if (!o.databaseUrl) throw new CliError('migrate needs --database-url URL (or SVC_GRAPHQL_DATABASE_URL)', 2);
  return o.databaseUrl;
}

// The database's own words: the driver keeps PostgreSQL's message, SQLSTATE and detail in `internal.error`.
function describe(e: unknown): string {
  const internal = typeof e === 'object' && e !== null ? (e as { internal?: { error?: Record<string, unknown> } }).internal?.error : undefined;
  const message = typeof internal?.['message'] === 'string' ? internal['message'] : e instanceof Error ? e.message : String(e);
  const parts = [message];
  if (typeof internal?.['status_code'] === 'string') parts.push(`(SQLSTATE ${internal['status_code']})`);
  if (typeof internal?.['description'] === 'string') parts.push(`\n${internal['description']}`);
  if (typeof internal?.['hint'] === 'string') parts.push(`\nhint: ${internal['hint']}`);
  return parts.join(' ');
}

async function withDriver<T>(o: MigrateOptions, fn: (db: Driver) => Promise<T>): Promise<T> {
  const db = createPgDriver({ url: url(o), max: 1 });
  try {
    return await fn(db);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${redact(url(o))}: ${describe(e)}`);
  } finally {
    await db.close();
  }
}

// Versions recorded in the database, with their dirty flag; none when there is no table yet.
async function recorded(db: Driver): Promise<Map<string, boolean>> {
  const exists = await db.query("SELECT to_regclass('svc_catalog.schema_migrations') IS NOT NULL");
  if (exists.rows[0]?.[0] !== true) return new Map();
  const rows = await db.query('SELECT version::text, dirty FROM svc_catalog.schema_migrations ORDER BY version');
  return new Map(rows.rows.map((r) => [String(r[0]), r[1] === true]));
}

/** `kiln migrate apply`: every migration not yet recorded, in version order, one transaction each. */
export async function migrateApply(o: MigrateOptions): Promise<void> {
  const all = await projectMigrations(o);
  const list = o.onlyVersion === undefined ? all : all.filter((m) => m.version === o.onlyVersion);
  if (list.length === 0 && o.onlyVersion !== undefined) throw new CliError(`no migration has version ${o.onlyVersion} in ${join(o.project, 'migrations')}`, 2);
  await withDriver(o, async (db) => {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [APPLY_LOCK]);
      await ensurePgcrypto(tx);
      await tx.query('CREATE SCHEMA IF NOT EXISTS svc_catalog');
      await tx.query(CREATE_TABLE);
    });
    const done = await recorded(db);
    const dirty = [...done].find(([, d]) => d);
    if (dirty) throw new CliError(`database version ${dirty[0]} is marked dirty in svc_catalog.schema_migrations: fix the database by hand, then clear the flag`, 1);
    let applied = 0;
    for (const m of list) {
      if (done.has(m.version)) continue;
      try {
        const ran = await db.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1)', [APPLY_LOCK]);
          // Another apply may have run it while this one waited.
          const again = await tx.query('SELECT 1 FROM svc_catalog.schema_migrations WHERE version = $1', [m.version]);
          if (again.rows.length > 0) return false;
          if (!o.skipExecution && m.up !== undefined && m.up.trim() !== '') await tx.runScript(m.up);
          await tx.query('INSERT INTO svc_catalog.schema_migrations (version, dirty) VALUES ($1, false)', [m.version]);
          return true;
        });
        if (ran) {
          applied++;
          process.stderr.write(`${o.skipExecution ? 'recorded (not run)' : 'applied'} ${m.version}_${m.name}\n`);
        }
      } catch (e) {
        throw new CliError(`migration ${m.version}_${m.name} failed: ${describe(e)}\n(it was rolled back; ${applied} migration(s) before it were applied and stay applied)`, 1);
      }
    }
    process.stderr.write(applied === 0 ? 'nothing to apply: the database is up to date\n' : `${o.skipExecution ? 'recorded' : 'applied'} ${applied} migration(s)\n`);
  });
}

/** `kiln migrate status`: each version of the project and of the database, applied or not. */
export async function migrateStatus(o: MigrateOptions): Promise<void> {
  const list = await projectMigrations(o);
  await withDriver(o, async (db) => {
    const done = await recorded(db);
    const rows: string[][] = list.map((m) => [m.version, m.name, done.has(m.version) ? (done.get(m.version) ? 'dirty' : 'applied') : 'not applied']);
    const known = new Set(list.map((m) => m.version));
    for (const [version, dirty] of done) if (!known.has(version)) rows.push([version, '', `${dirty ? 'dirty' : 'applied'} (not in the project)`]);
    rows.sort((a, b) => (BigInt(a[0]!) < BigInt(b[0]!) ? -1 : 1));
    const head = ['VERSION', 'NAME', 'STATUS'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
    process.stdout.write([line(head), ...rows.map(line)].join('\n') + '\n');
  });
}
