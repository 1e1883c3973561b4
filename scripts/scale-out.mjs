#!/usr/bin/env node
// Scale-out figures (issue 22): 1, 2 and 3 `kiln serve --bundle` runtimes on one primary, with and
// without one streaming replica, under bench Q1 and Q3 sent round-robin across the runtimes.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { ROOT, createDatabase, freePort, runScript, sleep } from './events-harness.mjs';
import { replicaUnavailable, startReplica } from './pg-replica.mjs';

const BENCH = process.env.KILN_BENCH_DIR ?? join(ROOT, '..', 'shared', 'bench');
const QUERIES = { Q1: 'q1_tracks_list', Q3: 'q3_nested' };

const HELP = `Usage: node scripts/scale-out.mjs [options]

Loads the bench data (${BENCH}, SCALE=1) into a fresh database, compiles its metadata.json into a
bundle, makes a streaming replica of the test PostgreSQL (scripts/pg-replica.mjs), then for the
replica off and on and 1, 2, 3 runtimes: starts the runtimes, sends Q1 and Q3 for --duration
seconds each at --concurrency requests in flight, each request to the next runtime in turn, and
prints requests/s, latency and the share of the reads the replica's statistics counted.

  --runtimes LIST     runtime counts (default 1,2,3)
  --duration S        measured seconds per query and setting (default 5; 1 s of warm-up before)
  --concurrency N     requests in flight (default 16)
  --pg-connections N  pool size of each runtime (default 8; a replica gets as many)
  --no-replica        only the primary
  --build             run scripts/build.mjs first (otherwise only when build/kiln.mjs is missing)
  --help              this text`;

function parseArgs(argv) {
  const o = { runtimes: [1, 2, 3], duration: 5, concurrency: 16, pgConnections: 8, replica: true, build: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a} needs a positive number`);
      return v;
    };
    if (a === '--help') return null;
    else if (a === '--runtimes') o.runtimes = String(argv[++i] ?? '').split(',').map(Number).filter((n) => n > 0);
    else if (a === '--duration') o.duration = num();
    else if (a === '--concurrency') o.concurrency = num();
    else if (a === '--pg-connections') o.pgConnections = num();
    else if (a === '--no-replica') o.replica = false;
    else if (a === '--build') o.build = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (o.runtimes.length === 0) throw new Error('--runtimes needs a list of counts');
  return o;
}

/** Starts `kiln serve --bundle`; resolves once it serves. */
async function startRuntime(bundle, databaseUrl, env, pgConnections, label) {
  const port = await freePort();
  const base = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SVC_GRAPHQL_') && k !== 'DATABASE_URL') base[k] = v;
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'kiln.mjs'), 'serve', '--bundle', bundle, '--database-url', databaseUrl,
    '--port', String(port), '--host', '127.0.0.1', '--no-console', '--pg-connections', String(pgConnections)],
  { cwd: ROOT, env: { ...base, DATABASE_URL: databaseUrl, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  let exit = null;
  const exited = new Promise((r) => child.on('exit', (code, signal) => { exit = code ?? signal; r(); }));
  child.stderr.on('data', (d) => { log += d; });
  const until = Date.now() + 30_000;
  while (!/serving GraphQL at/.test(log)) {
    if (exit !== null) throw new Error(`${label} exited (${exit}) before serving:\n${log}`);
    if (Date.now() > until) { child.kill('SIGKILL'); throw new Error(`${label} did not start:\n${log}`); }
    await sleep(50);
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      if (exit !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Sends `body` for `seconds` with `concurrency` in flight, round-robin over `pools`. */
async function load(pools, body, seconds, concurrency) {
  let next = 0;
  let ok = 0;
  let failed = 0;
  const latencies = [];
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const pool = pools[next++ % pools.length];
      const t = performance.now();
      try {
        const res = await pool.request({ path: '/v1/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const text = await res.body.text();
        if (res.statusCode === 200 && !text.startsWith('{"errors"')) ok++; else failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { rps: ok / seconds, failed, p50: at(0.5), p99: at(0.99) };
}

/** Committed transactions of database `name` as the server at `root` counts them. */
async function commits(root, name) {
  const c = new pg.Client({ connectionString: `${root}/postgres` });
  await c.connect();
  try {
    // Statistics reach the shared counters within a second of the work.
    const { rows } = await c.query('SELECT xact_commit::float8 AS n FROM pg_stat_database WHERE datname = $1', [name]);
    return rows[0]?.n ?? 0;
  } finally {
    await c.end();
  }
}

async function run(o) {
  const dir = await mkdtemp(join(tmpdir(), 'kiln-scale-out-'));
  const db = await createDatabase('scaleout');
  const root = db.url.slice(0, db.url.lastIndexOf('/'));
  let replica = null;
  let replicaRoot = '';
  const rows = [];
  try {
    const loaded = spawnSync('bash', [join(BENCH, 'load.sh')], { env: { ...process.env, DATABASE_URL: db.url, SCALE: '1' }, stdio: ['ignore', 'ignore', 'inherit'] });
    if (loaded.status !== 0) throw new Error('loading the bench data failed');
    const bundle = join(dir, 'bundle');
    const compiled = spawnSync(process.execPath, [join(ROOT, 'bin', 'kiln.mjs'), 'compile', '--metadata', join(BENCH, 'metadata.json'),
      '--database-url', db.url, '--out', bundle, '--quiet'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, stdio: 'inherit' });
    if (compiled.status !== 0) throw new Error('kiln compile failed');
    const settings = [false];
    if (o.replica) {
      const why = await replicaUnavailable(root);
      if (why) process.stderr.write(`replica runs skipped: ${why}\n`);
      else {
        replica = await startReplica(root);
        replicaRoot = root.replace(/:\d+$/, `:${replica.port}`);
        settings.push(true);
      }
    }
    for (const withReplica of settings) {
      for (const n of o.runtimes) {
        const env = withReplica ? { SVC_GRAPHQL_READ_REPLICA_URLS: replica.url(db.name) } : {};
        const runtimes = [];
        try {
          for (let i = 0; i < n; i++) runtimes.push(await startRuntime(bundle, db.url, env, o.pgConnections, `runtime ${i + 1}`));
          const pools = runtimes.map((r) => new Pool(r.origin, { connections: o.concurrency }));
          for (const [name, file] of Object.entries(QUERIES)) {
            const body = JSON.stringify({ query: readFileSync(join(BENCH, 'queries', `${file}.graphql`), 'utf8') });
            await load(pools, body, 1, o.concurrency);
            await sleep(600);
            const before = withReplica ? [await commits(root, db.name), await commits(replicaRoot, db.name)] : null;
            const r = await load(pools, body, o.duration, o.concurrency);
            let share = null;
            if (before) {
              await sleep(1200);
              const primary = await commits(root, db.name) - before[0];
              const standby = await commits(replicaRoot, db.name) - before[1];
              share = standby / Math.max(1, primary + standby);
            }
            rows.push({ replica: withReplica, runtimes: n, query: name, ...r, share });
            process.stderr.write(`${withReplica ? 'replica' : 'primary only'}, ${n} runtime(s), ${name}: ${r.rps.toFixed(0)} req/s\n`);
          }
          await Promise.all(pools.map((p) => p.close()));
        } finally {
          for (const r of runtimes) await r.stop();
        }
      }
    }
  } finally {
    await replica?.destroy().catch(() => undefined);
    await db.drop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
  const line = (cells) => `| ${cells.join(' | ')} |`;
  process.stdout.write(`${line(['replica', 'runtimes', 'query', 'req/s', 'p50 ms', 'p99 ms', 'reads on replica', 'failed'])}\n`);
  process.stdout.write(`${line(Array(8).fill('---'))}\n`);
  for (const r of rows) {
    process.stdout.write(`${line([r.replica ? 'on' : 'off', r.runtimes, r.query, r.rps.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1),
      r.share === null ? '-' : `${Math.round(r.share * 100)}%`, r.failed])}\n`);
  }
  return rows.some((r) => r.failed > 0) ? 1 : 0;
}

runScript(import.meta.url, HELP, parseArgs, run);
