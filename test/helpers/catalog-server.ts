// `kiln serve --database-url` on a test database (catalog mode, a real socket on 127.0.0.1), with
// the two ways tests call it: `post` answers the status and the parsed body, `ok` insists on 200
// and answers the body.

import { serveCommand } from '../../compiler/cli/serve.js';
import { postJson } from './http.js';

export interface CatalogServer {
  readonly url: string;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  ok(path: string, body: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function serveCatalog(databaseUrl: string,
  opts: { readonly stringifyNumericTypes?: boolean; readonly adminSecret?: string; readonly unauthorizedRole?: string; readonly inferFunctionPermissions?: boolean } = {}): Promise<CatalogServer> {
  const s = await serveCommand({ databaseUrl, dataDir: '.kiln/unused', port: 0, host: '127.0.0.1', pgConnections: 4,
    stringifyNumericTypes: opts.stringifyNumericTypes ?? false, console: false,
    ...(opts.adminSecret ? { adminSecret: opts.adminSecret } : {}), ...(opts.unauthorizedRole ? { unauthorizedRole: opts.unauthorizedRole } : {}),
    ...(opts.inferFunctionPermissions !== undefined ? { inferFunctionPermissions: opts.inferFunctionPermissions } : {}) });
  const url = `http://127.0.0.1:${s.port}`;
  // With an admin secret, the helper's own calls (metadata, run_sql) carry it.
  const post = (path: string, body: unknown) => postJson(url, path, body, opts.adminSecret ? { 'X-Svc-Admin-Secret': opts.adminSecret } : {});
  return {
    url, post,
    async ok(path, body) {
      const res = await post(path, body);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    close: () => s.close(),
  };
}
