// A real streaming replica of a PostgreSQL on 127.0.0.1 (the tests' one by default), made with PostgreSQL's own tools: pg_basebackup
// (-R writes primary_conninfo and standby.signal) into a temporary folder, and a second server on
// a free port started with pg_ctl. Debian keeps postgresql.conf and pg_hba.conf outside the data
// folder, so the copy has neither: the replica gets its own. PostgreSQL refuses to run as root,
// so as root every tool runs as the `postgres` OS user, which owns the folder.

import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.mjs';

/** The test PostgreSQL (KILN_TEST_PG), as test/helpers/database.ts names it. */
export const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';

const run = promisify(execFile);

/**
 * Why a replica cannot be made here (null: it can): replication from 127.0.0.1 needs a
 * `host replication ... 127.0.0.1/32` line in the primary's pg_hba.conf (`.ci/run` adds it).
 */
export async function replicaUnavailable(root = PG_ROOT) {
  const c = new pg.Client({ connectionString: `${root}/postgres` });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n FROM pg_hba_file_rules
        WHERE type = 'host' AND error IS NULL AND 'replication' = ANY(database)
          AND (address = '127.0.0.1' OR address = '0.0.0.0' OR address = 'all')`);
    if (rows[0].n === 0) return 'the primary\'s pg_hba.conf has no "host replication all 127.0.0.1/32 trust" line (.ci/run adds it; then reload PostgreSQL)';
    const wal = await c.query(
      "SELECT current_setting('wal_level') AS level, current_setting('max_wal_senders')::int AS senders");
    const { level, senders } = wal.rows[0];
    if (level === 'minimal' || senders < 1) return `the primary cannot stream (wal_level ${level}, max_wal_senders ${senders})`;
  } finally {
    await c.end();
  }
  try {
    await run('pg_config', ['--bindir']);
  } catch {
    return 'pg_config is not installed (it finds pg_basebackup and pg_ctl)';
  }
  return null;
}

/** The values of these settings on the server at `root`, as [name, value]. */
async function primarySettings(root, names) {
  const c = new pg.Client({ connectionString: `${root}/postgres` });
  await c.connect();
  try {
    const { rows } = await c.query('SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name', [names]);
    return rows.map((r) => [r.name, r.setting]);
  } finally {
    await c.end();
  }
}

/** Takes a base backup of the test PostgreSQL and starts it as a hot standby on a free port. */
export async function startReplica(root = PG_ROOT) {
  const bin = (await run('pg_config', ['--bindir'])).stdout.trim();
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL's tools run as the postgres OS user.
  const tool = (name, args) => asRoot
    ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args], { timeout: 180_000 })
    : run(join(bin, name), args, { timeout: 180_000 });
  const dir = await mkdtemp(join(tmpdir(), 'kiln-replica-'));
  const data = join(dir, 'data');
  const port = await freePort();
  let running = false;
  const ctl = async (...args) => {
    await tool('pg_ctl', ['-D', data, '-l', join(dir, 'replica.log'), '-w', '-t', '120', ...args]);
  };
  const replica = {
    port,
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async stop() {
      if (!running) return;
      await ctl('-m', 'fast', 'stop');
      running = false;
    },
    async start() {
      await ctl('start');
      running = true;
    },
    async destroy() {
      await replica.stop().catch(async () => {
        // pg_ctl could not stop it cleanly: end it at once.
        await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const uid = Number(stdout.trim());
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
      await chown(dir, uid, gid);
    }
    const primary = new URL(root);
    await tool('pg_basebackup', ['-h', primary.hostname, '-p', primary.port || '5432', '-U', primary.username || 'postgres',
      '-D', data, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
    // The replica's own settings (the base backup copies none from Debian's /etc/postgresql). A hot
    // standby refuses to start with fewer of these than its primary has: they are copied.
    const limits = await primarySettings(root, ['max_connections', 'max_worker_processes', 'max_wal_senders',
      'max_prepared_transactions', 'max_locks_per_transaction']);
    await writeFile(join(data, 'postgresql.conf'), [
      `port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`,
      'hot_standby = on', 'shared_buffers = 16MB', 'fsync = off', "timezone = 'UTC'", "lc_messages = 'C'",
      ...limits.map(([name, value]) => `${name} = ${value}`),
    ].join('\n') + '\n');
    await writeFile(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
    await replica.start();
    return replica;
  } catch (e) {
    await replica.destroy().catch(() => undefined);
    throw e;
  }
}

/** Waits until `fn` gives a value (not undefined), at most `ms`. */
export async function waitFor(fn, ms, what) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
