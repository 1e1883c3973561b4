// `kiln serve --database-url` on a test database (catalog mode, a real socket on 127.0.0.1), with
// the two ways tests call it: `post` answers the status and the parsed body, `ok` insists on 200
// and answers the body.

import { serveCommand, type ServeOptions } from '../../compiler/cli/serve.js';
import { postJson } from './http.js';

export interface CatalogServer {
  readonly url: string;
  readonly port: number;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  ok(path: string, body: unknown): Promise<any>;
  close(): Promise<void>;
}

/** Serve settings a test may set; the rest are the tests' defaults (4 connections, numbers as numbers, no console). */
export type CatalogOptions = Partial<Omit<ServeOptions, 'databaseUrl' | 'bundle' | 'metadata'>>;

/** Serves `databaseUrl` in catalog mode on a free port of 127.0.0.1. */
export async function serveCatalog(databaseUrl: string, opts: CatalogOptions = {}): Promise<CatalogServer> {
  const s = await serveCommand({ dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4, stringifyNumericTypes: false, console: false,
    ...opts, databaseUrl });
  const url = `http://127.0.0.1:${s.port}`;
  // With an admin secret, the helper's own calls (metadata, run_sql) carry it.
  const secret: Record<string, string> = opts.adminSecret ? { 'X-Svc-Admin-Secret': opts.adminSecret } : {};
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postJson(url, path, body, { ...secret, ...headers });
  return {
    url, port: s.port, post,
    async ok(path, body) {
      const res = await post(path, body);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    close: () => s.close(),
  };
}
