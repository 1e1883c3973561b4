// Every command checks its input before it starts anything: a bad port, number, JSON argument,
// URL or path is a message naming the flag and exit 2, never a stack trace, and nothing is opened
// or written (a demo's data folder is not created, no database is reached).

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, kiln } from './cli-helpers.js';

let tmp: string;
let dataDir: string;
// A port nothing listens on: a command that tried to connect would fail there, not on its input.
const DEAD_DB = 'postgres://postgres@127.0.0.1:1/nothing';

beforeAll(async () => {
  await ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'kiln-input-'));
  dataDir = join(tmp, 'pgdata');
  await writeFile(join(tmp, 'q.graphql'), '{ a }');
  await writeFile(join(tmp, 'md.json'), '{"version": 3, "sources": []}');
}, 120_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

function refused(r: { code: number | null; stderr: string }, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr).not.toMatch(/starting|serving|introspecting|loaded bundle/);
}

describe('kiln serve checks its flags before opening anything', () => {
  it.each([
    [['--port', 'abc'], /--port \(or SVC_GRAPHQL_SERVER_PORT\) must be a whole number from 0 to 65535, not "abc"/],
    [['--port', '70000'], /--port .* not "70000"/],
    [['--port', '8080.5'], /--port .* not "8080.5"/],
    [['--pg-connections', '0'], /--pg-connections .* from 1 to 10000/],
    [['--events-fetch-interval', 'soon'], /--events-fetch-interval .* not "soon"/],
    [['--jwt-secret', '{bad'], /--jwt-secret \(or SVC_GRAPHQL_JWT_SECRET\) is not valid JSON/],
    [['--auth-hook', 'not a url'], /--auth-hook .* is not a URL/],
    [['--enabled-apis', 'graphql,metadta'], /unknown API "metadta"/],
    [['--bundle', '/nonexistent/bundle'], /--bundle: \/nonexistent\/bundle is not a kiln bundle \(no manifest\.json: the directory does not exist\)/],
    [['--metadata', '/nonexistent/md.json'], /--metadata: \/nonexistent\/md.json does not exist/],
  ])('demo mode %j: exit 2, no data folder created', async (args, message) => {
    const r = await kiln(['serve', '--data-dir', dataDir, ...args]);
    refused(r, message);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a bad port from the environment names the variable; a bad database URL is refused before connecting', async () => {
    refused(await kiln(['serve', '--data-dir', dataDir], { env: { SVC_GRAPHQL_SERVER_PORT: 'eighty' } }), /SVC_GRAPHQL_SERVER_PORT.*not "eighty"/);
    refused(await kiln(['serve', '--database-url', 'mysql://x@y/z']), /--database-url .* must be a postgres:\/\/ or postgresql:\/\/ URL/);
    refused(await kiln(['serve', '--database-url', DEAD_DB, '--port', '-1']), /--port .* not "-1"/);
    refused(await kiln(['serve', '--bundle', tmp, '--data-dir', dataDir]), /is not a kiln bundle \(no manifest\.json/);
    refused(await kiln(['serve', '--data-dir', join(tmp, 'q.graphql')]), /--data-dir: .* is a file, not a directory/);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('the other commands', () => {
  it('kiln inspect: a missing bundle, bad --variables JSON, a missing query file', async () => {
    refused(await kiln(['inspect', '--bundle', '/nonexistent']), /--bundle: \/nonexistent is not a kiln bundle \(no manifest\.json: the directory does not exist\)/);
    refused(await kiln(['inspect', '--bundle', tmp]), /not a kiln bundle/);
    // The JSON is checked with the other flags, before the bundle is read.
    await writeFile(join(tmp, 'manifest.json'), '{}');
    refused(await kiln(['inspect', '--bundle', tmp, '--query', join(tmp, 'q.graphql'), '--variables', '{bad']), /--variables is not valid JSON/);
    refused(await kiln(['inspect', '--bundle', tmp, '--query', join(tmp, 'q.graphql'), '--variables', '[1]']), /--variables must be a JSON object/);
    refused(await kiln(['inspect', '--bundle', tmp, '--query', join(tmp, 'nope.graphql')]), /--query: .*nope\.graphql does not exist/);
    refused(await kiln(['inspect', '--bundle', tmp, '--variables', '{}']), /--variables needs --query/);
  });

  it('kiln compile: a missing metadata path or snapshot, a bad URL, an output that is a file', async () => {
    const out = join(tmp, 'out');
    refused(await kiln(['compile', '--metadata', '/nonexistent.json', '--database-url', DEAD_DB, '--out', out]), /--metadata: \/nonexistent\.json does not exist/);
    refused(await kiln(['compile', '--metadata', join(tmp, 'md.json'), '--introspection', '/nonexistent.json', '--out', out]), /--introspection: \/nonexistent\.json does not exist/);
    refused(await kiln(['compile', '--metadata', join(tmp, 'md.json'), '--database-url', 'nota url', '--out', out]), /--database-url .* is not a URL/);
    refused(await kiln(['compile', '--metadata', join(tmp, 'md.json'), '--database-url', DEAD_DB, '--out', join(tmp, 'md.json')]), /--out: .* is a file, not a directory/);
    expect(existsSync(out)).toBe(false);
  });

  it('kiln introspect: a bad URL, an output that is a directory', async () => {
    refused(await kiln(['introspect', '--database-url', 'http://x']), /must be a postgres:\/\/ or postgresql:\/\/ URL/);
    refused(await kiln(['introspect', '--database-url', DEAD_DB, '--out', tmp]), /--out: .* is a directory, not a file/);
  });

  it('kiln diff and kiln check: missing or non-bundle directories', async () => {
    refused(await kiln(['diff', '/nonexistent/a', '/nonexistent/b']), /no such directory/);
    refused(await kiln(['check', '--bundle', '/nonexistent']), /no such directory/);
  });
});
