// Planners build the query IR; only renderers in runtime/sql write SQL (DESIGN.md "Query IR",
// STYLE.md §3). This counts the lines that still write SQL text in the planners' folders and
// holds each file to a recorded ceiling (none now): a file not listed must have none.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

// SQL text: a fragment template, a fragment constructor, or a PostgreSQL-only word. Before the IR
// the planners held 241 such lines (190 of templates, raw() and PostgreSQL words alone).
const SQL_TEXT = /sql`|\b(raw|ident|aliasRef|jsonKey|param|session|variable)\(|json_agg|json_build_object|jsonb_build_object|\bLATERAL\b|::json/;

// Files still writing SQL text, each with its ceiling: none (the statement timeout of API limits
// is the renderer's statementTimeout now).
const CEILING: { readonly [file: string]: number } = {};

function files(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) out.push(relative(root, p).split('\\').join('/'));
    }
  };
  walk(join(root, 'runtime/graphql'));
  walk(join(root, 'runtime/subscriptions'));
  for (const f of readdirSync(join(root, 'runtime/metadata-api'))) if (/^v1-data.*\.ts$/.test(f)) out.push(`runtime/metadata-api/${f}`);
  return out.sort();
}

/** The lines of a file that write SQL text, comments left out. */
export function sqlTextLines(text: string): string[] {
  let inBlock = false;
  return text.split('\n').filter((line) => {
    const t = line.trim();
    if (inBlock) { if (t.includes('*/')) inBlock = false; return false; }
    if (t.startsWith('/*')) { inBlock = !t.includes('*/'); return false; }
    if (t.startsWith('//') || t.startsWith('*')) return false;
    return SQL_TEXT.test(line.replace(/\s\/\/.*$/, ''));
  });
}

describe('SQL text in the planners', () => {
  it('recognises SQL text and leaves comments out', () => {
    expect(sqlTextLines('const a = sql`SELECT 1`;\n// sql`x`\n/*\n raw(\n*/\nconst b = raw(\'x\');\nconst c = leafParam(v);')).toHaveLength(2);
    expect(sqlTextLines("x = 'json_build_object'; y = '::json'")).toHaveLength(1);
  });

  it('the GraphQL planners (queries, mutations, explain), the subscriptions and the /v1/query data operations write none', () => {
    for (const f of files().filter((x) => !(x in CEILING))) {
      expect(sqlTextLines(readFileSync(join(root, f), 'utf8')), f).toEqual([]);
    }
  });

  it('every other file stays at or under its recorded count', () => {
    const over: string[] = [];
    let total = 0;
    for (const f of files()) {
      const n = sqlTextLines(readFileSync(join(root, f), 'utf8')).length;
      total += n;
      if (n > (CEILING[f] ?? 0)) over.push(`${f}: ${n} lines of SQL text, ceiling ${CEILING[f] ?? 0}`);
    }
    expect(over).toEqual([]);
    expect(total).toBeLessThanOrEqual(Object.values(CEILING).reduce((a, b) => a + b, 0));
    expect(files().length).toBeGreaterThan(40);
  });
});
