#!/usr/bin/env node
// Kiln, the ideal server and PostGraphile measured side by side with ../shared/bench's own load
// script (bench.mjs), in rounds, so that the ratios to the ideal server come from one run:
//
//   node scripts/bench-side-by-side.mjs [--bench DIR] [--rounds 3] [--concurrency 16,64]
//     [--duration 4] [--only q1,q4] [--pgl-dir DIR --pgl-node PATH] [--control] [--out DIR]
//
// In each round, for each query, each target runs bench.mjs once (`--only <q> --warmup 1 --reps 1`,
// the server's pid given so that its CPU is read from /proc) one after another, so that the
// targets see the same machine within minutes of each other. The order of the targets turns by
// one place from round to round, so that no target always runs first (on a warmer or colder
// machine) or always right after another. The table printed at the end has,
// per query and connection count, the mean over the rounds of each target's ratio to the ideal
// server's req/s (each round's ratios in brackets), the largest p99 ratio to the ideal's, and the
// server's and PostgreSQL's CPU per request in µs.
//
// Targets:
//   ideal        the harness's ideal-server.mjs (one hand-written statement per request), pool 10
//   kiln         bin/kiln-runtime.mjs on a bundle compiled from the harness's metadata.json,
//                NODE_ENV=production, 10 connections, its defaults (http-log lines on, to a file)
//   postgraphile PostGraphile v5 with the harness's anchors/postgraphile config, when --pgl-dir
//                (a folder with postgraphile installed) and --pgl-node (Node >= 22) are given
//   control      with --control: a second ideal server, measured like the others. Its ratio to the
//                first is what this machine's noise alone does to a ratio (an A/A test): a cell of
//                Kiln's is told apart from the ideal's only by more than the control's spread.
//
// Needs `npm run build`, a copy of the harness with `npm ci` done and its data loaded
// (`cp -r ../shared/bench /tmp/bench && cd /tmp/bench && npm ci && ./load.sh`; default --bench
// /tmp/bench), and for PostGraphile `psql -f anchors/postgraphile/rls.sql` there. DATABASE_URL
// defaults to postgres://postgres@127.0.0.1:5432/bench. JSON of every run goes to --out.
import { helpOnRequest } from './usage.mjs';
import { freePort } from './free-port.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(`--${n}`); return i >= 0 && i + 1 < argv.length ? argv[i + 1] : d; };
const benchDir = resolve(opt('bench', '/tmp/bench'));
const rounds = Number(opt('rounds', 3));
const concurrency = opt('concurrency', '16,64');
const duration = opt('duration', '4');
const pglDir = opt('pgl-dir');
const pglNode = opt('pgl-node');
const control = argv.includes('--control');
const out = resolve(opt('out', mkdtempSync(join(tmpdir(), 'kiln-side-by-side-'))));
const DB = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

function fail(message) {
  console.error(`bench-side-by-side: ${message}`);
  process.exit(2);
}
if (!existsSync(join(benchDir, 'node_modules', 'autocannon'))) fail(`${benchDir}/node_modules/autocannon is missing (copy ../shared/bench there and run npm ci, or pass --bench DIR)`);
if (!existsSync(join(root, 'build', 'kiln.mjs'))) fail('build/kiln.mjs is missing (run npm run build)');
if ((pglDir === undefined) !== (pglNode === undefined)) fail('--pgl-dir and --pgl-node go together');
if (pglDir && !existsSync(join(pglDir, 'node_modules', 'postgraphile'))) fail(`${pglDir}/node_modules/postgraphile is missing`);

const queries = readdirSync(join(benchDir, 'queries')).filter((f) => f.endsWith('.graphql')).map((f) => f.slice(0, -8)).sort()
  .filter((n) => { const only = opt('only')?.split(','); return !only || only.some((o) => n === o || n.startsWith(`${o}_`)); });
mkdirSync(out, { recursive: true });

async function waitFor(url, child, name) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) fail(`${name} exited (code ${child.exitCode}); see ${out}/${name}.log`);
    try {
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  fail(`${name} did not answer at ${url}`);
}

// Each server's output goes to a file (as a deployment's log would), not to a pipe this script reads.
async function startTarget(name, cmd, args, opts, urlPath) {
  const port = await freePort();
  const log = openSync(join(out, `${name}.log`), 'w');
  const child = spawn(cmd, args(port), { ...opts, env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: DB, PORT: String(port), ...opts.env }, stdio: ['ignore', log, log] });
  await waitFor(`http://127.0.0.1:${port}${urlPath}`, child, name);
  return { name, child, url: `http://127.0.0.1:${port}${urlPath}` };
}

console.log(`compiling ${benchDir}/metadata.json ...`);
const bundle = join(out, 'bundle');
rmSync(bundle, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [join(root, 'bin', 'kiln.mjs'), 'compile', '--metadata', join(benchDir, 'metadata.json'), '--database-url', DB, '--out', bundle], { stdio: 'inherit' });
if (compiled.status !== 0) fail('kiln compile failed');

const targets = [];
const stopAll = () => { for (const t of targets) t.child.kill(); };
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));
targets.push({ ...(await startTarget('ideal', process.execPath, (p) => ['ideal-server.mjs', '--port', String(p), '--pool', '10'], { cwd: benchDir }, '/')), queries: 'queries' });
if (control) targets.push({ ...(await startTarget('control', process.execPath, (p) => ['ideal-server.mjs', '--port', String(p), '--pool', '10'], { cwd: benchDir }, '/')), queries: 'queries' });
targets.push({ ...(await startTarget('kiln', join(root, 'bin', 'kiln-runtime.mjs'), (p) => ['--bundle', bundle, '--database-url', DB, '--port', String(p), '--host', '127.0.0.1', '--pg-connections', '10'], { cwd: root }, '/v1/graphql')), queries: 'queries' });
if (pglDir) {
  for (const f of ['graphile.config.mjs', 'server.mjs']) copyFileSync(join(benchDir, 'anchors', 'postgraphile', f), join(pglDir, f));
  targets.push({ ...(await startTarget('postgraphile', pglNode, () => ['server.mjs'], { cwd: pglDir }, '/graphql')), queries: 'anchors/postgraphile/queries' });
}

for (let r = 1; r <= rounds; r++) {
  // Round r starts with the target at place r - 1 (mod the number of targets).
  const order = targets.map((_, i) => targets[(i + r - 1) % targets.length]);
  for (const q of queries) {
    for (const t of order) {
      const file = join(out, `r${r}-${q}-${t.name}.json`);
      const run = spawnSync(process.execPath, ['bench.mjs', '--target', t.url, '--queries', t.queries, '--only', q, '--concurrency', concurrency,
        '--duration', duration, '--warmup', '1', '--reps', '1', '--pid', String(t.child.pid), '--label', t.name, '--json', file], { cwd: benchDir, encoding: 'utf8' });
      if (run.status !== 0) fail(`bench.mjs failed for ${t.name} ${q}: ${run.stderr}`);
      for (const line of run.stdout.split('\n')) if (/^q\d/.test(line)) console.log(`round ${r} ${t.name.padEnd(12)} ${line}`);
    }
  }
}
stopAll();

// ---------- the table ----------
const cells = new Map(); // `${q}|${c}` -> name -> [{ratio, p99, srv, pg}]
for (let r = 1; r <= rounds; r++) {
  for (const q of queries) {
    const byName = {};
    for (const t of targets) {
      const file = join(out, `r${r}-${q}-${t.name}.json`);
      for (const res of JSON.parse(readFileSync(file, 'utf8')).results) if (res.summary) (byName[res.concurrency] ??= {})[t.name] = res.summary;
    }
    for (const [c, m] of Object.entries(byName)) {
      const ideal = m.ideal;
      if (!ideal) continue;
      for (const [name, s] of Object.entries(m)) {
        const key = `${q}|${c}`;
        if (!cells.has(key)) cells.set(key, new Map());
        const list = cells.get(key).get(name) ?? [];
        list.push({ ratio: s.rps / ideal.rps, p99: s.p99 / ideal.p99, srv: (s.server_cpu * 1e4) / s.rps, pg: (s.pg_cpu * 1e4) / s.rps, rps: s.rps });
        cells.get(key).set(name, list);
      }
    }
  }
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const others = targets.map((t) => t.name).filter((n) => n !== 'ideal');
console.log(`\n${rounds} round(s), ${duration} s runs; JSON in ${out}\n`);
console.log(`| query | conns | ideal req/s | ${others.map((n) => `${n} ÷ ideal (rounds)`).join(' | ')} | p99 ÷ ideal, max: ${others.join(' / ')} | server µs/req: ideal / ${others.join(' / ')} | PostgreSQL µs/req: ideal / ${others.join(' / ')} |`);
console.log(`|---|---|---|${others.map(() => '---|').join('')}---|---|---|`);
for (const [key, m] of cells) {
  const [q, c] = key.split('|');
  const ideal = m.get('ideal');
  const f = (name, k, d = 0) => (m.get(name) ? mean(m.get(name).map((x) => x[k])).toFixed(d) : '-');
  const ratios = others.map((n) => (m.get(n) ? `${f(n, 'ratio', 2)} (${m.get(n).map((x) => x.ratio.toFixed(2)).join(', ')})` : '-'));
  const p99 = others.map((n) => (m.get(n) ? Math.max(...m.get(n).map((x) => x.p99)).toFixed(2) : '-'));
  console.log(`| ${q.slice(0, 2).toUpperCase()} | ${c} | ${mean(ideal.map((x) => x.rps)).toFixed(0)} | ${ratios.join(' | ')} | ${p99.join(' / ')} | ${['ideal', ...others].map((n) => f(n, 'srv')).join(' / ')} | ${['ideal', ...others].map((n) => f(n, 'pg')).join(' / ')} |`);
}

// Per target, over every cell: how many cell means reach 0.9, and the spread of single rounds.
console.log('');
for (const n of others) {
  const means = [];
  const singles = [];
  for (const m of cells.values()) {
    const list = m.get(n);
    if (!list) continue;
    means.push(mean(list.map((x) => x.ratio)));
    singles.push(...list.map((x) => x.ratio));
  }
  if (means.length === 0) continue;
  const under = singles.filter((x) => x < 0.9).length;
  console.log(`${n}: ${means.filter((x) => x >= 0.9).length} of ${means.length} cell means at 0.9 or more; single rounds ${Math.min(...singles).toFixed(2)}–${Math.max(...singles).toFixed(2)}, ${under} of ${singles.length} under 0.9`);
}
