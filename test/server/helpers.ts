import { ApiError } from '../../runtime/errors/index.js';
import type { GraphQLRequest, Session } from '../../runtime/graphql/index.js';
import { createServer, type GraphQLEngine, type ServerOptions } from '../../runtime/server/index.js';

/**
 * A stand-in for the engine (another unit): echoes what the server handed it, with odd spacing
 * so a test can tell the text went out untouched. Special queries make it fail.
 */
export const echoEngine: GraphQLEngine = {
  async execute(req: GraphQLRequest, session: Session): Promise<string> {
    if (req.query === 'api-error') throw new ApiError('validation-failed', 'boom', 400, ['selectionSet', 'x']);
    if (req.query === 'bug') throw new TypeError('engine bug');
    return `{"data" :  ${JSON.stringify({ request: req, session })}}`;
  },
};

/** A server on an ephemeral port; `url(path)` builds request URLs. */
export interface Running {
  readonly base: string;
  url(path: string): string;
  close(): Promise<void>;
}

export async function start(opts: Partial<ServerOptions> = {}): Promise<Running> {
  const server = createServer({ engine: echoEngine, version: 'v-test', consoleEnabled: false, ...opts });
  const { port } = await server.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  return { base, url: (path) => base + path, close: () => server.close() };
}

/** POSTs a body (an object is JSON-encoded, a string is sent as is). */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The echo body's `data` for a successful single request. */
export async function echoed(res: Response): Promise<{ request: GraphQLRequest; session: Session }> {
  const body = (await res.json()) as { data: { request: GraphQLRequest; session: Session } };
  return body.data;
}
