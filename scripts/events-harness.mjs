// Parts shared by the event delivery checks (issue 6): a scratch database, a webhook that records
// every event id it is sent (and which Kiln process sent it), `kiln serve` child processes on one
// catalog, and the queries that tell how far delivery got. Used by scripts/events-fault.mjs,
// scripts/events-throughput.mjs and test/workers/events-multi-instance.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
export const SECRET = 'events-harness-secret';
export const TRIGGER = 'items_events';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export { startWebhook } from './events-webhook.mjs';

/** Builds build/kiln.mjs (what bin/kiln.mjs runs) when it is missing or `force` is set. */
/**
 * Runs a script's `main`: reads the options with `parseArgs` (null: print `help`; a throw: the
 * message and the help, exit 2), makes sure dist/ is built, then `run(options)`, whose number is
 * the exit code. Only when the file is the script being run (so tests can import it).
 */
export function runScript(scriptUrl, help, parseArgs, run) {
  if (scriptUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  const main = async () => {
    let o;
    try {
      o = parseArgs(process.argv.slice(2));
    } catch (e) {
      process.stderr.write(`${e.message}\n\n${help}\n`);
      process.exit(2);
    }
    if (!o) { process.stdout.write(`${help}\n`); return; }
    ensureBuild(o.build);
    process.exit(await run(o));
  };
  main().catch((e) => { process.stderr.write(`${e.stack ?? e}\n`); process.exit(1); });
}

export function ensureBuild(force = false) {
  if (!force && existsSync(join(ROOT, 'build', 'kiln.mjs'))) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`node scripts/build.mjs failed (${r.status})`);
}

/** A TCP port nobody listens on right now. */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createNetServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Creates `kiln_<prefix>_<random>` with the table the triggers watch; `drop()` removes it. */
export async function createDatabase(prefix) {
  const name = `kiln_${prefix}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = `${PG_ROOT}/${name}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE TABLE items (id serial PRIMARY KEY, v int NOT NULL)');
  return {
    url, name,
    query: async (text, params) => (await client.query(text, params)).rows,
    async drop() {
      await client.end().catch(() => undefined);
      const a = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * Starts `kiln serve --database-url <db>` (catalog mode) on `port` and resolves once it serves.
 * `env` adds settings (SVC_GRAPHQL_EVENTS_*); the caller's SVC_GRAPHQL_* are not passed on.
 */
export async function startKiln(o) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SVC_GRAPHQL_') && k !== 'DATABASE_URL') env[k] = v;
  const args = [join(ROOT, 'bin', 'kiln.mjs'), 'serve', '--database-url', o.databaseUrl, '--port', String(o.port),
    '--host', '127.0.0.1', '--admin-secret', SECRET, '--no-console', '--pg-connections', String(o.pgConnections ?? 8)];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...env, ...o.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  o.onSpawn?.(child.pid); // its workers may deliver before it serves
  let log = '';
  let exit;
  const exited = new Promise((r) => child.on('exit', (code, signal) => { exit = { code, signal }; r(exit); }));
  child.stderr.on('data', (d) => {
    log += d;
    if (o.echo) for (const line of String(d).split('\n')) if (line) process.stderr.write(`[${o.label}] ${line}\n`);
  });
  const base = `http://127.0.0.1:${o.port}`;
  const until = Date.now() + (o.readyMs ?? 30_000);
  while (!/serving GraphQL at/.test(log)) {
    if (exit) throw new Error(`${o.label}: kiln serve exited (${exit.code ?? exit.signal}) before serving:\n${log}`);
    if (Date.now() > until) { child.kill('SIGKILL'); throw new Error(`${o.label}: kiln serve did not start:\n${log}`); }
    await sleep(50);
  }
  return {
    label: o.label, pid: child.pid, port: o.port, base,
    log: () => log,
    exited: () => exit,
    kill(signal = 'SIGKILL') { child.kill(signal); return exited; },
    /** SIGTERM (the graceful path), SIGKILL after 10 s. */
    async stop() {
      if (exit) return exit;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const e = await exited;
      clearTimeout(t);
      return e;
    },
  };
}

/** CPU time (user + system, ms) a process has used so far; null where /proc is not there. */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return null;
  }
}

/** POSTs to `path` of an instance as admin; the parsed body, or throws on a non-200. */
export async function call(kiln, path, body) {
  const res = await fetch(`${kiln.base}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${kiln.label} ${path} ${body.type ?? ''}: HTTP ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Tracks `items` and creates the insert + update event trigger sending to `webhook`. */
export async function createItemsTrigger(kiln, webhook, retry = { num_retries: 3, interval_sec: 1, timeout_sec: 5 }) {
  await call(kiln, '/v1/metadata', { type: 'pg_track_table', args: { source: 'default', table: { schema: 'public', name: 'items' } } });
  await call(kiln, '/v1/metadata', { type: 'pg_create_event_trigger', args: {
    name: TRIGGER, source: 'default', table: { schema: 'public', name: 'items' }, webhook,
    insert: { columns: '*' }, update: { columns: '*' }, retry_conf: retry,
  } });
}

/** Waits until every instance serves metadata holding the trigger (they follow the catalog). */
export async function waitTriggerKnown(instances, ms = 15_000) {
  const until = Date.now() + ms;
  for (const k of instances) {
    for (;;) {
      const e = await call(k, '/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
      const tables = e.metadata?.sources?.flatMap((s) => s.tables ?? []) ?? [];
      if (tables.some((t) => (t.event_triggers ?? []).some((et) => et.name === TRIGGER))) break;
      if (Date.now() > until) throw new Error(`${k.label} does not know event trigger ${TRIGGER} after ${ms} ms`);
      await sleep(100);
    }
  }
}

/** Fails clearly when pg_create_event_trigger left no database trigger on items or no event log. */
export async function checkCapture(db) {
  const [r] = await db.query(`SELECT to_regclass('svc_catalog.event_log') IS NOT NULL AS log,
    (SELECT count(*)::int FROM pg_trigger WHERE tgrelid = 'public.items'::regclass AND NOT tgisinternal) AS triggers`);
  if (!r.log || r.triggers === 0) {
    throw new Error(`pg_create_event_trigger succeeded but capture is not installed: svc_catalog.event_log ${r.log ? 'exists' : 'is missing'}, ${r.triggers} database trigger(s) on items`);
  }
}

/** Inserts `n` rows in one statement (one transaction); returns their ids. */
export async function insertSql(db, n) {
  const rows = await db.query('INSERT INTO items (v) SELECT g FROM generate_series(1, $1::int) AS g RETURNING id', [n]);
  return rows.map((r) => r.id);
}

/** Inserts `n` rows through GraphQL (insert_items, as admin); returns their ids. */
export async function insertGraphql(kiln, n) {
  const objects = Array.from({ length: n }, (_, i) => ({ v: i }));
  const r = await call(kiln, '/v1/graphql', {
    query: 'mutation ($objects: [items_insert_input!]!) { insert_items(objects: $objects) { returning { id } } }',
    variables: { objects },
  });
  if (r.errors) throw new Error(`${kiln.label} insert_items: ${JSON.stringify(r.errors)}`);
  return r.data.insert_items.returning.map((x) => x.id);
}

/** Changes `v` of the given rows in one statement (one UPDATE event each). */
export async function updateSql(db, ids) {
  const rows = await db.query('UPDATE items SET v = v + 1000000 WHERE id = ANY($1::int[]) RETURNING id', [ids]);
  return rows.length;
}

/** Counts of the event log of the trigger (`tries` counts every recorded attempt, a success too). */
export async function eventCounts(db) {
  const [r] = await db.query(`SELECT count(*)::int AS total,
      count(*) FILTER (WHERE delivered)::int AS delivered,
      count(*) FILTER (WHERE error)::int AS error,
      count(*) FILTER (WHERE NOT delivered AND NOT error AND locked IS NOT NULL)::int AS locked,
      count(*) FILTER (WHERE tries > 1)::int AS retried
    FROM svc_catalog.event_log WHERE trigger_name = $1`, [TRIGGER]);
  return r;
}

/** Polls until `expected` events are delivered (or error), or the deadline passes; returns the last counts. */
export async function waitDelivered(db, expected, ms, onTick, pollMs = 250) {
  const until = Date.now() + ms;
  for (;;) {
    const c = await eventCounts(db);
    onTick?.(c);
    if (c.delivered + c.error >= expected && c.total >= expected) return { ...c, timedOut: false };
    if (Date.now() > until) return { ...c, timedOut: true };
    await sleep(pollMs);
  }
}

/** The query showing events not delivered (with $1 = TRIGGER): what a stuck run is reported with. */
export const STUCK_QUERY = `SELECT id, delivered, error, tries, locked, next_retry_at, created_at
  FROM svc_catalog.event_log WHERE trigger_name = $1 AND NOT delivered ORDER BY created_at LIMIT 10`;

/** The first rows of STUCK_QUERY. */
export async function stuckRows(db) {
  return db.query(STUCK_QUERY, [TRIGGER]);
}

/** Ids of events claimed (locked) and not finished now, by any instance. */
export async function lockedIds(db) {
  const rows = await db.query(`SELECT id FROM svc_catalog.event_log
    WHERE trigger_name = $1 AND NOT delivered AND NOT error AND locked IS NOT NULL`, [TRIGGER]);
  return new Set(rows.map((r) => r.id));
}

/**
 * Compares the event log with what the webhook received. A duplicate is "explained" when one of
 * its deliveries before the last came from `killed.pid` (the process that died) or when the id
 * was claimed but unfinished at the kill (`killed.lockedAtKill`).
 */
export async function compare(db, webhook, killed = {}) {
  const ids = (await db.query('SELECT id FROM svc_catalog.event_log WHERE trigger_name = $1', [TRIGGER])).map((r) => r.id);
  const inLog = new Set(ids);
  const missing = ids.filter((id) => !webhook.counts.has(id));
  const unknown = [...webhook.counts.keys()].filter((id) => !inLog.has(id));
  const dupIds = [...webhook.counts].filter(([, n]) => n > 1).map(([id]) => id);
  const byId = new Map();
  for (const d of webhook.deliveries) (byId.get(d.id) ?? byId.set(d.id, []).get(d.id)).push(d);
  const byKilled = (d) => killed.pid != null && d.socket.pid === killed.pid;
  const explained = new Set(dupIds.filter((id) => byId.get(id).slice(0, -1).some(byKilled) || killed.lockedAtKill?.has(id)));
  const perProcess = new Map();
  for (const d of webhook.deliveries) perProcess.set(d.socket.pid ?? 'unknown', (perProcess.get(d.socket.pid ?? 'unknown') ?? 0) + 1);
  return {
    written: ids.length, received: webhook.distinct(), deliveries: webhook.deliveries.length,
    missing, unknown, duplicates: dupIds.length, extraDeliveries: webhook.deliveries.length - webhook.distinct(),
    explained: explained.size, unexplained: dupIds.filter((id) => !explained.has(id)),
    hungUp: webhook.deliveries.filter((d) => d.hungUp).length, perProcess,
  };
}
