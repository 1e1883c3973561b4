// Import directions (STYLE.md §1): the runtime never imports the compiler; layers import only
// downward; other folders import a folder through its index.ts; no two files import each other,
// directly or around a loop. Read with ts-morph.
import { dirname, join, relative, resolve } from 'node:path';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

const RUNTIME_BELOW_START = ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/tracing', 'runtime/graphql', 'runtime/auth',
  'runtime/transforms', 'runtime/remote', 'runtime/metadata-api', 'runtime/subscriptions', 'runtime/workers', 'runtime/server', 'runtime/actions'];

// What each folder may import (besides itself). No folder is exempt.
const ALLOWED: Record<string, readonly string[]> = {
  // runtime/index.ts, the front door of the command lines: what starts a server.
  'runtime': ['runtime/start'],
  // Starting a server wires every runtime part together (the compiler arrives through the metadata API's contract).
  'runtime/start': RUNTIME_BELOW_START,
  'runtime/errors': [],
  'runtime/sql': ['runtime/errors'],
  'runtime/bundle': ['runtime/errors', 'runtime/sql'],
  'runtime/drivers': ['runtime/errors', 'runtime/sql', 'runtime/bundle'],
  // OpenTelemetry traces: spans, the active request span, OTLP export, traced drivers.
  'runtime/tracing': ['runtime/bundle', 'runtime/drivers'],
  // Remote schemas: introspection, stitching, splitting and calls (below the engine that runs them).
  'runtime/remote': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/tracing'],
  'runtime/graphql': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/tracing', 'runtime/remote'],
  'runtime/auth': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/tracing'],
  // Kriti and webhook request/response transforms: pure, no I/O.
  'runtime/transforms': ['runtime/errors', 'runtime/bundle'],
  'runtime/metadata-api': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/graphql', 'runtime/auth', 'runtime/transforms', 'runtime/remote'],
  // WebSocket subscriptions: the multiplexed pollers run the engine's plans on the drivers.
  'runtime/subscriptions': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/graphql', 'runtime/auth'],
  // Actions: handler calls, output checks, relationships planned with the engine's planners, async action delivery.
  'runtime/actions': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/tracing', 'runtime/graphql', 'runtime/transforms'],
  // Event triggers, cron and scheduled events: capture SQL, metadata API operations, delivery workers.
  'runtime/workers': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/tracing', 'runtime/transforms', 'runtime/metadata-api'],
  'runtime/server': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/tracing', 'runtime/graphql', 'runtime/auth', 'runtime/metadata-api', 'runtime/transforms', 'runtime/subscriptions'],
  'compiler/metadata': ['runtime/errors'],
  'compiler/introspect': ['runtime/errors', 'runtime/sql', 'runtime/drivers'],
  'compiler/model': ['runtime/errors', 'runtime/bundle', 'compiler/metadata', 'compiler/introspect'],
  'compiler/schema': ['runtime/errors', 'runtime/bundle', 'compiler/model'],
  // The SQL files of a bundle are printed by the planner that serves requests (one SQL writer).
  'compiler/sql': ['runtime/errors', 'runtime/bundle', 'runtime/sql', 'runtime/graphql', 'compiler/model'],
  // Metadata operations: pure edits of the document, typed against the metadata API's contract.
  'compiler/ops': ['runtime/errors', 'runtime/bundle', 'runtime/metadata-api', 'compiler/metadata', 'compiler/introspect', 'compiler/model'],
  'compiler/emit': ['runtime/errors', 'runtime/bundle', 'runtime/sql', 'compiler/metadata', 'compiler/introspect', 'compiler/model', 'compiler/schema', 'compiler/sql'],
  // The compiler behind the metadata API's contract (compile on write): edits and the pipeline.
  'compiler/metadata-compiler': ['runtime/errors', 'runtime/bundle', 'runtime/metadata-api', 'compiler/metadata', 'compiler/introspect', 'compiler/model', 'compiler/schema', 'compiler/sql', 'compiler/ops', 'compiler/emit'],
  // Importing a Hasura CLI project: reads its metadata with the metadata reader, writes files.
  'compiler/import-hasura': ['runtime/errors', 'compiler/metadata'],
  // The command line joins both sides: it starts servers through runtime/index.ts, reads bundles, introspects remote schemas,
  // and runs the compiler's stages; nothing imports it.
  'compiler/cli': ['runtime', 'runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/graphql', 'runtime/metadata-api', 'runtime/actions', 'runtime/remote',
    'compiler/metadata', 'compiler/introspect', 'compiler/model', 'compiler/schema', 'compiler/sql', 'compiler/ops', 'compiler/emit', 'compiler/metadata-compiler', 'compiler/import-hasura'],
};

// Folders whose inner cycles are not reported yet (none: runtime/graphql's planners build IR and
// no longer import each other in a cycle).
const CYCLES_PENDING: readonly string[] = [];

function folderOf(file: string): string {
  const rel = relative(root, file).split('\\').join('/');
  const [top, sub] = rel.split('/');
  // A file at the top (runtime/index.ts) belongs to the top folder itself.
  return /\.[jt]s$/.test(sub!) ? top! : `${top}/${sub}`;
}

// The loops of a directed graph: its strongly connected components of more than one file
// (Tarjan), each listed from its smallest file name.
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      part.push(w);
      if (w === v) break;
    }
    if (part.length > 1) out.push(part.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

describe('architecture', () => {
  const project = new Project({ tsConfigFilePath: join(root, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([join(root, 'runtime/**/*.ts'), join(root, 'compiler/**/*.ts')]);
  const files = project.getSourceFiles();

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const f of files) {
    const from = folderOf(f.getFilePath());
    const own = relative(root, f.getFilePath()).split('\\').join('/');
    edges.set(own, edges.get(own) ?? new Set());
    for (const decl of [...f.getImportDeclarations(), ...f.getExportDeclarations()]) {
      const spec = decl.getModuleSpecifierValue();
      if (!spec || !spec.startsWith('.')) continue;
      const target = resolve(dirname(f.getFilePath()), spec);
      edges.get(own)!.add(relative(root, target).split('\\').join('/').replace(/\.js$/, '.ts'));
      const to = folderOf(target);
      if (to === from) continue;
      const where = `${relative(root, f.getFilePath())} -> ${spec}`;
      const allowed = ALLOWED[from];
      if (!allowed) problems.push(`${where}: folder ${from} has no rule`);
      else if (!allowed.includes(to)) problems.push(`${where}: ${from} may not import ${to}`);
      if (!target.endsWith('/index.js')) problems.push(`${where}: import the folder's index.ts, not its files`);
    }
  }

  it('every import points downward and through a barrel', () => {
    expect(problems).toEqual([]);
  });

  it('no file imports itself through other files (no import cycles)', () => {
    const cycles = cyclesOf(edges).filter((c) => !CYCLES_PENDING.some((dir) => c.every((f) => f.startsWith(`${dir}/`))));
    expect(cycles.map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds an import cycle when there is one', () => {
    const loop = new Map([['a.ts', new Set(['b.ts'])], ['b.ts', new Set(['c.ts'])], ['c.ts', new Set(['a.ts'])], ['d.ts', new Set(['a.ts'])]]);
    expect(cyclesOf(loop)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(cyclesOf(new Map([['a.ts', new Set(['b.ts'])], ['b.ts', new Set<string>()]]))).toEqual([]);
  });

  it('the runtime never imports the compiler', () => {
    const bad = problems.filter((p) => p.startsWith('runtime/') && p.includes('compiler'));
    expect(bad).toEqual([]);
    for (const f of files.filter((x) => folderOf(x.getFilePath()).startsWith('runtime/'))) {
      for (const d of f.getImportDeclarations()) expect(d.getModuleSpecifierValue()).not.toMatch(/compiler\//);
    }
  });

  it('every folder has an index.ts', () => {
    const folders = new Set(files.map((f) => dirname(f.getFilePath())));
    const missing = [...folders].filter((d) => !files.some((f) => f.getFilePath() === join(d, 'index.ts')) && !d.includes('/dialects'));
    expect(missing.map((d) => relative(root, d))).toEqual([]);
  });
});
