import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ApiError } from '../errors/index.js';
import { acceptsGzip, headWith, send, sendManagementError } from './http-io.js';

/** Where the console's files are served from. */
export const CONSOLE_ASSETS_PATH = '/console/assets/';

// The query the console opens with: shows off the demo fixture (artists and their albums).
const DEFAULT_QUERY = `# Welcome to Kiln. Press the run button (or Ctrl-Enter) to try the demo:
query Artists {
  artist(limit: 5) {
    name
    albums {
      title
    }
  }
}
`;

// The console's icon: a kiln's dome with a flame in its mouth. Kept here, so a console without
// its built files still has it.
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">`
  + `<path d="M3 29V15a13 13 0 0 1 26 0v14z" fill="#8a3d1c"/>`
  + `<path d="M9 29v-9a7 7 0 0 1 14 0v9z" fill="#2b1408"/>`
  + `<path d="M16 28c-3.5 0-5.5-2.6-4.6-5.4.7-2 2.6-2.8 2.6-5.6 2.6 1.6 3.6 3.6 3.4 5.4 1-.7 1.3-1.7 1.2-2.8 1.9 1.8 2.6 3.9 1.8 5.7-.8 1.7-2.4 2.7-4.4 2.7z" fill="#ffb020"/>`
  + `</svg>\n`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
  gzip?: Buffer;
}

/** The console page and the files `scripts/build-console.mjs` wrote. */
export interface ConsoleSite {
  page(res: ServerResponse): void;
  asset(req: IncomingMessage, res: ServerResponse, name: string): void;
}

/** `build/console` of the nearest folder above this module that has one (source or bundled). */
function findAssetsDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'build', 'console');
    if (existsSync(join(candidate, 'console.js'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

function escapeForScript(json: string): string {
  // Inside <script>, "</script>" or "<!--" in a string would end the element early.
  return json.replace(/</g, '\\u003c');
}

function renderPage(config: object, built: boolean): string {
  const notice = built
    ? 'Loading the console…'
    : 'The console files are not built: run <code>npm run build</code> (scripts/build-console.mjs).';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kiln console</title>
<link rel="icon" type="image/svg+xml" href="${CONSOLE_ASSETS_PATH}favicon.svg">
<link rel="stylesheet" href="${CONSOLE_ASSETS_PATH}console.css">
<style>html, body, #graphiql { height: 100%; margin: 0; } #graphiql > p { font-family: sans-serif; padding: 1em; }</style>
</head>
<body>
<div id="graphiql"><p>${notice}</p></div>
<script id="kiln-console-config" type="application/json">${escapeForScript(JSON.stringify(config))}</script>
<script type="module" src="${CONSOLE_ASSETS_PATH}console.js"></script>
</body>
</html>
`;
}

/**
 * The GraphiQL console: one HTML page that loads our own bundle from /console/assets/ (never
 * a CDN). Files are listed at start and read on first use; text files are gzipped once.
 */
export function createConsoleSite(opts: { assetsDir?: string; adminSecretSet: boolean }): ConsoleSite {
  const dir = opts.assetsDir ?? findAssetsDir();
  const names = new Set(dir && existsSync(dir) ? readdirSync(dir) : []);
  const cache = new Map<string, Asset>();
  const config = {
    endpoint: '/v1/graphql',
    defaultQuery: DEFAULT_QUERY,
    defaultHeaders: JSON.stringify(opts.adminSecretSet ? { 'x-svc-admin-secret': '' } : {}, null, 2),
  };
  const html = Buffer.from(renderPage(config, names.has('console.js')), 'utf8');

  function load(name: string): Asset | undefined {
    const known = cache.get(name);
    if (known) return known;
    const builtIn = name === 'favicon.svg' && !names.has(name);
    if (!builtIn && (!dir || !names.has(name))) return undefined;
    const body = builtIn ? Buffer.from(FAVICON_SVG, 'utf8') : readFileSync(join(dir!, name));
    const type = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
    const asset: Asset = { body, type, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
    cache.set(name, asset);
    return asset;
  }

  return {
    page(res) {
      send(res, 200, 'text/html; charset=utf-8', html, { 'cache-control': 'no-cache' });
    },
    asset(req, res, name) {
      const asset = load(name);
      if (!asset) {
        sendManagementError(res, new ApiError('not-found', 'resource does not exist', 404));
        return;
      }
      const headers: Record<string, string> = { etag: asset.etag, 'cache-control': 'no-cache', vary: 'Accept-Encoding' };
      if (req.headers['if-none-match'] === asset.etag) {
        res.writeHead(304, headWith(res, headers));
        res.end();
        return;
      }
      const compressible = asset.type.startsWith('text/') || asset.type.startsWith('application/json');
      if (compressible && acceptsGzip(req.headers['accept-encoding']) && asset.body.length > 1024) {
        asset.gzip ??= gzipSync(asset.body);
        send(res, 200, asset.type, asset.gzip, { ...headers, 'content-encoding': 'gzip' });
        return;
      }
      send(res, 200, asset.type, asset.body, headers);
    },
  };
}
