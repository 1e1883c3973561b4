// The per-request record and the log lines written from it, in Hasura's shapes: one `http-log`
// line per request, and `query-log` lines with the SQL a request ran (query-log.ts). Lines are
// JSON, one per line, on stdout (SVC_GRAPHQL_LOG_LEVEL, SVC_GRAPHQL_ENABLED_LOG_TYPES).

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import type { OperationType } from './metrics.js';
import { REQUEST_ID, responseEncoding, responseErrorText } from './http-io.js';

/** Hasura's log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Hasura's default enabled log types (community edition). */
export const DEFAULT_LOG_TYPES: readonly string[] = ['startup', 'http-log', 'webhook-log', 'websocket-log', 'jwk-refresh-log'];

/** Which lines are written, and where. */
export interface LogSettings {
  readonly level: LogLevel;
  readonly types: ReadonlySet<string>;
  /** Writes one line (default: stdout). */
  readonly write: (line: string) => void;
}

/** Reads SVC_GRAPHQL_LOG_LEVEL and SVC_GRAPHQL_ENABLED_LOG_TYPES; a bad level throws with the allowed ones. */
export function logSettingsFromEnv(env: NodeJS.ProcessEnv, write: (line: string) => void = stdoutLine): LogSettings {
  const rawLevel = (env.SVC_GRAPHQL_LOG_LEVEL ?? '').trim().toLowerCase();
  if (rawLevel !== '' && !(LEVELS as readonly string[]).includes(rawLevel)) {
    throw new Error(`SVC_GRAPHQL_LOG_LEVEL must be one of ${LEVELS.join(', ')}, got ${JSON.stringify(env.SVC_GRAPHQL_LOG_LEVEL)}`);
  }
  const rawTypes = env.SVC_GRAPHQL_ENABLED_LOG_TYPES;
  const types = rawTypes === undefined || rawTypes.trim() === ''
    ? DEFAULT_LOG_TYPES
    : rawTypes.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== '');
  return { level: (rawLevel || 'info') as LogLevel, types: new Set(types), write };
}

// Lines are gathered and written together, at most FLUSH_MS after the first of them, or at once
// when the buffer is nearly full: a write per request was a system call per request, and a write
// per turn of the event loop still was one for nearly every request under light load. Each line is
// encoded straight into one reused buffer (no string per line kept, no joined text made), and a
// flush hands process.stdout one copy of what the buffer holds.
const FLUSH_MS = 20;
const BUFFER_BYTES = 128 * 1024;
let buffer: Buffer | null = null;
let used = 0;
let timer: NodeJS.Timeout | null = null;

function flushLines(): void {
  if (timer !== null) { clearTimeout(timer); timer = null; }
  if (used === 0 || buffer === null) return;
  const chunk = Buffer.from(buffer.subarray(0, used));
  used = 0;
  process.stdout.write(chunk);
}

function stdoutLine(line: string): void {
  buffer ??= Buffer.allocUnsafe(BUFFER_BYTES);
  // A UTF-16 unit takes at most 3 bytes in UTF-8, and the newline one more.
  const most = line.length * 3 + 1;
  if (used + most > BUFFER_BYTES) flushLines();
  if (most > BUFFER_BYTES) { process.stdout.write(`${line}\n`); return; }
  used += buffer.write(line, used, 'utf8');
  buffer[used++] = 10;
  if (timer !== null) return;
  // Unreferenced: waiting lines never keep the process alive; what is pending at exit is written
  // then (stdout to a file or a pipe is written synchronously on Linux).
  timer = setTimeout(flushLines, FLUSH_MS);
  timer.unref();
  if (!exitHooked) { exitHooked = true; process.once('exit', flushLines); }
}
let exitHooked = false;

/** True when a line of this type and level is written. */
export function logs(s: LogSettings, type: string, level: LogLevel): boolean {
  return s.types.has(type) && LEVELS.indexOf(level) >= LEVELS.indexOf(s.level);
}

/** What one request did, filled in by the routes as it runs; read by the log line and the metrics. */
export class RequestRecord {
  /** The route's name for metrics: its path (`/api/rest` for every REST endpoint), `other` for unknown paths. */
  endpoint = 'other';
  operationType: OperationType = 'none';
  /** True when the GraphQL answer carried errors. */
  failed = false;
  session: Session | null = null;
  /** The GraphQL request(s), for the log's operation fields and query-log. */
  requests: readonly GraphQLRequest[] | null = null;
  batched = false;
  /** The answer's body text when it was an error (its first error goes into the log). */
  errorText: string | null = null;
  /**
   * The body as received, for a GraphQL request that was not read into requests (refused before
   * its body was parsed, or not a GraphQL request): the log's raw_query when the query is logged.
   */
  rawQuery: string | null = null;

  /** logQuery: the log shows the request (query-log is on; Hasura's isQueryIncludedInLogs). */
  constructor(readonly id: string, readonly started: number, readonly logQuery = false) {}
}

// Kept on the request under a symbol rather than in a WeakMap: an entry per request in a WeakMap
// is an ephemeron that every garbage collection has to visit.
const RECORD: unique symbol = Symbol('kiln.requestRecord');
type RecordedRequest = IncomingMessage & { [RECORD]?: RequestRecord };

/** Starts the record of a request (its id read or made, and set on the response). */
export function beginRecord(req: IncomingMessage, res: ServerResponse, logQuery = false): RequestRecord {
  const r = new RequestRecord(requestIdOf(req, res), performance.now(), logQuery);
  (req as RecordedRequest)[RECORD] = r;
  return r;
}

/** The record of a request being served (undefined outside the server, e.g. a route called directly). */
export function recordOf(req: IncomingMessage): RequestRecord | undefined {
  return (req as RecordedRequest)[RECORD];
}

/** The request's id: its `x-request-id` header, else a new UUID; written in the response's head (http-io.ts headWith). */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  // A header value the client sent is echoed only when it is one Node can write back as it is.
  const id = typeof given === 'string' && given !== '' && SAFE_ID.test(given) ? given : nextRequestId();
  (res as ServerResponse & { [REQUEST_ID]?: string })[REQUEST_ID] = id;
  return id;
}
const SAFE_ID = /^[\x20-\x7e]{1,200}$/;

// Request ids in the shape of a UUID (Hasura's), unique in this process and across processes: a
// random version-4 UUID made at start whose last 12 hex digits count the requests. Making a random
// UUID per request cost more than the rest of the log line. The count's high 8 digits are written
// once per 65,536 requests and its low 4 from a table: a number's toString(16) per request cost
// about 1.5 µs of the server's time on a bench insert.
const ID_BASE = randomUUID().slice(0, 24);
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
let idHigh = Number.parseInt(randomUUID().slice(24, 32), 16);
let idLow = 0xffff;
let idPrefix = '';

/** The next request id (exported for its test). */
export function nextRequestId(): string {
  idLow = (idLow + 1) & 0xffff;
  if (idLow === 0 || idPrefix === '') {
    idHigh = (idHigh + 1) % 0x100000000;
    idPrefix = ID_BASE + idHigh.toString(16).padStart(8, '0');
  }
  return idPrefix + HEX_BYTE[idLow >> 8]! + HEX_BYTE[idLow & 0xff]!;
}

/**
 * The kind of the operation a request runs, read from the start of its text without parsing it
 * (the engine parses once, behind its cache): `{` or `query` is a query. Several operations with
 * an operationName are looked up by name; text that says nothing clear is `unknown`.
 */
export function operationTypeOf(req: GraphQLRequest): OperationType {
  const q = req.query;
  let i = 0;
  while (i < q.length) {
    const c = q.charCodeAt(i);
    if (c === 35) { // '#': a comment to the end of the line
      while (i < q.length && q.charCodeAt(i) !== 10) i++;
    } else if (c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 0xfeff) {
      i++;
    } else break;
  }
  if (q.charCodeAt(i) === 123) return req.operationName ? byName(req) : 'query';
  for (const kind of ['query', 'mutation', 'subscription'] as const) {
    if (q.startsWith(kind, i)) return req.operationName ? byName(req) : kind;
  }
  return q.startsWith('fragment', i) ? byName(req) : 'unknown';
}

function byName(req: GraphQLRequest): OperationType {
  const name = req.operationName;
  if (!name || !/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) return 'unknown';
  // One pattern per operation name, kept (clients send a few names over and over).
  let pattern = namePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|[^_0-9A-Za-z])(query|mutation|subscription)\\s+${name}(?![_0-9A-Za-z])`);
    if (namePatterns.size >= 1000) namePatterns.clear();
    namePatterns.set(name, pattern);
  }
  const m = pattern.exec(req.query);
  return m ? (m[1] as OperationType) : 'unknown';
}
const namePatterns = new Map<string, RegExp>();

/** The first error of an error answer, as Hasura's http-log shows it. */
function errorOf(text: string): unknown {
  try {
    const body = JSON.parse(text) as { errors?: { message?: string; extensions?: { code?: string; path?: string } }[]; error?: string; code?: string; path?: string };
    const first = body.errors?.[0];
    if (first) return { error: first.message ?? null, code: first.extensions?.code ?? null, path: first.extensions?.path ?? null };
    if (body.error !== undefined) return { error: body.error, code: body.code ?? null, path: body.path ?? null };
  } catch {
    // not JSON: nothing to show
  }
  return null;
}

// The date and time to the second, made once a second: a line per request made a Date and its
// ISO text each time.
let stampSecond = -1;
let stampPrefix = '';

/** A log line's timestamp, Hasura's `2026-12-01T03:45:30.292+0000`. */
export function logTimestamp(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stampPrefix = new Date(second * 1000).toISOString().slice(0, 19);
  }
  const ms = now - second * 1000;
  return `${stampPrefix}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}+0000`;
}

// `{"x-svc-role": ..., <session variables>}` as JSON text, written out rather than spread into an
// object and stringified (a line is made per request).
function userVarsText(session: Session): string {
  const vars = session.variables;
  let text = `{"x-svc-role":${jsonText(vars['x-svc-role'] ?? session.role)}`;
  for (const name in vars) {
    if (name === 'x-svc-role') continue;
    const value = vars[name];
    text += `,${jsonText(name)}:${typeof value === 'string' ? jsonText(value) : JSON.stringify(value)}`;
  }
  return `${text}}`;
}

/**
 * A string as JSON text. The strings of a line (ids, roles, paths, addresses) are nearly always
 * printable ASCII, which needs no escape: quoted as they are, without JSON.stringify's call (it
 * cost more than the rest of the line's making).
 */
export function jsonText(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/**
 * Seconds as a JSON number to the nanosecond, from milliseconds: a double's shortest text (what
 * `${seconds}` gives) is slow to find and shows float noise (0.00002409500000000264).
 */
export function secondsText(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (!(ns >= 0) || ns > Number.MAX_SAFE_INTEGER) return String(ms / 1000);
  const digits = String(ns);
  if (digits.length > 9) return `${digits.slice(0, -9)}.${digits.slice(-9)}`;
  return `0.${'000000000'.slice(digits.length)}${digits}`;
}

/** Writes the request's `http-log` line (level error for a failed request) when the settings ask for it. */
export function writeHttpLog(s: LogSettings, r: RequestRecord, req: IncomingMessage, res: ServerResponse, responseSize: number, ms: number): void {
  const failed = res.statusCode >= 400 || r.failed;
  const level: LogLevel = failed ? 'error' : 'info';
  if (!logs(s, 'http-log', level)) return;
  const id = jsonText(r.id);
  const userVars = r.session ? userVarsText(r.session) : 'null';
  const errorText = r.errorText ?? (res.statusCode >= 400 ? responseErrorText(res) : null);
  const error = failed && errorText !== null ? JSON.stringify(errorOf(errorText)) : 'null';
  // A request that failed as a whole is Hasura's RequestModeError (mkHttpErrorLogContext); a
  // batch answers each element on its own, so it stays batched.
  const mode = r.batched ? 'batched' : error !== 'null' ? 'error' : r.requests === null ? 'non-graphql' : 'single';
  const ip = req.socket.remoteAddress;
  const encoding = responseEncoding(res);
  // Written as text, not as an object given to JSON.stringify: the line is made for every request.
  s.write(`{"type":"http-log","timestamp":"${logTimestamp()}","level":"${level}","detail":{"request_id":${id},"operation":{`
    + `"request_id":${id},"user_vars":${userVars},"query_execution_time":${secondsText(ms)},"request_mode":"${mode}",`
    + `"response_size":${responseSize},"error":${error}${loggedQuery(r)}},"http_info":{"status":${res.statusCode},`
    + `"http_version":"HTTP/${req.httpVersion}","url":${jsonText(req.url ?? '/')},"ip":${ip === undefined ? 'null' : jsonText(ip)},`
    + `"method":${jsonText(req.method ?? 'GET')},"content_encoding":${encoding === null ? 'null' : jsonText(encoding)}}}}`);
}

/**
 * The request as the http-log shows it, as Hasura's OperationLog does (Server/Logging.hs): only
 * when query-log is on (Note [Disable query printing when query-log is disabled]), `query` the
 * GraphQL request read (an array for a batch), else `raw_query` the body as received when it was
 * refused before being read into one (an auth failure, a body that is no GraphQL request). Left
 * out otherwise, and always for the metadata API, whose bodies may carry database URLs and secrets.
 */
function loggedQuery(r: RequestRecord): string {
  if (!r.logQuery) return '';
  if (r.requests !== null) {
    const text = r.batched ? `[${r.requests.map(requestText).join(',')}]` : requestText(r.requests[0]!);
    return `,"query":${text}`;
  }
  return r.rawQuery === null ? '' : `,"raw_query":${JSON.stringify(r.rawQuery)}`;
}

/** A GraphQL request as Hasura encodes GQLReq: operationName, query, variables, absent ones left out. */
export function requestText(q: GraphQLRequest): string {
  return JSON.stringify({
    ...(typeof q.operationName === 'string' ? { operationName: q.operationName } : {}),
    query: q.query,
    ...(q.variables !== undefined && q.variables !== null ? { variables: q.variables } : {}),
  });
}

/** Writes a `query-log` line: the SQL one statement of a request ran, with its arguments. */
export function writeQueryLog(s: LogSettings, r: RequestRecord, sql: string, params: readonly unknown[]): void {
  const one = r.requests?.length === 1 ? r.requests[0] : undefined;
  s.write(JSON.stringify({
    type: 'query-log', timestamp: logTimestamp(), level: 'info',
    detail: {
      kind: 'database',
      request_id: r.id,
      query: one ? { operationName: one.operationName ?? null, query: one.query, variables: one.variables ?? null } : null,
      generated_sql: { query: sql, prepared_arguments: params },
      connection_template: null,
    },
  }));
}

/** A URL as a log line or message shows it: a password in it masked. */
export function maskUrlPassword(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
