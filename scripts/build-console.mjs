// Bundles the /console page (GraphiQL from npm) into local files the server serves itself:
//   <out>/console.js, console.css (+ fonts), editor.worker.js, json.worker.js, graphql.worker.js
// graphiql 5 ships no UMD/CDN build, so esbuild bundles a small entry with React and Monaco.
// Usage: node scripts/build-console.mjs [outDir]   (default: build/console)
import { build } from 'esbuild';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(root, process.argv[2] ?? 'build/console');

// The page's script. The server writes the config (endpoint, default query and headers) into
// <script id="kiln-console-config" type="application/json"> in the HTML.
const entry = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import { createKilnFetcher, webSocketUrl } from './scripts/console-fetcher.mjs';

// Monaco asks for its language workers by label; they sit next to this file.
globalThis.MonacoEnvironment = {
  getWorker(_id, label) {
    const name = label === 'json' || label === 'graphql' ? label : 'editor';
    return new Worker(new URL('./' + name + '.worker.js', import.meta.url));
  },
};

const config = JSON.parse(document.getElementById('kiln-console-config').textContent);

// Queries by POST; subscriptions over WebSocket (graphql-transport-ws), with the headers editor's headers.
const fetcher = createKilnFetcher({
  endpoint: config.endpoint, wsUrl: webSocketUrl(location, config.endpoint), WebSocketImpl: WebSocket, fetchImpl: fetch.bind(globalThis),
});

createRoot(document.getElementById('graphiql')).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: config.defaultQuery,
    defaultHeaders: config.defaultHeaders,
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: 'headers',
  }),
);
`;

const common = {
  bundle: true,
  minify: true,
  legalComments: 'linked',
  target: ['es2022'],
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

async function main() {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await build({
    ...common,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'console-entry.js', loader: 'js' },
    format: 'esm',
    outfile: resolve(outDir, 'console.js'),
    loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file' },
    assetNames: '[name]-[hash]',
  });
  const workers = {
    editor: 'monaco-editor/esm/vs/editor/editor.worker.js',
    json: 'monaco-editor/esm/vs/language/json/json.worker.js',
    graphql: 'monaco-graphql/esm/graphql.worker.js',
  };
  await Promise.all(Object.entries(workers).map(([name, module]) => build({
    ...common,
    entryPoints: [module],
    absWorkingDir: root,
    format: 'iife',
    outfile: resolve(outDir, `${name}.worker.js`),
  })));
}

main().catch((e) => {
  process.stderr.write(`build-console: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
