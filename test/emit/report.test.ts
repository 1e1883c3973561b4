// report.html: the permission matrix and the relationship graph, self-contained and deterministic,
// and rendered by a real headless Chromium (skipped only when no Chromium is installed).

import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle, type Bundle } from '../../compiler/emit/index.js';
import { reportHtml } from '../../compiler/emit/report.js';
import { compileFixture } from '../helpers/fixtures.js';
import { countColour, distinctColours, readPng } from './png.js';

// The Debian package is `chromium`; other systems name the binary differently.
function findBrowser(): string | null {
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    for (const n of names) {
      try {
        accessSync(join(d, n), constants.X_OK);
        return join(d, n);
      } catch { /* not here */ }
    }
  }
  return null;
}

const browser = findBrowser();
if (!browser) console.warn('report.html browser tests SKIPPED: chromium is not installed (apt-get install -y chromium)');
let bundle: Bundle;
let tmp: string;
let html: string;

beforeAll(async () => {
  bundle = await compileFixture('blog');
  tmp = await mkdtemp(join(tmpdir(), 'kiln-report-'));
  await writeBundle(join(tmp, 'bundle'), bundle);
  html = await readFile(join(tmp, 'bundle', 'report.html'), 'utf8');
}, 60_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('report.html', () => {
  it('is the same bytes for the same inputs', async () => {
    const again = await compileFixture('blog');
    expect(again.files.get('report.html')).toBe(html);
  });

  it('needs no network: no script, no external file, styles and picture inline', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import/i);
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(new Set([...html.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1]))).toEqual(new Set(['#arrow']));
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="graph"');
  });

  it('has a cell for every role, table and operation, with columns and filters written out', () => {
    const cells = [...html.matchAll(/<td class="cell (\w+)" data-role="([^"]+)" data-table="([^"]+)" data-op="(\w+)">/g)];
    expect(cells).toHaveLength(3 * 5 * 4);
    const cell = (role: string, table: string, op: string): string => {
      const at = html.indexOf(`data-role="${role}" data-table="${table}" data-op="${op}">`);
      return html.slice(at, html.indexOf('</td>', at));
    };
    expect(cell('reader', 'public.article', 'select')).toContain('<code>status = &quot;published&quot; AND author{ is_public = true }</code>');
    expect(cell('reader', 'public.article', 'select')).toContain('limit 2');
    expect(cell('user', 'public.article', 'insert')).toContain('<code>author_id = X-Svc-User-Id</code>');
    expect(cell('user', 'public.article', 'update')).toContain('<code>views = &quot;0&quot;</code>');
    expect(cell('user', 'public.article', 'delete')).toContain('author_id = X-Svc-User-Id AND status = &quot;draft&quot;');
    expect(cell('reader', 'public.article', 'delete')).toContain('—');
    expect(cell('admin', 'public.author', 'select')).toContain('all (7)');
  });

  it('gives roles with the same permissions on every table one column', () => {
    const m = bundle.model;
    const twin = { ...m, roles: [...m.roles, 'reader_twin'], select: { ...m.select, reader_twin: m.select['reader']! },
      ...(m.mutations ? { mutations: { ...m.mutations, ...(m.mutations['reader'] ? { reader_twin: m.mutations['reader'] } : {}) } } : {}) };
    const grouped = reportHtml(twin);
    expect(grouped).toContain('<th class="role" scope="col">reader, reader_twin</th>');
    const cells = [...grouped.matchAll(/<td class="cell (\w+)" data-role="([^"]+)" data-table="([^"]+)" data-op="(\w+)">/g)];
    expect(cells).toHaveLength(3 * 5 * 4);
    expect(cells.filter((c) => c[2] === 'reader reader_twin')).toHaveLength(5 * 4);
    // A role that differs on one table keeps its own column.
    const apart = { ...twin, select: { ...twin.select, reader_twin: { ...twin.select['reader_twin'], 'default:public.author': undefined } as never } };
    expect(reportHtml(apart)).not.toContain('reader, reader_twin');
  });

  it('draws each table as a node and each relationship as an arrow', () => {
    expect([...html.matchAll(/<g class="node" data-table="([^"]+)">/g)].map((m) => m[1])).toEqual(
      ['content.article_tag', 'content.tag', 'public.article', 'public.article_status', 'public.author']);
    const edges = [...html.matchAll(/<g class="edge (object|array)"><title>([^<]+)<\/title>/g)].map((m) => `${m[1]} ${m[2]!.split(' (')[0]}`);
    expect(edges).toEqual([
      'object content_article_tag.tag → content.tag', 'object content_article_tag.article → public.article',
      'object article.author → public.author', 'array article.article_tags → content.article_tag', 'array author.articles → public.article',
    ]);
  });
});

function run(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    execFile(browser!, [...args], { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) rej(new Error(`${browser} failed: ${err.message}\n${stderr}`));
      else res({ stdout, stderr });
    });
  });
}

const headless = (profile: string): string[] => ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--user-data-dir=${join(tmp, profile)}`];

describe.skipIf(!browser)(`report.html in headless Chromium${browser ? '' : ' (SKIPPED: chromium is not installed; apt-get install -y chromium)'}`, () => {
  it('renders a screenshot with the matrix colours and the graph drawn', async () => {
    const out = join(tmp, 'report.png');
    await run([...headless('shot'), `--screenshot=${out}`, '--window-size=1400,2400', pathToFileURL(join(tmp, 'bundle', 'report.html')).href]);
    const png = readPng(await readFile(out));
    expect([png.width, png.height]).toEqual([1400, 2400]);
    const white = countColour(png, [255, 255, 255], 0);
    expect(white / (png.width * png.height)).toBeLessThan(0.95);
    expect(distinctColours(png)).toBeGreaterThan(50);
    // Table heads and graph nodes (#2d3e5e), cells with full access (#dff3e4) and filtered (#fff4d6).
    expect(countColour(png, [0x2d, 0x3e, 0x5e])).toBeGreaterThan(5_000);
    expect(countColour(png, [0xdf, 0xf3, 0xe4])).toBeGreaterThan(20_000);
    expect(countColour(png, [0xff, 0xf4, 0xd6])).toBeGreaterThan(5_000);
  }, 90_000);

  it('has every matrix cell and graph node in the rendered DOM', async () => {
    const { stdout } = await run([...headless('dom'), '--dump-dom', pathToFileURL(join(tmp, 'bundle', 'report.html')).href]);
    expect(stdout.match(/<td class="cell (all|filtered|none)" data-role="/g)).toHaveLength(60);
    expect(stdout.match(/<g class="node"/g)).toHaveLength(5);
    expect(stdout).toMatch(/data-role="reader" data-table="public.article" data-op="select"><p><b>columns:<\/b> <code>id<\/code>/);
  }, 90_000);
});
