// `npm run conformance`: runs the conformance suite of ../shared/conformance against a fresh
// `kiln serve` and fails when any case that conformance/baseline.json records as passing fails,
// even if others start passing (a ratchet per case, not a count). `--update` adds the cases that
// now pass to the record and never removes one: a case leaves the record only by a reviewed edit.
// With `--suite`, only the recorded cases among those run are judged.
//
//   node scripts/conformance.mjs [--scope spec|beyond] [--suite SUBSTR]... [--update] [--verbose]
//
// It creates three databases (the default source and the two extra sources the suite names as
// SVC_GRAPHQL_PG_SOURCE_URL_1/2), starts the server built in build/kiln.mjs with
// SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES=true, runs the runner, prints its table, and drops them.
// Areas that need other server settings (OWN_SERVER: the allow-list) run the same way on a server of their own.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.KILN_SHARED ?? resolve(root, '..', 'shared');
const runner = join(shared, 'conformance', 'run.mjs');
const baselineFile = join(root, 'conformance', 'baseline.json');
const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const SECRET = 'conformance-secret';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
if (flag('--help') || flag('-h')) {
  console.log(`Usage: node scripts/conformance.mjs [options]   (npm run conformance -- [options])

Runs the conformance suite of ../shared/conformance (or $KILN_SHARED/conformance) against a fresh
\`kiln serve\` per area, and fails when a case recorded in conformance/baseline.json as passing fails.

Options:
  --scope spec|beyond   which cases: the specification's (default) or the beyond-spec ones
  --suite SUBSTR        only the suites whose name contains SUBSTR (repeatable); only the
                        recorded cases among those run are judged
  --update              add the cases that now pass to conformance/baseline.json (never removes one)
  --verbose             print every case, not only the failures
  --lax-errors          compare error answers by code only (the runner's option)
  -h, --help            this help

Needs PostgreSQL at $KILN_TEST_PG (default postgres://postgres@127.0.0.1:5432) with PostGIS and the
en_US.UTF-8 locale (.ci/run installs both), and build/kiln.mjs (npm run build).`);
  process.exit(0);
}
const known = new Set(['--scope', '--suite', '--update', '--verbose', '--lax-errors']);
for (let i = 0; i < argv.length; i++) {
  if (!known.has(argv[i])) {
    console.error(`conformance: unknown option ${JSON.stringify(argv[i])} (see --help)`);
    process.exit(2);
  }
  if (argv[i] === '--scope' || argv[i] === '--suite') i++;
}
const scope = argv.includes('--scope') ? argv[argv.indexOf('--scope') + 1] : 'spec';
const passThrough = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--suite') passThrough.push('--suite', argv[++i]);
  if (argv[i] === '--verbose' || argv[i] === '--lax-errors') passThrough.push(argv[i]);
}

if (!existsSync(runner)) {
  console.error(`conformance: ${runner} not found (set KILN_SHARED to the folder holding conformance/)`);
  process.exit(2);
}

async function admin(sql) {
  const c = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

// Suites Hasura's CI ran against a server started with other settings (the allow-list suite ran
// with HASURA_GRAPHQL_ENABLE_ALLOWLIST): each such area gets its own fresh server and databases.
const OWN_SERVER = { allowlist: { SVC_GRAPHQL_ENABLE_ALLOWLIST: 'true' } };

/** Creates the databases, starts `kiln serve` with `extraEnv`, runs the runner on `manifest`, cleans up. */
async function runOnFreshServer(manifest, extraEnv, report) {
  const tag = Math.random().toString(36).slice(2, 8);
  const names = ['main', 'src1', 'src2'].map((n) => `kiln_conf_${n}_${tag}`);
  for (const n of names) await admin(`CREATE DATABASE "${n}"`);
  const [mainUrl, src1, src2] = names.map((n) => `${PG_ROOT}/${n}`);
  // Hasura's test harness creates the schema `hge_tests` before any suite runs; the setups use it.
  {
    const c = new pg.Client({ connectionString: mainUrl });
    await c.connect();
    await c.query('CREATE SCHEMA hge_tests');
    await c.end();
  }

  const server = spawn(process.execPath, [join(root, 'build', 'kiln.mjs'), 'serve', '--database-url', mainUrl, '--port', '0',
    '--host', '127.0.0.1', '--admin-secret', SECRET, '--no-console'], {
    cwd: root,
    env: { ...process.env, SVC_GRAPHQL_STRINGIFY_NUMERIC_TYPES: 'true', SVC_GRAPHQL_PG_SOURCE_URL_1: src1, SVC_GRAPHQL_PG_SOURCE_URL_2: src2,
      SVC_GRAPHQL_CLIENT_NAME: 'svc-client', EVENT_WEBHOOK_HEADER: 'MyEnvValue', DB_URL_ENV_VAR: src1, CONN_STRING_ENV_VAR: src1, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines = [];
  const port = await new Promise((ok, fail) => {
    const onData = (b) => {
      for (const line of b.toString().split('\n')) {
        if (line) logLines.push(line);
        const m = /serving GraphQL at http:\/\/[^:]+:(\d+)/.exec(line);
        if (m) ok(Number(m[1]));
      }
    };
    server.stderr.on('data', onData);
    server.stdout.on('data', onData);
    server.on('exit', (code) => fail(new Error(`kiln serve exited with ${code}:\n${logLines.join('\n')}`)));
    setTimeout(() => fail(new Error(`kiln serve did not start in 60 s:\n${logLines.join('\n')}`)), 60_000).unref();
  });
  const url = `http://127.0.0.1:${port}`;

  const run = spawnSync(process.execPath, [runner, '--url', url, '--admin-secret', SECRET, '--scope', scope, '--manifest', manifest,
    '--json', report, ...passThrough], { stdio: 'inherit', cwd: root });
  server.kill('SIGTERM');
  await new Promise((r) => { server.once('exit', r); setTimeout(r, 5000).unref(); });
  for (const n of names) await admin(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`).catch(() => undefined);

  if (run.status !== 0) {
    console.error(`conformance: the runner failed (exit ${run.status})`);
    process.exit(1);
  }
  return JSON.parse(readFileSync(report, 'utf8'));
}

// Hasura's test harness runs a GraphQL server at localhost:5000/hello-graphql that some suites
// name as a remote schema (replace_metadata with remote_schemas): scripts/hello-graphql.mjs is the
// same small server, in a child process (the runner below runs synchronously).
async function helloGraphql() {
  const child = spawn(process.execPath, [join(root, 'scripts', 'hello-graphql.mjs')], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((ok) => { child.stdout.once('data', ok); child.once('exit', ok); setTimeout(ok, 10_000).unref(); });
  return { close: () => new Promise((r) => { child.once('exit', r); child.stdin.end(); setTimeout(() => { child.kill(); r(); }, 3000).unref(); }) };
}
const hello = await helloGraphql();

mkdirSync(join(root, 'build'), { recursive: true });
const report = join(root, 'build', `conformance-${scope}.json`);
// The suites the runner will pick (its own filter), split by the server each needs.
const manifestFile = join(shared, 'conformance', 'manifest.json');
const full = JSON.parse(readFileSync(manifestFile, 'utf8'));
const filters = passThrough.filter((_, i) => passThrough[i - 1] === '--suite');
const picked = (s) => (s.scope || 'spec') === scope && (filters.length === 0 || filters.some((f) => s.name.includes(f) || s.area === f || (s.topic || '').includes(f)));
const groups = [[null, full.suites.filter((s) => !Object.hasOwn(OWN_SERVER, s.area))],
  ...Object.keys(OWN_SERVER).map((area) => [area, full.suites.filter((s) => s.area === area)])];
const reports = [];
for (const [area, suites] of groups) {
  if (!suites.some(picked)) continue;
  // Per-run names (the process id): engineers running this script at once must not share files.
  const manifest = join(root, 'build', `conformance-manifest-${area ?? 'main'}-${process.pid}.json`);
  writeFileSync(manifest, JSON.stringify({ ...full, corpus: resolve(dirname(manifestFile), full.corpus), suites }));
  const areaReport = join(root, 'build', `conformance-${scope}-${area ?? 'main'}-${process.pid}.json`);
  reports.push(await runOnFreshServer(manifest, area ? OWN_SERVER[area] : {}, areaReport));
  for (const f of [manifest, areaReport]) rmSync(f, { force: true });
}
await hello.close();
const summary = { passed: 0, failed: 0, skipped: 0 };
for (const r of reports) for (const k of Object.keys(summary)) summary[k] += r.summary[k] ?? 0;
writeFileSync(report, `${JSON.stringify({ summary, results: reports.flatMap((r) => r.results) }, null, 2)}\n`);
const baseline = existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, 'utf8')) : {};
const caseId = (r) => `${r.suite} :: ${r.test}`;
const recorded = new Set(Array.isArray(baseline[scope]?.passing) ? baseline[scope].passing : []);
const results = reports.flatMap((r) => r.results);
const ran = new Map(results.map((r) => [caseId(r), r]));
if (recorded.size === 0 && !flag('--update')) {
  console.error(`conformance: conformance/baseline.json records no passing case of ${scope}: run with --update to record them`);
  process.exit(1);
}
const filtered = passThrough.includes('--suite');
// A recorded case that failed, or (on a whole run) that the manifest no longer has, is a regression.
const broken = [...recorded].filter((id) => (ran.has(id) ? ran.get(id).status !== 'pass' : !filtered)).sort();
const gained = results.filter((r) => r.status === 'pass' && !recorded.has(caseId(r))).map(caseId).sort();
console.log(`conformance (${scope}): ${summary.passed} passed, ${summary.failed} failed; ${recorded.size} recorded as passing`);
if (gained.length > 0) console.log(`conformance: ${gained.length} passing case(s) not yet recorded${flag('--update') ? '' : ' (record them with --update)'}:\n  ${gained.join('\n  ')}`);
if (broken.length > 0) {
  console.error(`conformance: ${broken.length} recorded case(s) no longer pass:\n  ${broken.map((id) => `${id}${ran.has(id) ? `: ${ran.get(id).message ?? ''}` : ': not in the manifest any more'}`).join('\n  ')}`);
}
if (flag('--update') && gained.length > 0) {
  const passing = [...new Set([...recorded, ...gained])].sort();
  const total = filtered ? baseline[scope]?.total ?? results.length : results.length;
  baseline[scope] = { total, passing };
  writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log(`conformance: recorded ${passing.length} passing case(s) of ${scope} in conformance/baseline.json`);
}
if (broken.length > 0) process.exit(1);
