// `kiln-runtime --bundle DIR` serves a bundle exactly as `kiln serve --bundle DIR` does (same
// status and body text, byte for byte, over real sockets) on the demo and on the bench metadata,
// and serving with it loads no compiler module: a loader hook records every module the
// kiln-runtime process loads while it starts and answers queries.

import { builtinModules } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ensureBuilt, freePort, kiln, kilnRuntime, ROOT, serve, serveRuntime, type Served } from './cli-helpers.js';
import { sharedPath } from '../helpers/shared.js';

const BENCH = sharedPath('bench');
const RECORDER = pathToFileURL(join(ROOT, 'test', 'cli', 'record-modules.mjs')).href;
// What the compiler brings: its sources (bundled into build/kiln.mjs) and its packages.
const COMPILER_MODULE = new RegExp(`(/node_modules/(ts-morph|typescript|esbuild|@graphql-codegen)/)|(${ROOT}/(compiler/|build/kiln\\.mjs))`);

/** One request to send to both servers. */
interface Probe {
  readonly name: string;
  readonly method?: 'GET' | 'POST';
  readonly path?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** What the answer must be, so that two equal failures cannot pass: data, errors, or an HTTP status. */
  readonly expect: 'data' | 'errors' | number;
  /** Fields whose values differ between two runs by design (ids of inserted rows). */
  readonly unstable?: readonly string[];
}

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly text: string;
}

async function ask(base: string, p: Probe): Promise<Answer> {
  const method = p.method ?? 'POST';
  const res = await fetch(`${base}${p.path ?? '/v1/graphql'}`, {
    method, headers: { 'content-type': 'application/json', ...p.headers }, ...(method === 'POST' ? { body: JSON.stringify(p.body) } : {}),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

function masked(text: string, fields: readonly string[]): string {
  return fields.reduce((t, f) => t.replace(new RegExp(`"${f}"\\s*:\\s*\\d+`, 'g'), `"${f}":0`), text);
}

/** Sends each probe to both servers and expects the same answer from each. */
async function compare(kilnBase: string, runtimeBase: string, probes: readonly Probe[]): Promise<void> {
  for (const p of probes) {
    const a = await ask(kilnBase, p);
    const b = await ask(runtimeBase, p);
    expect({ probe: p.name, status: b.status, type: b.type, text: masked(b.text, p.unstable ?? []) })
      .toEqual({ probe: p.name, status: a.status, type: a.type, text: masked(a.text, p.unstable ?? []) });
    if (typeof p.expect === 'number') expect(a.status, p.name).toBe(p.expect);
    else {
      const body = JSON.parse(a.text) as { data?: unknown; errors?: unknown } | { data?: unknown; errors?: unknown }[];
      for (const one of Array.isArray(body) ? body : [body]) {
        if (p.expect === 'data') expect(one, p.name).not.toHaveProperty('errors');
        expect(one, p.name).toHaveProperty(p.expect);
      }
    }
  }
}

const COMMON_PROBES: readonly Probe[] = [
  { name: 'version', method: 'GET', path: '/v1/version', expect: 200 },
  { name: 'healthz', method: 'GET', path: '/healthz', expect: 200 },
  { name: 'metadata writes are not supported', path: '/v1/metadata', body: { type: 'export_metadata', args: {} }, expect: 400 },
  { name: 'unknown field', body: { query: '{ artist { no_such_field } }' }, expect: 'errors' },
  { name: 'introspection', body: { query: '{ __schema { queryType { name } mutationType { name } } __type(name: "artist") { fields { name } } }' }, expect: 'data' },
];

const DEMO_PROBES: readonly Probe[] = [
  ...COMMON_PROBES,
  { name: 'nested list', body: { query: '{ artist(limit: 3, order_by: {artist_id: asc}) { name albums(order_by: {album_id: asc}) { title } } }' }, expect: 'data' },
  { name: 'by pk with aggregate', body: { query: 'query A($id: Int!) { album_by_pk(album_id: $id) { title tracks_aggregate { aggregate { count max { milliseconds } } } } }', variables: { id: 3 } }, expect: 'data' },
  { name: 'customer role', headers: { 'X-Svc-Role': 'customer', 'X-Svc-Customer-Id': '5' },
    body: { query: '{ invoice(order_by: {invoice_id: asc}) { invoice_id total invoice_lines(order_by: {invoice_line_id: asc}) { quantity } } }' }, expect: 'data' },
  { name: 'batch', body: [{ query: '{ genre(limit: 2, order_by: {genre_id: asc}) { name } }' }, { query: '{ media_type_aggregate { aggregate { count } } }' }], expect: 'data' },
  { name: 'failing insert', body: { query: 'mutation { insert_genre_one(object: {genre_id: 1, name: "taken"}) { genre_id } }' }, expect: 'errors' },
];

function benchProbes(): Promise<Probe[]> {
  const q = (f: string): Promise<string> => readFile(join(BENCH, 'queries', `${f}.graphql`), 'utf8');
  return Promise.all([
    q('q1_tracks_list'), q('q2_album_by_pk'), q('q3_nested'), q('q4_filtered'), q('q5_aggregate'), q('q6_role_invoices'), q('q7_insert_invoice_line'),
  ]).then(([q1, q2, q3, q4, q5, q6, q7]) => [
    ...COMMON_PROBES,
    { name: 'Q1', body: { query: q1 }, expect: 'data' },
    { name: 'Q2', body: { query: q2, variables: { id: 42 } }, expect: 'data' },
    { name: 'Q3', body: { query: q3 }, expect: 'data' },
    { name: 'Q4', body: { query: q4 }, expect: 'data' },
    { name: 'Q5', body: { query: q5 }, expect: 'data' },
    { name: 'Q6', body: { query: q6 }, headers: { 'X-Svc-Role': 'customer', 'x-svc-customer-id': '17' }, expect: 'data' },
    { name: 'Q7', body: { query: q7, variables: { invoice_id: 12, track_id: 345 } }, expect: 'data', unstable: ['invoice_line_id'] },
  ] satisfies Probe[]);
}

let tmp: string;

beforeAll(async () => {
  await ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'kiln-runtime-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Compiles `metadata` against `db`, starts both servers on it, and hands them to `body`. */
async function withBoth(name: string, db: TestDatabase, metadata: string,
  body: (kilnBase: string, runtimeBase: string, modules: () => Promise<{ runtime: string[]; kiln: string[] }>) => Promise<void>): Promise<void> {
  const bundle = join(tmp, name);
  const logs = { runtime: join(tmp, `${name}-runtime.modules`), kiln: join(tmp, `${name}-kiln.modules`) };
  for (const f of Object.values(logs)) await writeFile(f, '');
  // Compiling is recorded with the same hook as a control: it must see the compiler's packages.
  const c = await kiln(['compile', '--quiet', '--metadata', metadata, '--database-url', db.url, '--out', bundle],
    { nodeArgs: ['--import', RECORDER], env: { KILN_MODULE_LOG: logs.kiln } });
  expect(c.code, c.stderr).toBe(0);
  const flags = (port: number): string[] => ['--bundle', bundle, '--database-url', db.url, '--port', String(port), '--host', '127.0.0.1', '--pg-connections', '4'];
  const servers: Served[] = [];
  try {
    servers.push(await serve(flags(await freePort())));
    servers.push(await serveRuntime(flags(await freePort()), { nodeArgs: ['--import', RECORDER], env: { KILN_MODULE_LOG: logs.runtime } }));
    const read = async (f: string): Promise<string[]> => (await readFile(f, 'utf8')).split('\n').filter(Boolean);
    await body(servers[0]!.base, servers[1]!.base, async () => ({ runtime: await read(logs.runtime), kiln: await read(logs.kiln) }));
  } finally {
    for (const s of servers) await s.stop();
  }
}

async function expectNoCompiler(modules: () => Promise<{ runtime: string[]; kiln: string[] }>): Promise<void> {
  const m = await modules();
  // The recorder saw the runtime serve from its build, which holds its packages (the GraphQL
  // library, the PostgreSQL client...): no module of node_modules is loaded for a PostgreSQL bundle.
  expect(m.runtime.some((l) => l.includes('/build/kiln-runtime.mjs'))).toBe(true);
  expect(m.runtime.some((l) => l.includes('/bundle') || l.includes('engine.mjs'))).toBe(true);
  expect(m.runtime.filter((l) => l.includes('/node_modules/'))).toEqual([]);
  expect(m.runtime.filter((l) => COMPILER_MODULE.test(l))).toEqual([]);
  // The same recorder does see the compiler where it is loaded: `kiln compile` loads the compiler's
  // build (the module writers are plain text now: no ts-morph or esbuild to see).
  expect(m.kiln.filter((l) => COMPILER_MODULE.test(l)).length).toBeGreaterThan(0);
}

describe('kiln-runtime on the demo (fixtures/chinook)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('runtime_demo');
    await db.exec(await readFile(join(ROOT, 'fixtures/chinook/schema.sql'), 'utf8'));
    await db.exec(await readFile(join(ROOT, 'fixtures/chinook/post.sql'), 'utf8'));
  });
  afterAll(async () => { await db?.drop(); });

  it('answers as kiln serve --bundle, and loads no compiler module while serving', async () => {
    await withBoth('demo', db, join(ROOT, 'fixtures/chinook/metadata.json'), async (a, b, modules) => {
      await compare(a, b, DEMO_PROBES);
      await expectNoCompiler(modules);
    });
  }, 120_000);
});

describe('kiln-runtime on the bench metadata', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('runtime_bench');
    await db.exec(await readFile(join(BENCH, 'data/chinook_pg.sql'), 'utf8'));
    await db.exec(await readFile(join(BENCH, 'data/post.sql'), 'utf8'));
  });
  afterAll(async () => { await db?.drop(); });

  it('answers Q1-Q7 as kiln serve --bundle, and loads no compiler module while serving', async () => {
    const probes = await benchProbes();
    await withBoth('bench', db, join(BENCH, 'metadata.json'), async (a, b, modules) => {
      await compare(a, b, probes);
      await expectNoCompiler(modules);
    });
  }, 120_000);
});

describe('the kiln-runtime command line', () => {
  it('lists the flags of kiln serve --bundle and requires --bundle', async () => {
    const help = await kilnRuntime(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--bundle', '--database-url', '--port', '--host', '--admin-secret', '--jwt-secret', '--auth-hook', '--unauthorized-role',
      '--enabled-apis', '--pg-connections', '--stringify-numeric-types', '--enable-allowlist', '--events-http-pool-size', '--no-console']) {
      expect(help.stdout).toContain(flag);
    }
    const none = await kilnRuntime([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("required option '--bundle <dir>' not specified");
  });

  it('refuses a folder that is not a bundle, as kiln serve does', async () => {
    const missing = await kilnRuntime(['--bundle', join(tmp, 'nothing-here'), '--database-url', 'postgres://127.0.0.1:1/x']);
    // Checked with the other flags before anything opens: bad input, exit 2.
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^kiln-runtime: --bundle: .*nothing-here is not a kiln bundle \(no manifest\.json/);
    const viaKiln = await kiln(['serve', '--bundle', join(tmp, 'nothing-here'), '--database-url', 'postgres://127.0.0.1:1/x']);
    expect(viaKiln.code).toBe(2);
    expect(viaKiln.stderr.replace(/^kiln:/, '')).toBe(missing.stderr.replace(/^kiln-runtime:/, ''));
  });

  it('is built without any compiler module (esbuild metafile)', async () => {
    const meta = JSON.parse(await readFile(join(ROOT, 'build/kiln-runtime.meta.json'), 'utf8')) as {
      inputs: Record<string, unknown>; outputs: Record<string, { imports: { path: string }[] }>;
    };
    const inputs = Object.keys(meta.inputs);
    expect(inputs).toContain('runtime/start/entry.ts');
    expect(inputs.some((f) => f.startsWith('runtime/server/'))).toBe(true);
    expect(inputs.filter((f) => f.startsWith('compiler/'))).toEqual([]);
    // Its packages are in the build (one file to load at start), the compiler's are not.
    expect(inputs.some((f) => f.startsWith('node_modules/graphql/'))).toBe(true);
    expect(inputs.some((f) => f.startsWith('node_modules/pg/'))).toBe(true);
    expect(inputs.filter((f) => /^node_modules\/(ts-morph|typescript|esbuild|@graphql-codegen\/)/.test(f))).toEqual([]);
    const imports = Object.values(meta.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports.filter((p) => /^(ts-morph|typescript|esbuild|@graphql-codegen\/)/.test(p))).toEqual([]);
    // What it still imports: Node's own modules, and drivers and add-ons loaded only when needed.
    expect([...new Set(imports.filter((p) => !p.startsWith('node:') && !builtinModules.includes(p)))].sort())
      .toEqual(['@electric-sql/pglite', '@google-cloud/bigquery', 'bufferutil', 'pg-native', 'utf-8-validate']);
    // Embedded PostgreSQL is loaded when a server starts one, not with the module.
    const kinds = Object.values(meta.outputs).flatMap((o) => (o.imports as { path: string; kind?: string }[]).filter((i) => i.path === '@electric-sql/pglite').map((i) => i.kind));
    expect(kinds).toEqual(['dynamic-import']);
  });
});

// Installed, `kiln-runtime` starts through its `#!` line, which bounds V8's young generation at
// 8 MB semi-spaces (about 50 MB less RSS at 1,000 tables x 20 roles than V8's 16 MB, a quarter of
// the scavenges 2 MB made) and its old generation's growth between full collections at half its
// live size (V8's up-to-4x factor left 30-70 MB more RSS in some runs; README "Large schemas").
describe('kiln-runtime started as a command', () => {
  it('runs node with 8 MB semi-spaces and a 1.5 heap growing factor from its #! line', async () => {
    const first = (await readFile(join(ROOT, 'bin', 'kiln-runtime.mjs'), 'utf8')).split('\n')[0];
    expect(first).toBe('#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=50');
    await ensureBuilt();
    const { execFile } = await import('node:child_process');
    const out = await new Promise<string>((done, fail) => execFile(join(ROOT, 'bin', 'kiln-runtime.mjs'), ['--version'], (e, stdout) => (e ? fail(e) : done(stdout))));
    expect(out).toMatch(/\d+\.\d+\.\d+/);
  });
});
