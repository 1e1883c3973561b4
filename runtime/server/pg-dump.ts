// POST /v1alpha1/pg_dump (API group `pgdump`, admin only): Hasura's schema and data export, what
// `hasura migrate create --from-server` and backup scripts call. It runs the `pg_dump` found on
// PATH against a PostgreSQL source, `pg_dump <source> --encoding=utf8 <opts>`, and answers its
// output as `application/sql`; `clean_output` leaves out blank lines, comments, the preamble of
// settings and Kiln's own event capture triggers. Hasura: `Server/API/PGDump.hs`.
//
// The client's options are handed to pg_dump as arguments, never through a shell; options that
// would write files on the server or reach another database are refused. A dump is read whole
// up to STREAM_AFTER_BYTES and then streamed, so a large one does not sit in memory; it has a time
// limit, at most MAX_RUNNING run at once, and one whose client went away is stopped.

import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_ROLE, resolveSession, type AuthOptions } from '../auth/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError, jsonKind } from '../errors/index.js';
import { checkDeclaredLength, headersAsSent, headWith, parseJsonBody, readBody, send, sendManagementError, unexpectedError } from './http-io.js';

/** What the route needs from the server. */
export interface PgDumpRouteContext {
  readonly auth: AuthOptions;
  readonly maxBodyBytes: number;
  /** The sources served now (the pg_dump target is the one named, `default` unless told). */
  readonly sources: () => ReadonlyMap<string, Driver>;
  /** The program to run (default `pg_dump`, looked up on PATH). */
  readonly program?: string;
}

/** Hasura's answer type for a dump. */
const SQL_TYPE = 'application/sql; charset=utf-8';
/** Output past this is streamed to the client instead of kept until pg_dump ends. */
const STREAM_AFTER_BYTES = 1024 * 1024;
/** How long one dump may run. */
const TIME_LIMIT_MS = 10 * 60 * 1000;
/** Dumps running at once; one more is refused as `busy`. */
const MAX_RUNNING = 4;
/** The most of pg_dump's error output kept for the answer. */
const STDERR_BYTES = 16 * 1024;

let running = 0;

/** The request: Hasura's `{opts, clean_output}`, and the source to dump (Hasura's later versions). */
interface PgDumpRequest {
  readonly opts: readonly string[];
  readonly cleanOutput: boolean;
  readonly source: string;
}

function readRequest(body: unknown): PgDumpRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('parse-failed', `parsing PGDumpReqBody failed, expected Object, but encountered ${jsonKind(body)}`, 400);
  }
  const o = body as Record<string, unknown>;
  const opts = o['opts'];
  if (opts === undefined) throw new ApiError('parse-failed', "the key 'opts' was not present", 400);
  if (!Array.isArray(opts)) throw new ApiError('parse-failed', `parsing [] failed, expected Array, but encountered ${jsonKind(opts)}`, 400, ['opts']);
  opts.forEach((x: unknown, i) => {
    if (typeof x !== 'string') throw new ApiError('parse-failed', `parsing String failed, expected String, but encountered ${jsonKind(x)}`, 400, ['opts', i]);
  });
  const clean = o['clean_output'];
  if (clean !== undefined && clean !== null && typeof clean !== 'boolean') {
    throw new ApiError('parse-failed', `parsing Bool failed, expected Boolean, but encountered ${jsonKind(clean)}`, 400, ['clean_output']);
  }
  const source = o['source'] ?? 'default';
  if (typeof source !== 'string') throw new ApiError('parse-failed', `parsing Text failed, expected String, but encountered ${jsonKind(source)}`, 400, ['source']);
  refuseUnsafeOptions(opts as string[]);
  return { opts: opts as string[], cleanOutput: clean === true, source };
}

// Long options that write files or choose the database (pg_dump also takes any unambiguous prefix
// of a long option, so a prefix of one of these is refused too), and their one-letter forms.
const REFUSED_LONG = ['file', 'dbname', 'host', 'port', 'username', 'password', 'no-password', 'jobs'];
const REFUSED_SHORT = new Set(['f', 'd', 'h', 'p', 'U', 'W', 'w', 'j']);

/** Refuses options that would write on the server's disk or reach another database than the source's. */
export function refuseUnsafeOptions(opts: readonly string[]): void {
  const refuse = (i: number, why: string): never => {
    throw new ApiError('bad-request', `the option ${JSON.stringify(opts[i])} is not allowed: ${why}`, 400, ['opts', i]);
  };
  const directory = (value: string | undefined): boolean => value !== undefined && /^d/i.test(value);
  for (let i = 0; i < opts.length; i++) {
    const a = opts[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const [name = '', value] = a.slice(2).split(/=(.*)/s, 2);
      if (name !== '' && REFUSED_LONG.some((r) => r.startsWith(name))) refuse(i, 'the dump goes to the answer, from the source\'s own database');
      if (name.length >= 2 && 'format'.startsWith(name) && directory(value ?? opts[i + 1])) refuse(i, 'the directory format writes files on the server');
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const letter = a[1]!;
      if (REFUSED_SHORT.has(letter)) refuse(i, 'the dump goes to the answer, from the source\'s own database');
      if (letter === 'F' && directory(a.length > 2 ? a.slice(2) : opts[i + 1])) refuse(i, 'the directory format writes files on the server');
    }
  }
}

// Hasura's clean_output drops these lines: the settings pg_dump writes first, and the public
// schema's own creation. `SET check_function_bodies = false;` stays, as in Hasura's later versions:
// without it a function whose body names a later object does not restore.
const PREAMBLE = new Set([
  'SET statement_timeout = 0;', 'SET lock_timeout = 0;', 'SET idle_in_transaction_session_timeout = 0;',
  "SET client_encoding = 'UTF8';", 'SET standard_conforming_strings = on;', "SELECT pg_catalog.set_config('search_path', '', false);",
  'SET xmloption = content;', 'SET client_min_messages = warning;', 'SET row_security = off;', "SET default_tablespace = '';",
  'SET default_with_oids = false;', 'SET default_table_access_method = heap;', 'SET transaction_timeout = 0;',
  'CREATE SCHEMA public;', "COMMENT ON SCHEMA public IS 'standard public schema';",
]);
// Kiln's event capture triggers (runtime/workers/capture.ts), as pg_dump prints them.
const CAPTURE_TRIGGER = /^CREATE TRIGGER "?notify_svc_.+"? AFTER [A-Za-z]+ ON .+ FOR EACH ROW EXECUTE (FUNCTION|PROCEDURE) "?svc_catalog"?\."?notify_svc_.+"?\(\);$/;

/** True for a line clean_output leaves out. pg_dump's `\restrict`/`\unrestrict` lines go too: they are psql's, and `run_sql` cannot run them. */
export function droppedLine(line: string): boolean {
  return line.trim() === '' || line.startsWith('--') || PREAMBLE.has(line) || CAPTURE_TRIGGER.test(line)
    || line.startsWith('\\restrict ') || line.startsWith('\\unrestrict ');
}

/** Cleans text that arrives in chunks: whole lines are judged, the last partial one is kept for the next chunk. */
class LineCleaner {
  private rest = '';
  push(chunk: string): string {
    const text = this.rest + chunk;
    const end = text.lastIndexOf('\n');
    if (end < 0) { this.rest = text; return ''; }
    this.rest = text.slice(end + 1);
    return keep(text.slice(0, end).split('\n'));
  }
  end(): string {
    const last = this.rest;
    this.rest = '';
    return last === '' ? '' : keep([last]);
  }
}

const keep = (lines: readonly string[]): string => lines.filter((l) => !droppedLine(l)).map((l) => `${l}\n`).join('');

/** The connection string for pg_dump, with the password moved to PGPASSWORD (not visible in the process list). */
function target(connectionString: string): { readonly dsn: string; readonly env: NodeJS.ProcessEnv } {
  try {
    const url = new URL(connectionString);
    if ((url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.password !== '') {
      const password = decodeURIComponent(url.password);
      url.password = '';
      return { dsn: url.toString(), env: { ...process.env, PGPASSWORD: password } };
    }
  } catch {
    // A keyword/value connection string: handed over as it is.
  }
  return { dsn: connectionString, env: process.env };
}

/** POST /v1alpha1/pg_dump. */
export async function handlePgDump(req: IncomingMessage, res: ServerResponse, ctx: PgDumpRouteContext): Promise<void> {
  try {
    checkDeclaredLength(req, ctx.maxBodyBytes);
    const session = await resolveSession(req.headers, ctx.auth, undefined, headersAsSent(req));
    if (session.role !== ADMIN_ROLE) throw new ApiError('access-denied', 'restricted access : admin only', 400);
    const parsed = parseJsonBody(await readBody(req, ctx.maxBodyBytes));
    if (!parsed.ok) throw parsed.error;
    const request = readRequest(parsed.value);
    const driver = ctx.sources().get(request.source);
    if (!driver) throw new ApiError('not-exists', `source with name ${JSON.stringify(request.source)} does not exist`, 400, ['source']);
    if (driver.connectionString === undefined) {
      throw new ApiError('not-supported', `source ${JSON.stringify(request.source)} is not a PostgreSQL server that pg_dump can reach (the embedded database, or another kind of source)`, 400, ['source']);
    }
    if (running >= MAX_RUNNING) throw new ApiError('busy', `${MAX_RUNNING} dumps are running; try again when one has finished`, 400);
    await runDump(res, ctx.program ?? 'pg_dump', driver.connectionString, request);
  } catch (e) {
    if (res.headersSent) res.destroy();
    else sendManagementError(res, e instanceof ApiError ? e : unexpectedError(e));
  }
}

/** Runs pg_dump and answers its output: whole when it is small, streamed past STREAM_AFTER_BYTES. */
function runDump(res: ServerResponse, program: string, connectionString: string, r: PgDumpRequest): Promise<void> {
  const { dsn, env } = target(connectionString);
  running++;
  return new Promise<void>((resolve, reject) => {
    const child = spawn(program, [dsn, '--encoding=utf8', ...r.opts], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const cleaner = r.cleanOutput ? new LineCleaner() : null;
    const held: Buffer[] = [];
    let heldBytes = 0;
    let streaming = false;
    let stderr = '';
    let settled = false;
    const finish = (error?: ApiError): void => {
      if (settled) return;
      settled = true;
      running--;
      clearTimeout(timer);
      if (error) reject(error); else resolve();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new ApiError('unexpected', `pg_dump did not finish in ${TIME_LIMIT_MS / 60_000} minutes`, 500));
    }, TIME_LIMIT_MS);
    // The client went away: stop the dump.
    res.once('close', () => { if (!res.writableFinished) child.kill('SIGKILL'); });
    const out = (chunk: Buffer): Buffer => (cleaner ? Buffer.from(cleaner.push(chunk.toString('utf8')), 'utf8') : chunk);
    child.stdout.on('data', (chunk: Buffer) => {
      if (streaming) { res.write(out(chunk)); return; }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes <= STREAM_AFTER_BYTES) return;
      // Large: answer 200 now and stream the rest; a failure from here on ends the connection.
      streaming = true;
      res.writeHead(200, headWith(res, { 'content-type': SQL_TYPE }));
      res.write(out(Buffer.concat(held)));
      held.length = 0;
    });
    child.stderr.on('data', (chunk: Buffer) => { if (stderr.length < STDERR_BYTES) stderr += chunk.toString('utf8'); });
    child.on('error', (e) => {
      // pg_dump could not be started (not installed, not on PATH).
      finish(new ApiError('unexpected', 'internal exception while executing pg_dump', 500, [], { message: e.message, program }));
    });
    child.on('close', (code) => {
      if (settled) return;
      if (code !== 0) {
        finish(new ApiError('unexpected', `error while executing pg_dump: ${stderr.trim()}`, 500));
        return;
      }
      if (streaming) {
        res.end(cleaner ? Buffer.from(cleaner.end(), 'utf8') : undefined);
      } else {
        const whole = Buffer.concat(held);
        send(res, 200, SQL_TYPE, cleaner ? cleaner.push(whole.toString('utf8')) + cleaner.end() : whole);
      }
      finish();
    });
  });
}
