#!/usr/bin/env node
// Persisted queries against ad-hoc ones, measured as ../shared/bench measures (autocannon,
// pipelining 1, keep-alive, a warm-up run then --reps runs taken in turns, medians), with the ideal server of
// that harness in the same run so that the ratios travel:
//
//   node scripts/bench-persisted.mjs [--bench DIR] [--concurrency 16] [--duration 10] [--warmup 3]
//     [--reps 3] [--only q1,q2] [--scale 1] [--json out.json]
//
// Q1–Q6 of the bench are stored in a query collection with one GET REST endpoint each (`q2/:id`:
// a variable is a path segment), compiled into a bundle (`kiln compile`) and served (`kiln serve
// --bundle`, 10 connections, NODE_ENV=production). Per query three targets are loaded in turn:
//   ideal  the harness's ideal server (POST, one hand-written statement)
//   adhoc  POST /v1/graphql with the query text (parsed and planned once, then the plan cache)
//   rest   GET /api/rest/<q>[/<value>] (the plan compiled into the bundle; no parse at all)
// The stored texts are the query files with whitespace collapsed, so the ad-hoc text is not a
// stored text and takes the ordinary path. Needs `npm run build` and the bench database loaded
// (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bench) and a bench folder with
// `npm ci` done (default /tmp/bench when it has node_modules, else ../shared/bench).
import { helpOnRequest } from './usage.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(`--${n}`); return i >= 0 && i + 1 < argv.length ? argv[i + 1] : d; };
const benchDir = resolve(opt('bench', existsSync('/tmp/bench/node_modules/autocannon') ? '/tmp/bench' : join(root, '..', 'shared', 'bench')));
const concs = opt('concurrency', '16').split(',').map(Number);
const duration = Number(opt('duration', 10));
const warmup = Number(opt('warmup', 3));
const reps = Number(opt('reps', 3));
const scale = Number(opt('scale', 1));
const only = opt('only')?.split(',');
const jsonOut = opt('json');
const DB = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

if (!existsSync(join(benchDir, 'node_modules', 'autocannon'))) {
  console.error(`bench-persisted: ${benchDir}/node_modules/autocannon is missing (run npm ci there, or pass --bench DIR)`);
  process.exit(2);
}
if (!existsSync(join(root, 'build', 'kiln.mjs'))) {
  console.error('bench-persisted: build/kiln.mjs is missing (run npm run build)');
  process.exit(2);
}
const autocannon = createRequire(join(benchDir, 'package.json'))('autocannon');

// ---------- queries and their per-request values (the harness's format) ----------
const qdir = join(benchDir, 'queries');
const names = readdirSync(qdir).filter((f) => f.endsWith('.graphql')).map((f) => f.slice(0, -8)).sort()
  .filter((n) => /^q[1-6]_/.test(n) && (!only || only.some((o) => n === o || n.startsWith(`${o}_`))));
const spec = (n) => (existsSync(join(qdir, `${n}.json`)) ? JSON.parse(readFileSync(join(qdir, `${n}.json`), 'utf8')) : {});
const text = (n) => readFileSync(join(qdir, `${n}.graphql`), 'utf8');
const isGen = (v) => v && typeof v === 'object' && Array.isArray(v.$int);
function mulberry32(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function materialize(obj, rnd) {
  const out = {};
  for (const [k, v] of Object.entries(obj ?? {})) {
    if (!isGen(v)) { out[k] = v; continue; }
    const [lo, hi] = v.$int;
    const top = v.scaled ? lo + (hi - lo + 1) * scale - 1 : hi;
    out[k] = lo + Math.floor(rnd() * (top - lo + 1));
  }
  return out;
}
const shortName = (n) => n.split('_')[0];

// ---------- the bundle: bench metadata + one collection + one REST endpoint per query ----------
const work = mkdtempSync(join(tmpdir(), 'kiln-bench-persisted-'));
const metadata = JSON.parse(readFileSync(join(benchDir, 'metadata.json'), 'utf8'));
metadata.query_collections = [{ name: 'bench', definition: { queries: names.map((n) => ({ name: shortName(n), query: text(n).replace(/\s+/g, ' ').trim() })) } }];
metadata.rest_endpoints = names.map((n) => ({
  name: shortName(n), methods: ['GET'], definition: { query: { collection_name: 'bench', query_name: shortName(n) } },
  url: [shortName(n), ...Object.keys(spec(n).variables ?? {}).map((v) => `:${v}`)].join('/'),
}));
writeFileSync(join(work, 'metadata.json'), JSON.stringify(metadata));

function run(args, env = {}) {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    p.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

function start(args, env, ready) {
  const p = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const up = new Promise((ok, fail) => {
    const onData = (b) => {
      for (const line of b.toString().split('\n')) {
        // The last lines only: a served server writes an http-log line per request.
        if (line) lines.push(line);
        if (lines.length > 200) lines.splice(0, lines.length - 100);
        const m = ready(line);
        if (m) ok(m);
      }
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    p.on('exit', (code) => fail(new Error(`${args[0]} exited with ${code}:\n${lines.join('\n')}`)));
    setTimeout(() => fail(new Error(`${args[0]} did not start in 60 s:\n${lines.join('\n')}`)), 60_000).unref();
  });
  return { proc: p, up };
}

const freePort = () => new Promise((ok) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
});

await run([join(root, 'build', 'kiln.mjs'), 'compile', '--metadata', join(work, 'metadata.json'), '--database-url', DB, '--out', join(work, 'dist'), '--quiet']);
const kiln = start([join(root, 'build', 'kiln.mjs'), 'serve', '--bundle', join(work, 'dist'), '--database-url', DB, '--port', '0', '--host', '127.0.0.1',
  '--pg-connections', '10', '--no-console'], { NODE_ENV: 'production' }, (line) => /serving GraphQL at http:\/\/[^:]+:(\d+)/.exec(line)?.[1]);
const idealPort = await freePort();
const ideal = start([join(benchDir, 'ideal-server.mjs'), '--port', String(idealPort), '--pool', '10'], { DATABASE_URL: DB },
  (line) => (/listening|:\d+/i.test(line) ? String(idealPort) : null));
const kilnPort = Number(await kiln.up);
await Promise.race([ideal.up, waitForPort(idealPort)]);

async function waitForPort(port) {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise((r) => { const s = net.connect(port, '127.0.0.1', () => { s.end(); r(true); }); s.on('error', () => r(false)); });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

// ---------- load ----------
// One request of query `n` for target `mode`: method, URL and body, values drawn from `rnd`.
function request(mode, n, rnd) {
  const s = spec(n);
  const headers = { 'content-type': 'application/json' };
  for (const [k, v] of Object.entries(materialize(s.headers, rnd))) headers[k] = String(v);
  const variables = materialize(s.variables, rnd);
  if (mode === 'rest') {
    const path = [shortName(n), ...Object.keys(s.variables ?? {}).map((v) => encodeURIComponent(String(variables[v])))].join('/');
    return { method: 'GET', url: `http://127.0.0.1:${kilnPort}/api/rest/${path}`, headers };
  }
  const q = text(n);
  const operationName = /^\s*(?:query|mutation)\s+(\w+)/m.exec(q)?.[1];
  const url = mode === 'ideal' ? `http://127.0.0.1:${idealPort}/v1/graphql` : `http://127.0.0.1:${kilnPort}/v1/graphql`;
  return { method: 'POST', url, headers, body: JSON.stringify({ query: q, operationName, ...(s.variables ? { variables } : {}) }) };
}

// The JSON a target answers for the first request of the seeded sequence (REST answers `data` itself).
async function check(mode, n) {
  const r = request(mode, n, mulberry32(7));
  const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
  const body = await res.json();
  if (res.status !== 200 || body.errors) throw new Error(`${mode} ${n}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return mode === 'rest' ? body : body.data;
}

function load(mode, n, conns, secs) {
  const rnd = mulberry32(42);
  const first = request(mode, n, rnd);
  const url = new URL(first.url);
  return new Promise((ok, fail) => {
    let lat = new Float64Array(1 << 16);
    let count = 0;
    const inst = autocannon({
      url: `${url.origin}`, connections: conns, duration: secs, pipelining: 1, timeout: 30,
      requests: [{ setupRequest: (req) => {
        const r = request(mode, n, rnd);
        const u = new URL(r.url);
        return { ...req, method: r.method, path: u.pathname + u.search, headers: r.headers, ...(r.body ? { body: r.body } : {}) };
      } }],
    }, (err, res) => {
      if (err) return fail(err);
      const l = lat.subarray(0, count).sort();
      const pc = (q) => (count ? +l[Math.min(count - 1, Math.floor(q * count))].toFixed(2) : null);
      ok({ rps: res.requests.average, p50: pc(0.5), p99: pc(0.99), bad: res.non2xx + res.errors + res.timeouts });
    });
    inst.on('response', (_c, _s, _b, ms) => {
      if (count === lat.length) { const g = new Float64Array(lat.length * 2); g.set(lat); lat = g; }
      lat[count++] = ms;
    });
  });
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const MODES = ['ideal', 'adhoc', 'rest'];
const results = [];
try {
  console.log(`# bench-persisted  bench=${benchDir} scale=${scale} duration=${duration}s warmup=${warmup}s reps=${reps} concurrency=${concs.join(',')}`);
  for (const n of names) {
    const answers = await Promise.all(MODES.map((m) => check(m, n)));
    // The stored query answers what the ad-hoc one does (the ideal server's JSON spacing differs).
    if (JSON.stringify(answers[1]) !== JSON.stringify(answers[2])) throw new Error(`${n}: REST and ad-hoc answers differ`);
    for (const c of concs) {
      const row = { query: n, concurrency: c };
      const runs = Object.fromEntries(MODES.map((m) => [m, []]));
      if (warmup > 0) for (const mode of MODES) await load(mode, n, c, warmup);
      // Targets take turns within each rep, so a busy moment of the box falls on all of them alike.
      for (let i = 0; i < reps; i++) for (const mode of MODES) runs[mode].push(await load(mode, n, c, duration));
      for (const mode of MODES) {
        const r = runs[mode];
        row[mode] = { rps: median(r.map((x) => x.rps)), p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)),
          bad: r.reduce((a, x) => a + x.bad, 0) };
      }
      results.push(row);
      const f = (x) => Number(x).toFixed(0).padStart(6);
      const ratio = (m) => (row[m].rps / row.ideal.rps).toFixed(2);
      console.log(`${n.padEnd(20)} c=${String(c).padEnd(3)} ideal ${f(row.ideal.rps)} req/s  adhoc ${f(row.adhoc.rps)} (${ratio('adhoc')})`
        + `  rest ${f(row.rest.rps)} (${ratio('rest')})  p50 ms ideal/adhoc/rest ${row.ideal.p50}/${row.adhoc.p50}/${row.rest.p50}`
        + (MODES.some((m) => row[m].bad) ? `  BAD=${MODES.map((m) => row[m].bad).join('/')}` : ''));
    }
  }
  if (jsonOut) {
    writeFileSync(jsonOut, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, scale, duration, warmup, reps, results }, null, 2)}\n`);
    console.log(`wrote ${jsonOut}`);
  }
} finally {
  kiln.proc.kill('SIGTERM');
  ideal.proc.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
