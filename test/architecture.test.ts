// Import directions (STYLE.md §1): the runtime never imports the compiler; layers import only
// downward; other folders import a folder through its index.ts. Read with ts-morph.
import { dirname, join, relative, resolve } from 'node:path';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

// What each folder may import (besides itself). `compiler/cli` joins both sides and is exempt.
const ALLOWED: Record<string, readonly string[]> = {
  'runtime/errors': [],
  'runtime/sql': ['runtime/errors'],
  'runtime/bundle': ['runtime/errors', 'runtime/sql'],
  'runtime/drivers': ['runtime/errors', 'runtime/sql', 'runtime/bundle'],
  'runtime/graphql': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers'],
  'runtime/auth': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers'],
  // Kriti and webhook request/response transforms: pure, no I/O.
  'runtime/transforms': ['runtime/errors', 'runtime/bundle'],
  'runtime/metadata-api': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/graphql', 'runtime/auth', 'runtime/transforms'],
  // WebSocket subscriptions: the multiplexed pollers run the engine's plans on the drivers.
  'runtime/subscriptions': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/graphql', 'runtime/auth'],
  // Event triggers, cron and scheduled events: capture SQL, metadata API operations, delivery workers.
  'runtime/workers': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/transforms', 'runtime/metadata-api'],
  'runtime/server': ['runtime/errors', 'runtime/sql', 'runtime/bundle', 'runtime/drivers', 'runtime/graphql', 'runtime/auth', 'runtime/metadata-api', 'runtime/transforms', 'runtime/subscriptions'],
  'compiler/metadata': ['runtime/errors'],
  'compiler/introspect': ['runtime/errors', 'runtime/sql', 'runtime/drivers'],
  'compiler/model': ['runtime/errors', 'runtime/bundle', 'compiler/metadata', 'compiler/introspect'],
  'compiler/schema': ['runtime/errors', 'runtime/bundle', 'compiler/model'],
  // The SQL files of a bundle are printed by the planner that serves requests (one SQL writer).
  'compiler/sql': ['runtime/errors', 'runtime/bundle', 'runtime/sql', 'runtime/graphql', 'compiler/model'],
  // Metadata operations: pure edits of the document, typed against the metadata API's contract.
  'compiler/ops': ['runtime/errors', 'runtime/bundle', 'runtime/metadata-api', 'compiler/metadata', 'compiler/introspect', 'compiler/model'],
  'compiler/emit': ['runtime/errors', 'runtime/bundle', 'runtime/sql', 'compiler/metadata', 'compiler/introspect', 'compiler/model', 'compiler/schema', 'compiler/sql'],
};

function folderOf(file: string): string {
  const rel = relative(root, file).split('\\').join('/');
  const [top, sub] = rel.split('/');
  return `${top}/${sub}`;
}

describe('architecture', () => {
  const project = new Project({ tsConfigFilePath: join(root, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([join(root, 'runtime/**/*.ts'), join(root, 'compiler/**/*.ts')]);
  const files = project.getSourceFiles();

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  const problems: string[] = [];
  for (const f of files) {
    const from = folderOf(f.getFilePath());
    if (from === 'compiler/cli') continue;
    for (const decl of [...f.getImportDeclarations(), ...f.getExportDeclarations()]) {
      const spec = decl.getModuleSpecifierValue();
      if (!spec || !spec.startsWith('.')) continue;
      const target = resolve(dirname(f.getFilePath()), spec);
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
