#!/usr/bin/env node
// A remote relationship from 100 parent rows (issue 17's bench): Kiln (`kiln serve`, a table
// `users` with a remote relationship `messages` to a remote GraphQL server) against a hand-written
// node:http server doing what Kiln must at best: one SQL statement, one remote call with an
// aliased field per row, the answers spliced in. Both call the same remote server (its own
// process). Load: `--concurrency` clients, each sending its next request when the last answered,
// for `--duration` seconds after a warm-up; both targets in turns, `--reps` times; medians.
//
//   node scripts/bench-remote-join.mjs [--concurrency 8] [--duration 8] [--warmup 2] [--reps 3] [--json out.json]
//
// Needs `npm run build` and PostgreSQL on 127.0.0.1:5432 (a scratch database is made and dropped).
import { helpOnRequest } from './usage.mjs';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, graphql } from 'graphql';
import pg from 'pg';
import { freePort } from './free-port.mjs';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(`--${n}`); return i >= 0 && i + 1 < argv.length ? argv[i + 1] : d; };
const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const QUERY = '{ users(order_by: {id: asc}) { id name messages { id text } } }';

// ---------- the remote server (child process: `--remote PORT`) ----------
if (opt('remote')) {
  const schema = buildSchema('type Query { messages(user_id: Int!): [Message!]! }  type Message { id: Int!  text: String! }');
  const rootValue = { messages: ({ user_id }) => [{ id: user_id * 10, text: `m${user_id}a` }, { id: user_id * 10 + 1, text: `m${user_id}b` }] };
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const out = await graphql({ schema, source: body.query, variableValues: body.variables ?? null, rootValue });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  }).listen(Number(opt('remote')), '127.0.0.1', () => console.log('ready'));
} else {
  await main();
}

// ---------- the hand-written server: one SQL statement, one remote call ----------
function handWritten(dbUrl, remoteUrl) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 10 });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      try {
        const { rows } = await pool.query({ name: 'users', text: 'SELECT id, name FROM users ORDER BY id' });
        const doc = `{ ${rows.map((r, i) => `f${i}: messages(user_id: ${Number(r.id)}) { id text }`).join(' ')} }`;
        const remote = await fetch(remoteUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: doc }) });
        const data = (await remote.json()).data;
        const users = rows.map((r, i) => ({ id: r.id, name: r.name, messages: data[`f${i}`] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { users } }));
      } catch (e) {
        res.writeHead(500).end(String(e));
      }
    });
  });
  return { server, pool };
}

async function load(url, body, concurrency, seconds) {
  const lat = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await r.text();
      if (r.status !== 200 || !text.includes('"messages"') || text.includes('"errors"')) errors++;
      lat.push(performance.now() - t0);
    }
  }));
  lat.sort((a, b) => a - b);
  return { rps: lat.length / seconds, p50: lat[Math.floor(lat.length * 0.5)], p99: lat[Math.floor(lat.length * 0.99)], errors };
}

function median(xs) { return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]; }

async function main() {
  if (!existsSync(join(root, 'build', 'kiln.mjs'))) { console.error('bench-remote-join: run npm run build first'); process.exit(2); }
  const concurrency = Number(opt('concurrency', 8));
  const duration = Number(opt('duration', 8));
  const warmup = Number(opt('warmup', 2));
  const reps = Number(opt('reps', 3));
  const dbName = `kiln_rjbench_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql) => { const c = new pg.Client({ connectionString: `${PG_ROOT}/postgres` }); await c.connect(); try { await c.query(sql); } finally { await c.end(); } };
  await admin(`CREATE DATABASE "${dbName}"`);
  const dbUrl = `${PG_ROOT}/${dbName}`;
  const children = [];
  let hand;
  try {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    await c.query("CREATE TABLE users (id int PRIMARY KEY, name text); INSERT INTO users SELECT g, 'user' || g FROM generate_series(1, 100) g; ANALYZE users");
    await c.end();
    const remotePort = await freePort();
    const remote = spawn(process.execPath, [fileURLToPath(import.meta.url), '--remote', String(remotePort)], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(remote);
    await new Promise((ok) => remote.stdout.once('data', ok));
    const remoteUrl = `http://127.0.0.1:${remotePort}/graphql`;
    const kilnPort = await freePort();
    const kiln = spawn(process.execPath, [join(root, 'build', 'kiln.mjs'), 'serve', '--database-url', dbUrl, '--port', String(kilnPort), '--host', '127.0.0.1', '--no-console'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production', SVC_GRAPHQL_PG_CONNECTIONS: '10', SVC_GRAPHQL_ENABLED_LOG_TYPES: 'startup' } });
    children.push(kiln);
    await new Promise((ok, fail) => {
      const on = (b) => { if (/serving GraphQL/.test(b.toString())) ok(); };
      kiln.stderr.on('data', on); kiln.stdout.on('data', on);
      kiln.once('exit', (code) => fail(new Error(`kiln exited ${code}`)));
    });
    const kilnUrl = `http://127.0.0.1:${kilnPort}`;
    const meta = async (body) => {
      const r = await fetch(`${kilnUrl}/v1/metadata`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (r.status !== 200) throw new Error(`${body.type}: ${await r.text()}`);
    };
    await meta({ type: 'pg_track_table', args: { table: 'users' } });
    await meta({ type: 'add_remote_schema', args: { name: 'forum', definition: { url: remoteUrl } } });
    await meta({ type: 'pg_create_remote_relationship', args: { name: 'messages', table: 'users', definition: { to_remote_schema: {
      remote_schema: 'forum', lhs_fields: ['id'], remote_field: { messages: { arguments: { user_id: '$id' } } } } } } });
    hand = handWritten(dbUrl, remoteUrl);
    const handPort = await freePort();
    await new Promise((ok) => hand.server.listen(handPort, '127.0.0.1', ok));
    const targets = { kiln: `${kilnUrl}/v1/graphql`, handwritten: `http://127.0.0.1:${handPort}/graphql` };
    const body = JSON.stringify({ query: QUERY });
    // Same answer from both.
    const a = await (await fetch(targets.kiln, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
    const b = await (await fetch(targets.handwritten, { method: 'POST', body })).json();
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`answers differ:\n${JSON.stringify(a).slice(0, 300)}\n${JSON.stringify(b).slice(0, 300)}`);
    const runs = { kiln: [], handwritten: [] };
    for (const [name, url] of Object.entries(targets)) await load(url, body, concurrency, warmup);
    for (let r = 0; r < reps; r++) for (const [name, url] of Object.entries(targets)) runs[name].push(await load(url, body, concurrency, duration));
    const summary = Object.fromEntries(Object.entries(runs).map(([n, xs]) => [n, {
      rps: median(xs.map((x) => x.rps)), p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)), errors: xs.reduce((s, x) => s + x.errors, 0) }]));
    const ratio = summary.kiln.rps / summary.handwritten.rps;
    console.log(`remote relationship, 100 parent rows, concurrency ${concurrency}, ${duration}s x ${reps} (medians)`);
    for (const [n, s] of Object.entries(summary)) console.log(`  ${n.padEnd(12)} ${s.rps.toFixed(1)} req/s  p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  errors ${s.errors}`);
    console.log(`  kiln / hand-written throughput: ${ratio.toFixed(2)}`);
    if (opt('json')) writeFileSync(opt('json'), `${JSON.stringify({ concurrency, duration, reps, summary, ratio }, null, 2)}\n`);
  } finally {
    if (hand) { hand.server.closeAllConnections(); hand.server.close(); await hand.pool.end(); }
    for (const ch of children) ch.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
  }
}
