import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip, gzipSync } from 'node:zlib';
import { ApiError, graphqlErrorBody, managementErrorBody } from '../errors/index.js';

/** JSON bodies are always UTF-8. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Where the server keeps a response's request id until its head is written (request-log.ts sets it). */
export const REQUEST_ID: unique symbol = Symbol('kiln.requestId');

/** The body size of an answer written by send() (its head is not readable back with getHeader). */
const BODY_BYTES: unique symbol = Symbol('kiln.bodyBytes');

type IdentifiedResponse = ServerResponse & { [REQUEST_ID]?: string; [BODY_BYTES]?: number; [ENCODING]?: string; [ERROR_TEXT]?: string };

/** Where send() keeps the text of an error answer (status 400 and up) for the http-log's error. */
const ERROR_TEXT: unique symbol = Symbol('kiln.errorText');

/** The body text of an error answer written by send() (status 400 and up), or null. */
export function responseErrorText(res: ServerResponse): string | null {
  return (res as IdentifiedResponse)[ERROR_TEXT] ?? null;
}

/** Where send() notes the encoding it compressed a body with (Hasura's http-log `content_encoding`). */
const ENCODING: unique symbol = Symbol('kiln.contentEncoding');

/** The encoding send() compressed this response's body with (`gzip`), or null. */
export function responseEncoding(res: ServerResponse): string | null {
  return (res as IdentifiedResponse)[ENCODING] ?? null;
}

/** The size of the body written for this response (0 when none was, or it was streamed). */
export function responseBytes(res: ServerResponse): number {
  return (res as IdentifiedResponse)[BODY_BYTES] ?? 0;
}

/**
 * The headers of a response's head with its `x-request-id` added. The id goes into writeHead's
 * object rather than through setHeader: one setHeader before writeHead sends every header of the
 * head through setHeader's checks and map (Node's slow path), a measurable part of a cached query.
 */
export function headWith(res: ServerResponse, headers: Record<string, string>): Record<string, string> {
  const id = (res as IdentifiedResponse)[REQUEST_ID];
  if (id !== undefined) headers['x-request-id'] = id;
  return headers;
}

/**
 * Writes a complete response with a content-length (keep-alive friendly). Text is given to Node
 * as text: the head and a text body go to the socket as one string in one write, where a Buffer
 * body is a second chunk (a writev) and a copy of the text first. A client that accepts gzip gets
 * the body gzipped, as Hasura v2 answers every API (Server/Compression.hs), when it is JSON or text
 * and not already encoded.
 */
export function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer,
  headers: Readonly<Record<string, string>> = {}): void {
  const req = res.req as IncomingMessage | undefined;
  if (req !== undefined && !req.complete) lingerUnread(req, res);
  if (status >= 400 && typeof body === 'string') (res as IdentifiedResponse)[ERROR_TEXT] = body;
  // The request's header first: the common request (no Accept-Encoding) stops at one read.
  if (req !== undefined && acceptsGzip(req.headers['accept-encoding']) && headers['content-encoding'] === undefined && textual(contentType)) {
    sendGzipped(res, status, contentType, body, headers);
    return;
  }
  writeWhole(res, status, headers, contentType, body, typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length, null);
}

// The head (with the body's content-length) and the body; `bodyBytes` and `encoding` are what the
// http-log reports. The head is made in one object (three copies of it were about 3 µs of a bench insert).
function writeWhole(res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, contentType: string, body: string | Buffer,
  bodyBytes: number, encoding: string | null): void {
  const head: Record<string, string> = { ...headers, 'content-type': contentType };
  if (encoding) head['content-encoding'] = encoding;
  head['content-length'] = String(typeof body === 'string' ? bodyBytes : body.length);
  res.writeHead(status, headWith(res, head));
  (res as IdentifiedResponse)[BODY_BYTES] = bodyBytes;
  if (encoding) (res as IdentifiedResponse)[ENCODING] = encoding;
  res.end(body);
}

const textual = (contentType: string): boolean => contentType.startsWith('application/json') || contentType.startsWith('text/');

/** True when an Accept-Encoding header lists gzip (or `*`) without `q=0`. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = item.split(';').map((x) => x.trim().toLowerCase());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

// Bodies up to this size are compressed at once; larger ones on the thread pool, so that one big
// answer does not hold the event loop while it is compressed.
const GZIP_INLINE_BYTES = 64 * 1024;

function sendGzipped(res: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: Readonly<Record<string, string>>): void {
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (raw.length <= GZIP_INLINE_BYTES) {
    writeWhole(res, status, headers, contentType, gzipSync(raw), raw.length, 'gzip');
    return;
  }
  gzip(raw, (err, zipped) => {
    if (res.destroyed || res.headersSent) return;
    // Compression cannot fail on a buffer short of memory trouble; the body goes out as it is then.
    writeWhole(res, status, headers, contentType, err ? raw : zipped, raw.length, err ? null : 'gzip');
  });
}

/** How long, and for how many bytes at most once the client has had time to read the answer, the rest of an unread body is discarded. */
const LINGER_MS = 2_000;
const LINGER_MIN_MS = 250;
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * An answer given before the body has all arrived (refused unread, or past the cap): the rest is
 * read and thrown away, nothing kept, for a short while, and then the connection is dropped.
 * Closing at once would make the client's kernel discard the answer it had not read yet (the
 * connection is reset by the data still on its way); reading the whole body would cost what the
 * refusal saves. A body that ends within that while leaves the connection open for the next request.
 */
function lingerUnread(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete) return;
    const started = Date.now();
    let discarded = 0;
    const drop = (): void => { cleanup(); req.socket.destroy(); };
    const timer = setTimeout(drop, LINGER_MS);
    const onData = (chunk: Buffer): void => {
      discarded += chunk.length;
      if (discarded > LINGER_BYTES && Date.now() - started > LINGER_MIN_MS) drop();
    };
    const cleanup = (): void => { clearTimeout(timer); req.off('data', onData); req.off('end', cleanup); };
    req.on('data', onData);
    req.on('end', cleanup);
    req.on('error', () => {});
    req.resume();
  });
}

/** Writes JSON text as it is (the engine's response is never re-parsed). */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  send(res, status, JSON_TYPE, text);
}

/** `{"path","error","code"}` with the error's status, the shape of every non-GraphQL route. */
export function sendManagementError(res: ServerResponse, e: ApiError, headers: Readonly<Record<string, string>> = {}): void {
  send(res, e.status, JSON_TYPE, JSON.stringify(managementErrorBody(e)), headers);
}

/** `{"errors":[{message, extensions:{path, code}}]}`, no `internal` (reference/errors.md §1). */
export function graphqlErrorText(e: ApiError): string {
  return JSON.stringify({ errors: [graphqlErrorBody(e)] });
}

/** The body a bug produces: nothing about it reaches the client; it goes to stderr. */
export function unexpectedError(e: unknown): ApiError {
  const detail = e instanceof Error ? e.stack ?? e.message : String(e);
  process.stderr.write(`kiln: unexpected error: ${detail}\n`);
  return new ApiError('unexpected', 'internal error', 500);
}

/** The setting that sizes the cap, named in the refusal so an operator knows what to raise. */
export const MAX_BODY_SETTING = 'SVC_GRAPHQL_MAX_REQUEST_BODY_BYTES';

function tooLarge(limit: number): ApiError {
  return new ApiError('bad-request', `request body exceeds ${limit} bytes (${MAX_BODY_SETTING})`, 413);
}

/** Refuses a request whose declared Content-Length is over the cap, before anything is read (413). */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
}

/**
 * Reads the whole body, refusing it (413) as soon as more than `limit` bytes have arrived: what
 * came so far is let go and the rest is not read (the answer closes the connection).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    try {
      checkDeclaredLength(req, limit);
    } catch (e) {
      reject(e);
      return;
    }
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = (e: unknown): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', stop);
      req.on('error', () => {}); // the connection is dropped after the answer; its errors are expected
      req.pause();
      chunks = [];
      reject(e);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) stop(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => {
      req.off('error', stop);
      // A body of one chunk (the usual small request) is used as it is: concat would copy it.
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', stop);
  });
}

/**
 * A request's headers with their names as the client wrote them (Node lower-cases `headers`;
 * `rawHeaders` keeps them): the auth webhook is sent these. A repeated name keeps its last value,
 * as Hasura's header map does.
 */
export function headersAsSent(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]!] = raw[i + 1]!;
  return out;
}

/** The outcome of parsing a body as JSON: the value, or the `invalid-json` error. */
export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ApiError };

/** Parses a request body as JSON; failures carry Hasura's (aeson's) wording at path `$`. */
export function parseJsonBody(body: Buffer): ParsedJson {
  return parseJsonText(body.toString('utf8'));
}

/** parseJsonBody on a body already decoded. */
export function parseJsonText(text: string): ParsedJson {
  if (text.trim() === '') return { ok: false, error: new ApiError('invalid-json', 'Error in $: not enough input') };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: new ApiError('invalid-json', 'Error in $: Failed reading: not a valid json value') };
  }
}
