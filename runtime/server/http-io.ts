import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, graphqlErrorBody, managementErrorBody } from '../errors/index.js';

/** JSON bodies are always UTF-8. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Writes a complete response with a content-length (keep-alive friendly). */
export function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer,
  headers: Readonly<Record<string, string>> = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': String(bytes.length) });
  res.end(bytes);
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

/** Reads the whole body, refusing more than `limit` bytes (413, management shape). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new ApiError('bad-request', `request body exceeds ${limit} bytes`, 413));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => { if (!failed) resolve(Buffer.concat(chunks)); });
    req.on('error', (e) => { if (!failed) { failed = true; reject(e); } });
  });
}

/** The outcome of parsing a body as JSON: the value, or the `invalid-json` error. */
export type ParsedJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ApiError };

/** Parses a request body as JSON; failures carry Hasura's (aeson's) wording at path `$`. */
export function parseJsonBody(body: Buffer): ParsedJson {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, error: new ApiError('invalid-json', 'Error in $: not enough input') };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: new ApiError('invalid-json', 'Error in $: Failed reading: not a valid json value') };
  }
}


/**
 * CORS as Hasura does by default: any origin may call, credentials included. Applied to every
 * response; a preflight (OPTIONS) is answered 204 here.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-allow-credentials', 'true');
    res.setHeader('vary', 'Origin');
  }
  if (req.method !== 'OPTIONS') return false;
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': typeof requested === 'string' ? requested : 'content-type',
    'access-control-max-age': '1728000',
    'content-length': '0',
  });
  res.end();
  return true;
}
