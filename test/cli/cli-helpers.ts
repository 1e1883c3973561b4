// Runs the built `kiln` command line as a child process, the way users run it.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'kiln.mjs');
const RUNTIME_BIN = join(ROOT, 'bin', 'kiln-runtime.mjs');
const BUILT = [join(ROOT, 'build', 'kiln.mjs'), join(ROOT, 'build', 'kiln-runtime.mjs')];
const LOCK = join(ROOT, 'build', '.cli-test-build.lock');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, e)));
  return newest;
}

function isFresh(): boolean {
  let built: number;
  try {
    built = Math.min(...BUILT.map((f) => statSync(f).mtimeMs));
  } catch {
    return false;
  }
  const sources = Math.max(newestMtime(join(ROOT, 'compiler')), newestMtime(join(ROOT, 'runtime')), newestMtime(join(ROOT, 'scripts')));
  return built >= sources;
}

/**
 * Builds build/kiln.mjs when it is missing or older than the sources. The test files run in
 * parallel processes, so a lock directory makes one of them build while the others wait.
 */
export async function ensureBuilt(): Promise<void> {
  mkdirSync(dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > 120_000) rmSync(LOCK, { recursive: true, force: true });
      } catch { /* released meanwhile */ }
      await sleep(200);
    }
  }
  try {
    if (isFresh()) return;
    const r = await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, env: process.env });
    if (r.code !== 0) throw new Error(`node scripts/build.mjs failed (${r.code}):\n${r.stderr}`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment without settings that would change what the CLI does (SVC_GRAPHQL_*, DATABASE_URL). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SVC_GRAPHQL_') && k !== 'DATABASE_URL') env[k] = v;
  return { ...env, ...extra };
}

function run(cmd: string, args: readonly string[], o: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', rej);
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

/** Runs `kiln-runtime ...args` to completion. */
export function kilnRuntime(args: readonly string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
  return run(process.execPath, [RUNTIME_BIN, ...args], { cwd: o.cwd ?? ROOT, env: cleanEnv(o.env) });
}

/** Runs `kiln ...args` to completion. */
export function kiln(args: readonly string[], o: { cwd?: string; env?: Record<string, string>; nodeArgs?: readonly string[] } = {}): Promise<RunResult> {
  return run(process.execPath, [...(o.nodeArgs ?? []), BIN, ...args], { cwd: o.cwd ?? ROOT, env: cleanEnv(o.env) });
}

/** A running `kiln serve`. */
export interface Served {
  /** http://host:port */
  readonly base: string;
  /** Everything it wrote to stderr so far. */
  log(): string;
  /** Resolves when stderr matches `re`. */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** The server process's id. */
  readonly pid: number;
}

/** How a server process is started: its working folder, how long it may take, Node flags and variables. */
export interface ServeProcessOptions {
  readonly cwd?: string;
  readonly readyMs?: number;
  /** Node flags before the script (e.g. `--import` a module loader hook). */
  readonly nodeArgs?: readonly string[];
  readonly env?: Record<string, string>;
}

/** Starts `kiln serve ...args` and resolves once it prints its `serving GraphQL at` line. */
export function serve(args: readonly string[], o: ServeProcessOptions = {}): Promise<Served> {
  return startServer([BIN, 'serve', ...args], o);
}

/** Starts `kiln-runtime ...args` (the serving-only build) and resolves once it serves. */
export function serveRuntime(args: readonly string[], o: ServeProcessOptions = {}): Promise<Served> {
  return startServer([RUNTIME_BIN, ...args], o);
}

async function startServer(script: readonly string[], o: ServeProcessOptions): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [...(o.nodeArgs ?? []), ...script], { cwd: o.cwd ?? ROOT, env: cleanEnv(o.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let exited: number | null | undefined;
  const waiters = new Set<() => void>();
  const wake = (): void => { for (const w of waiters) w(); };
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); wake(); });
  child.stdout!.resume();
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => { exited = code; wake(); r(code); }));
  const waitFor = (re: RegExp, ms = 20_000): Promise<RegExpMatchArray> => new Promise((res, rej) => {
    const check = (): void => {
      const m = stderr.match(re);
      if (m) done(() => res(m));
      else if (exited !== undefined) done(() => rej(new Error(`kiln serve exited (${exited}) before printing ${re}:\n${stderr}`)));
    };
    const timer = setTimeout(() => done(() => rej(new Error(`kiln serve did not print ${re} within ${ms} ms:\n${stderr}`))), ms);
    const done = (f: () => void): void => { clearTimeout(timer); waiters.delete(check); f(); };
    waiters.add(check);
    check();
  });
  const stop = async (): Promise<number | null> => {
    if (exited !== undefined) return exited;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const code = await exit;
    clearTimeout(killer);
    return code;
  };
  try {
    const ready = await waitFor(/serving GraphQL at (http:\/\/\S+)\/v1\/graphql/, o.readyMs);
    return { base: ready[1]!, log: () => stderr, waitFor, stop, pid: child.pid! };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

/** sha256 of every file under `dir`, keyed by relative path. */
export function hashDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out[relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

export interface GqlResponse {
  readonly status: number;
  readonly body: any; // a GraphQL response (or a batch of them), checked by the tests
}

/** POSTs a GraphQL request (or a batch) to `base`/v1/graphql. */
export async function post(base: string, body: unknown, headers: Record<string, string> = {}): Promise<GqlResponse> {
  const res = await fetch(`${base}/v1/graphql`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown };
}
