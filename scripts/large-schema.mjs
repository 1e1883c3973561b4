// Large-schema check (issue 19): N tables tied by foreign keys (an object relationship to a
// parent table, array relationships to child tables), R roles each reading every table through
// a row filter on a session variable (some also insert or update). Writes the SQL and the
// metadata, then measures what a new user meets:
//   - `kiln compile` wall time (its progress lines pass through to the terminal) and peak RSS,
//   - the bundle's size on disk,
//   - `kiln-runtime --bundle` start: spawn to the first 200 from /healthz (wall and CPU time),
//   - the server's RSS at start and after queries across every role and many tables,
//   - with --metadata-api: `replace_metadata` and one `create_select_permission` on `kiln serve
//     --database-url` (catalog mode), while a client keeps querying (its slowest answer shown).
//
//   npm run build && node scripts/large-schema.mjs [--tables 1000] [--roles 20]
//     [--database-url URL]   create the tables there (default: a fresh database on 127.0.0.1:5432, dropped after)
//     [--out DIR]            where metadata.json, schema.sql and the bundle go (default: a temporary folder)
//     [--tables-per-role 60] tables each role queries   [--timeout 300] seconds any step may take
//     [--metadata-api]       also time the metadata API   [--keep] keep the database and folder
//     [--vary-columns]       roles differ in columns and aggregations too (less to share)
//     [--profile]            the servers write a CPU profile and a heap snapshot (after the queries) into the current folder
//     [--metadata-api-only]  time the metadata API alone (no compile, no bundle served)
//     [--serve-only]         with --out and --database-url of a kept run: serve its bundle again (no tables made, no compile)
import { helpOnRequest } from './usage.mjs';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './free-port.mjs';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const TABLES = Number(opt('tables', 1000));
const ROLES = Number(opt('roles', 20));
const PER_ROLE = Number(opt('tables-per-role', 60));
const TIMEOUT_S = Number(opt('timeout', 300));
const PG_ROOT = process.env.KILN_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const SECRET = 'large-schema-secret';
const KILN = join(root, 'bin/kiln.mjs');
const RUNTIME = join(root, 'bin/kiln-runtime.mjs');
// --profile: the servers write a CPU profile (--cpu-prof) and, after the queries, a heap snapshot into --out.
const NODE_FLAGS = argv.includes('--profile') ? ['--cpu-prof', '--heapsnapshot-signal=SIGUSR2'] : [];

const table = (i) => `t${String(i).padStart(5, '0')}`;
const roleName = (k) => `role_${String(k).padStart(2, '0')}`;
// A binary tree of tables: each one's parent is t((i-1)/2), so it has up to two child tables.
const parentOf = (i) => (i === 0 ? null : Math.floor((i - 1) / 2));
const childrenOf = (i) => [2 * i + 1, 2 * i + 2].filter((c) => c < TABLES);

/** The DDL of the N tables: a key, the tenant the row filter reads, a few data columns, the parent key. */
export function schemaSql(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const p = parentOf(i);
    out.push(`CREATE TABLE public.${table(i)} (id serial PRIMARY KEY, tenant_id int NOT NULL, name text NOT NULL,
  amount numeric, flag boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now(), notes text,
  parent_id int${p === null ? '' : ` REFERENCES public.${table(p)}(id)`});`);
    out.push(`CREATE INDEX ON public.${table(i)} (tenant_id);`);
  }
  return out.join('\n') + '\n';
}

// Roles of a multi-tenant application: each reads its tenant's rows (a row limit for every third),
// every fifth may insert, the next every fifth may update. With --vary-columns every fourth role
// also hides `notes` and every other one has no aggregations: more distinct schemas, less to share.
const VARY = flag('vary-columns');

/** Role k's permissions on a table. */
function permissions(r) {
  const select = [], insert = [], update = [];
  for (let k = 0; k < r; k++) {
    const role = roleName(k);
    const tenant = { tenant_id: { _eq: 'X-Svc-Tenant-Id' } };
    const columns = ['id', 'tenant_id', 'name', 'amount', 'flag', 'created_at', 'parent_id', ...(VARY && k % 4 === 3 ? [] : ['notes'])];
    select.push({ role, permission: { columns, filter: tenant, ...(k % 3 === 2 ? { limit: 100 } : {}), allow_aggregations: !VARY || k % 2 === 0 } });
    if (k % 5 === 0) insert.push({ role, permission: { columns: ['name', 'amount', 'flag', 'notes', 'parent_id'], check: tenant, set: { tenant_id: 'X-Svc-Tenant-Id' } } });
    if (k % 5 === 1) update.push({ role, permission: { columns: ['name', 'amount', 'flag', 'notes'], filter: tenant, check: tenant } });
  }
  return { select, insert, update };
}

/** The metadata (export shape, version 3) of N tables and R roles. */
export function metadataDoc(n, r) {
  const perms = permissions(r);
  const tables = [];
  for (let i = 0; i < n; i++) {
    const t = { table: { schema: 'public', name: table(i) } };
    if (parentOf(i) !== null) t.object_relationships = [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }];
    const kids = childrenOf(i);
    if (kids.length) t.array_relationships = kids.map((c, j) => ({ name: `children_${j === 0 ? 'a' : 'b'}`,
      using: { foreign_key_constraint_on: { table: { schema: 'public', name: table(c) }, column: 'parent_id' } } }));
    t.select_permissions = perms.select;
    if (perms.insert.length) t.insert_permissions = perms.insert;
    if (perms.update.length) t.update_permissions = perms.update;
    tables.push(t);
  }
  return { version: 3, sources: [{ name: 'default', kind: 'postgres', tables, configuration: { connection_info: { database_url: { from_env: 'LARGE_SCHEMA_DATABASE_URL' } } } }] };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

async function dirSize(dir) {
  let total = 0, files = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      const s = await dirSize(full);
      total += s.total; files += s.files;
    } else {
      total += (await stat(full)).size; files++;
    }
  }
  return { total, files };
}

// Runs a command to its end (killed after the timeout), passing its output through; answers
// wall time, CPU time (on a shared machine the fairer figure) and the child's peak RSS (VmHWM),
// both read from /proc while it runs.
async function run(args, env) {
  const started = Date.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
  let peak = 0, cpuMs = 0;
  const watch = setInterval(() => {
    try {
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024);
      cpuMs = cpuMsOf(child.pid);
    } catch { /* exited */ }
  }, 200);
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_S * 1000);
  const code = await new Promise((res) => child.on('exit', (c, sig) => res(c ?? sig)));
  clearTimeout(timer);
  clearInterval(watch);
  return { code, ms: Date.now() - started, cpuMs, peakMb: peak };
}

function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
}

// Starts `kiln-runtime` (a bundle; `kiln serve` with `catalog`) and waits for /healthz; answers
// the child, its port and the time to the first 200 (wall, and the child's CPU time by then).
async function serve(args, env, catalog = false) {
  const port = await freePort();
  const started = Date.now();
  const common = [...args, '--port', String(port), '--host', '127.0.0.1', '--admin-secret', SECRET];
  // `kiln-runtime` runs as an installed command does, through its `#!` line (which sets its V8 flags).
  const child = catalog
    ? spawn(process.execPath, [...NODE_FLAGS, KILN, 'serve', ...common], { stdio: ['ignore', 'ignore', 'inherit'], env })
    : spawn(RUNTIME, common, { stdio: ['ignore', 'ignore', 'inherit'], env: NODE_FLAGS.length ? { ...env, NODE_OPTIONS: NODE_FLAGS.join(' ') } : env });
  const deadline = started + TIMEOUT_S * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`kiln serve exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('kiln serve did not answer /healthz in time');
    }
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status === 200, () => false);
    if (ok) return { child, port, startMs: Date.now() - started, startCpuMs: cpuMsOf(child.pid) };
    await sleep(10);
  }
}

// Asks the server for a heap snapshot (SIGUSR2) and waits until its file stops growing.
async function heapSnapshot(child) {
  const before = new Set(await readdir('.'));
  child.kill('SIGUSR2');
  let last = -1;
  for (let stable = 0; stable < 3; await sleep(1000)) {
    const file = (await readdir('.')).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    const size = file ? (await stat(file)).size : -1;
    stable = size > 0 && size === last ? stable + 1 : 0;
    last = size;
  }
}

// SIGTERM, then up to 20 s for the server to exit (so that --cpu-prof writes its profile).
async function stop(child) {
  child.kill('SIGTERM');
  for (let i = 0; i < 200 && child.exitCode === null && child.signalCode === null; i++) await sleep(100);
}

async function gql(port, role, query, tenant = '1') {
  const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, {
    method: 'POST', body: JSON.stringify({ query }),
    headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET, 'x-svc-role': role, 'x-svc-tenant-id': tenant },
  });
  const body = await res.json();
  if (body.errors) throw new Error(`${role}: ${JSON.stringify(body.errors[0])}`);
  return body;
}

// Every role queries PER_ROLE tables (a different stride per role, so together they touch many),
// each with its parent and children: the role's schema and a plan per table.
async function queryAcrossRoles(port) {
  let count = 0;
  const started = Date.now();
  for (let k = 0; k < ROLES; k++) {
    for (let j = 0; j < Math.min(PER_ROLE, TABLES); j++) {
      const i = (k * 37 + j * 13) % TABLES;
      const kids = childrenOf(i).map((c, n) => `children_${n === 0 ? 'a' : 'b'}(limit: 2) { id }`).join(' ');
      await gql(port, roleName(k), `{ ${table(i)}(limit: 5, where: {flag: {_eq: false}}) { id name amount ${parentOf(i) === null ? '' : 'parent { id name }'} ${kids} } }`);
      count++;
    }
  }
  return { count, ms: Date.now() - started };
}

async function metadataCall(port, body) {
  const started = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}/v1/metadata`, {
    method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-svc-admin-secret': SECRET },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${body.type}: ${res.status} ${text.slice(0, 300)}`);
  return Date.now() - started;
}

// Times one metadata call while other clients keep querying and asking /healthz: answers the
// call's time, the slowest query answered meanwhile and the slowest /healthz (no database work:
// it stands for the longest stall of the server's event loop; a blocked server shows as one as
// slow as the call).
async function timedWhileQuerying(port, body) {
  let stop = false, slowest = 0, served = 0, slowestHealthz = 0;
  let failed = null;
  // The query asked once before: its role's schema is then built, so the slowest answer shows
  // what the metadata call costs the queries, not a first query's own cost.
  await gql(port, roleName(0), `{ ${table(0)}(limit: 1) { id } }`);
  const load = (async () => {
    while (!stop) {
      const t = Date.now();
      await gql(port, roleName(0), `{ ${table(0)}(limit: 1) { id } }`).catch((e) => { failed ??= e; });
      slowest = Math.max(slowest, Date.now() - t);
      served++;
    }
  })();
  const health = (async () => {
    while (!stop) {
      const t = Date.now();
      await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.text(), (e) => { failed ??= e; });
      slowestHealthz = Math.max(slowestHealthz, Date.now() - t);
      await sleep(5);
    }
  })();
  await sleep(50);
  const ms = await metadataCall(port, body);
  stop = true;
  await load;
  await health;
  if (failed) throw failed;
  return { ms, slowest, served, slowestHealthz };
}

// `kiln compile`, then `kiln-runtime --bundle` queried across every role.
async function compileAndServe(figures, dir, url, env, children) {
  const bundle = join(dir, 'bundle');
  console.log('\n== kiln compile');
  const c = flag('serve-only') ? { code: 0, ms: 0, cpuMs: 0, peakMb: 0 }
    // The heap limit `kiln compile` would give itself in a child (bin/kiln.mjs), given here so that
    // the process measured is the one compiling.
    : await run([`--max-old-space-size=${Math.floor((totalmem() * 0.75) / 2 ** 20)}`, KILN, 'compile', '--metadata', join(dir, 'metadata.json'),
      '--out', bundle, '--database-url', url], env);
  if (c.code !== 0) throw new Error(`kiln compile failed (${c.code}) after ${c.ms} ms, peak RSS ${c.peakMb.toFixed(0)} MB`);
  const size = await dirSize(bundle);
  Object.assign(figures, { compileMs: c.ms, compileCpuMs: c.cpuMs, compilePeakMb: Math.round(c.peakMb), bundleBytes: size.total, bundleFiles: size.files });

  console.log('\n== kiln-runtime --bundle');
  const s = await serve(['--bundle', bundle, '--database-url', url], env);
  children.push(s.child);
  figures.startMs = s.startMs;
  figures.startCpuMs = s.startCpuMs;
  console.log(`compile ${c.ms} ms (peak RSS ${Math.round(c.peakMb)} MB), bundle ${mb(size.total)} in ${size.files} files, /healthz after ${s.startMs} ms`);
  figures.rssStartMb = Math.round(rssMb(s.child.pid));
  const q = await queryAcrossRoles(s.port);
  figures.queries = q.count;
  figures.queriesMs = q.ms;
  figures.rssAfterMb = Math.round(rssMb(s.child.pid));
  // Again: a second pass must not grow the server further when its caches are bounded.
  await queryAcrossRoles(s.port);
  figures.rssAfter2Mb = Math.round(rssMb(s.child.pid));
  if (flag('profile')) await heapSnapshot(s.child);
  await stop(s.child);
}

// `kiln serve --database-url` (catalog mode): replace_metadata and create_select_permission while clients query.
async function metadataApi(figures, md, url, env, children) {
  console.log('\n== metadata API (kiln serve --database-url, catalog mode)');
  const m = await serve(['--database-url', url], env, true);
  children.push(m.child);
  const source = { ...md.sources[0], configuration: { connection_info: { database_url: url } } };
  const doc = { ...md, sources: [source] };
  // The first replace tracks the tables (nothing to query yet); the second is timed under load.
  figures.firstReplaceMs = await metadataCall(m.port, { type: 'replace_metadata', args: doc });
  console.log(`first replace_metadata ${figures.firstReplaceMs} ms`);
  figures.replaceMetadata = await timedWhileQuerying(m.port, { type: 'replace_metadata', args: doc });
  figures.createSelectPermission = await timedWhileQuerying(m.port, { type: 'pg_create_select_permission',
    args: { source: 'default', table: { schema: 'public', name: table(0) }, role: 'role_extra', permission: { columns: ['id', 'name'], filter: { tenant_id: { _eq: 'X-Svc-Tenant-Id' } } } } });
  await stop(m.child);
}

function printFigures(figures) {
  console.log('\n== figures');
  if (figures.compileMs !== undefined) {
    console.log(`compile             ${(figures.compileMs / 1000).toFixed(1)} s wall, ${(figures.compileCpuMs / 1000).toFixed(1)} s CPU (peak RSS ${figures.compilePeakMb} MB)`);
    console.log(`bundle              ${mb(figures.bundleBytes)} in ${figures.bundleFiles} files`);
    console.log(`kiln-runtime        /healthz after ${figures.startMs} ms (${figures.startCpuMs} ms CPU), RSS ${figures.rssStartMb} MB`);
    console.log(`after ${figures.queries} queries  RSS ${figures.rssAfterMb} MB (${figures.queriesMs} ms); after a second pass ${figures.rssAfter2Mb} MB`);
  }
  if (figures.replaceMetadata) {
    for (const [name, f] of [['replace_metadata   ', figures.replaceMetadata], ['create_select_perm ', figures.createSelectPermission]]) {
      console.log(`${name} ${f.ms} ms (meanwhile: slowest query ${f.slowest} ms, ${f.served} served; slowest /healthz ${f.slowestHealthz} ms)`);
    }
  }
  console.log(JSON.stringify(figures));
}

async function main() {
  const dir = opt('out', null) ?? await mkdtemp(join(tmpdir(), 'kiln-large-'));
  await mkdir(dir, { recursive: true });
  let url = opt('database-url', null);
  const fresh = url === null ? `kiln_large_${TABLES}_${Math.random().toString(36).slice(2, 8)}` : null;
  const admin = new pg.Client({ connectionString: `${PG_ROOT}/postgres` });
  if (fresh) {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${fresh}"`);
    url = `${PG_ROOT}/${fresh}`;
  }
  const children = [];
  try {
    console.log(`large schema: ${TABLES} tables × ${ROLES} roles in ${dir}`);
    const ddl = schemaSql(TABLES);
    const md = metadataDoc(TABLES, ROLES);
    await writeFile(join(dir, 'schema.sql'), ddl);
    await writeFile(join(dir, 'metadata.json'), JSON.stringify(md));
    if (!flag('serve-only')) {
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const t = Date.now();
      // In batches: one statement string runs as one transaction, and a thousand tables' locks
      // overflow the server's shared lock table (max_locks_per_transaction).
      const statements = ddl.split(';\n').filter((x) => x.trim());
      for (let i = 0; i < statements.length; i += 100) await db.query(statements.slice(i, i + 100).join(';\n'));
      // A few rows per tenant in the first tables, so queries return data.
      for (let i = 0; i < Math.min(TABLES, 50); i++) await db.query(`INSERT INTO public.${table(i)} (tenant_id, name, amount) SELECT g % 3, 'row ' || g, g FROM generate_series(1, 30) g`);
      await db.end();
      console.log(`tables created in ${Date.now() - t} ms`);
    }
    const env = { ...process.env, LARGE_SCHEMA_DATABASE_URL: url };

    const figures = { tables: TABLES, roles: ROLES };
    if (!flag('metadata-api-only')) await compileAndServe(figures, dir, url, env, children);
    if (flag('metadata-api') || flag('metadata-api-only')) await metadataApi(figures, md, url, env, children);
    printFigures(figures);
  } finally {
    for (const ch of children) if (ch.exitCode === null) ch.kill('SIGKILL');
    if (fresh && !flag('keep')) {
      await sleep(300);
      await admin.query(`DROP DATABASE IF EXISTS "${fresh}" WITH (FORCE)`).catch(() => {});
    }
    if (fresh) await admin.end();
    if (!flag('keep') && opt('out', null) === null) await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
