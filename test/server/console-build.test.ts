import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Running } from './helpers.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..', '..');

// Builds the real GraphiQL bundle (scripts/build-console.mjs) and serves it.
describe('built console', () => {
  let dir: string;
  let srv: Running;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kiln-console-build-'));
    await run(process.execPath, [join(root, 'scripts', 'build-console.mjs'), dir], { cwd: root });
    srv = await start({ consoleEnabled: true, consoleAssetsDir: dir });
  }, 120_000);
  afterAll(async () => { await srv?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('serves the GraphiQL bundle, its styles, fonts and Monaco workers from our own server', async () => {
    const js = await fetch(srv.url('/console/assets/console.js'));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await js.text();
    expect(code).toContain('kiln-console-config');
    // Subscriptions go over WebSocket (scripts/console-fetcher.mjs is bundled in).
    expect(code).toContain('graphql-transport-ws');
    expect(code).not.toMatch(/esm\.sh|unpkg\.com|jsdelivr|cdnjs/);
    for (const worker of ['editor', 'json', 'graphql']) {
      const res = await fetch(srv.url(`/console/assets/${worker}.worker.js`));
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const css = await (await fetch(srv.url('/console/assets/console.css'))).text();
    const font = /url\("?\.\/([^")]+\.ttf)"?\)/.exec(css);
    expect(font).not.toBeNull();
    const fontRes = await fetch(srv.url(`/console/assets/${font![1]}`));
    expect(fontRes.status).toBe(200);
    expect(fontRes.headers.get('content-type')).toBe('font/ttf');
  });
});
