// Scale check of multiplexed live queries (issues 7, 19): N subscribers (default 5,000, one socket
// each, graphql-transport-ws) on V distinct variable sets (default 100) of one subscription,
// one committed change per second for D seconds. Prints the database statements per change
// (and per second), the statements run while nothing changed, the server's CPU and RSS, and
// commit → last subscriber notified (p50, p99).
//
//   npm run build && node scripts/subscriptions-scale.mjs [--subscribers 5000] [--sets 100] [--seconds 20]
//       [--idle 5] [--poll] [--stream]
//
//   --poll     the change feed off (SVC_GRAPHQL_LIVE_QUERIES_CHANGE_FEED=false): a poll every second, as Hasura
//   --stream   streaming subscriptions (`item_stream`, cursor on id, where grp = $g): each change
//              inserts a row of a group, and every subscriber of the group must receive it
//   --idle S   seconds with no change before the changes, whose statements are counted (default 5)
//   SCALE_DEBUG=1 (env) prints how many subscribers each change reached
//
// The server is `kiln serve --metadata` in a child process (so its CPU and RSS are its own);
// statements are counted twice: by the server (svc_subscription_statements_total in /v1/metrics,
// exact) and by PostgreSQL (pg_stat_database.xact_commit of a database only the server and this
// script use, less this script's own transactions; PostgreSQL 15 reports a backend's counts up
// to 10 s late, so a short window's count is approximate).
import { helpOnRequest } from './usage.mjs';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './free-port.mjs';
import WebSocket from 'ws';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SUBSCRIBERS = arg('subscribers', 5000);
const SETS = arg('sets', 100);
const SECONDS = arg('seconds', 20);
const IDLE = arg('idle', 5);
const POLL = process.argv.includes('--poll');
const STREAM = process.argv.includes('--stream');
const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const SECRET = 'scale-secret';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function procStats(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
  return { cpuMs: ticks * 10, rssMb: Number(rss) / 1024 };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const dbName = `kiln_scale_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const url = `${PG_ROOT}/${dbName}`;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`CREATE TABLE item (id serial PRIMARY KEY, grp int NOT NULL, val int NOT NULL, label text NOT NULL);
    CREATE INDEX ON item (grp);
    INSERT INTO item (grp, val, label) SELECT g, 0, 'item ' || i FROM generate_series(0, ${SETS - 1}) AS g, generate_series(1, 5) AS i;`);
  const dir = await mkdtemp(join(tmpdir(), 'kiln-scale-'));
  const metadataPath = join(dir, 'metadata.json');
  await writeFile(metadataPath, JSON.stringify({
    version: 3,
    sources: [{ name: 'default', kind: 'postgres', configuration: {}, functions: [], tables: [{
      table: { schema: 'public', name: 'item' },
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'grp', 'val', 'label'], filter: { grp: { _lt: 'X-Svc-Max-Group' } } } }],
    }] }],
  }));
  const port = await freePort();
  const server = spawn(process.execPath, [join(root, 'bin/kiln.mjs'), 'serve', '--metadata', metadataPath, '--database-url', url,
    '--port', String(port), '--host', '127.0.0.1', '--admin-secret', SECRET, '--no-console'], {
    env: { ...process.env, SVC_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '1000', SVC_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: '100',
      SVC_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '1000', SVC_GRAPHQL_STREAMING_QUERIES_MULTIPLEXED_BATCH_SIZE: '100',
      SVC_GRAPHQL_LIVE_QUERIES_CHANGE_FEED: POLL ? 'false' : 'true', SVC_GRAPHQL_ENABLED_APIS: 'graphql,metadata,metrics' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverLog = '';
  server.stderr.on('data', (d) => { serverLog += d; });
  const cleanup = async () => {
    server.kill('SIGTERM');
    await sleep(500);
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  };
  try {
    for (let i = 0; ; i++) {
      if (serverLog.includes('serving GraphQL')) break;
      if (i > 300 || server.exitCode !== null) throw new Error(`server did not start:\n${serverLog}`);
      await sleep(100);
    }

    // Subscribers: one socket each; subscriber i watches group i % SETS (variable $g), as role
    // `user` whose permission reads a session value, so session values are multiplexed too.
    // A stream: every row of its group after the highest id there now; the value it waits for is an id.
    const query = STREAM
      ? 'subscription ($g: Int!, $from: Int!) { item_stream(batch_size: 100, cursor: {initial_value: {id: $from}}, where: {grp: {_eq: $g}}) { id val label } }'
      : 'subscription ($g: Int!) { item(where: {grp: {_eq: $g}}, order_by: {id: asc}) { id val label } }';
    const from = Number((await db.query('SELECT coalesce(max(id), 0) - 1 AS m FROM item')).rows[0].m);
    const lastSeen = new Array(SUBSCRIBERS).fill(-1); // the `val` sum each subscriber last saw
    const notifiedAt = new Map(); // change number -> times
    const expectVal = new Map(); // group -> val after its latest change
    const changeOf = new Map(); // group -> change number of its latest change
    let ready = 0;
    const sockets = [];
    const t0 = Date.now();
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/graphql`, 'graphql-transport-ws');
      const g = i % SETS;
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'connection_init', payload: { headers: { 'x-svc-admin-secret': SECRET, 'x-svc-role': 'user', 'x-svc-max-group': String(SETS) } } }));
        ws.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query, variables: STREAM ? { g, from } : { g } } }));
      });
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.type !== 'next') return;
        const rows = STREAM ? m.payload.data.item_stream : m.payload.data.item;
        // What tells the change apart: the group's `val` (live), the label of the newest row (stream).
        const val = STREAM ? rows.at(-1).label : rows[0].val;
        if (lastSeen[i] === -1) ready++;
        lastSeen[i] = val;
        const change = changeOf.get(g);
        if (change !== undefined && val === expectVal.get(g)) {
          const list = notifiedAt.get(change) ?? [];
          list.push(performance.now());
          notifiedAt.set(change, list);
        }
      });
      ws.on('error', (e) => { console.error(`socket ${i}: ${e.message}`); });
      sockets.push(ws);
      if (i % 250 === 249) await sleep(20);
    }
    // A stream subscriber's first batch: a new row of its group (every row above `from` is sent).
    if (STREAM) {
      await db.query('INSERT INTO item (grp, val, label) SELECT g, 0, $1 FROM generate_series(0, $2::int - 1) AS g', ['ready', SETS]);
    }
    while (ready < SUBSCRIBERS) {
      if (Date.now() - t0 > 120_000) throw new Error(`only ${ready} subscribers got their first result`);
      await sleep(100);
    }
    console.log(`${SUBSCRIBERS} subscribers on ${SETS} variable sets ready in ${Date.now() - t0} ms`);
    await sleep(3000); // settle

    const metrics = async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/v1/metrics`)).text();
      const read = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
      return { statements: read('svc_subscription_statements_total'), fed: read('svc_live_query_pollers_on_change_feed'),
        notifications: read('svc_change_feed_notifications_total') };
    };
    const xacts = async () => Number((await db.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);
    const idleStart = await xacts();
    const idleMetrics = await metrics();
    await sleep(IDLE * 1000);
    const idleEnd = await metrics();
    const idleStatements = (await xacts()) - idleStart - 1;
    const before = { stats: procStats(server.pid), xact: await xacts(), at: performance.now(), metrics: await metrics() };
    let own = 1; // the xacts() above
    const commits = [];
    const groupVal = new Map(); // group -> its val now (live)
    for (let s = 0; s < SECONDS; s++) {
      const tick = performance.now();
      const g = (s * 37) % SETS;
      // Expected before the statement is sent: with the change feed the first subscriber may be
      // notified before this client has read the statement's own answer. The latency is counted
      // from the moment the statement (an autocommit: its commit included) is sent.
      const expected = STREAM ? `change ${s}` : (groupVal.get(g) ?? 0) + 1;
      groupVal.set(g, expected);
      expectVal.set(g, expected);
      changeOf.set(g, s);
      const sent = performance.now();
      if (STREAM) await db.query('INSERT INTO item (grp, val, label) VALUES ($1, 0, $2)', [g, expected]);
      else await db.query('UPDATE item SET val = val + 1 WHERE grp = $1', [g]);
      own++;
      commits.push({ change: s, group: g, at: sent });
      await sleep(Math.max(0, 1000 - (performance.now() - tick)));
    }
    await sleep(2500); // the last change's notifications
    const after = { stats: procStats(server.pid), xact: await xacts(), at: performance.now(), metrics: await metrics() };
    own++;
    const elapsedS = (after.at - before.at) / 1000;
    const statements = after.xact - before.xact - own;
    const perSubscriberGroup = SUBSCRIBERS / SETS;
    const latencies = [];
    let missing = 0;
    for (const c of commits) {
      const times = notifiedAt.get(c.change) ?? [];
      if (times.length < perSubscriberGroup) missing += perSubscriberGroup - times.length;
      if (process.env.SCALE_DEBUG) console.log(`change ${c.change} group ${c.group}: ${times.length} notified`);
      if (times.length) latencies.push(Math.max(...times) - c.at);
    }
    latencies.sort((a, b) => a - b);
    console.log(JSON.stringify({
      mode: `${STREAM ? 'stream' : 'live'}, ${POLL ? 'poll every second' : 'change feed'}`,
      subscribers: SUBSCRIBERS, variableSets: SETS, seconds: SECONDS, refetchIntervalMs: 1000, batchSize: 100,
      pollersOnChangeFeed: after.metrics.fed, notifications: after.metrics.notifications - before.metrics.notifications,
      windowSeconds: Number(elapsedS.toFixed(1)),
      serverStatements: after.metrics.statements - before.metrics.statements,
      statementsPerChange: Number(((after.metrics.statements - before.metrics.statements) / SECONDS).toFixed(2)),
      statementsPerSecond: Number(((after.metrics.statements - before.metrics.statements) / elapsedS).toFixed(2)),
      databaseTransactions: statements,
      idleSeconds: IDLE, idleServerStatements: idleEnd.statements - idleMetrics.statements, idleDatabaseTransactions: idleStatements,
      serverCpuPercent: Number((((after.stats.cpuMs - before.stats.cpuMs) / (after.at - before.at)) * 100).toFixed(1)),
      serverRssMb: Number(after.stats.rssMb.toFixed(1)),
      commitToLastNotifiedMs: { p50: Number(pct(latencies, 50).toFixed(1)), p99: Number(pct(latencies, 99).toFixed(1)), max: Number(latencies.at(-1).toFixed(1)) },
      notificationsMissing: missing,
    }, null, 2));
    console.log('(serverStatements: the pollers\' statements in the window; databaseTransactions: pg_stat_database less the script\'s own; one plan, 100 cohorts = one batch)');
    for (const ws of sockets) ws.terminate();
  } finally {
    await cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
