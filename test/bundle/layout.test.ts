// The stored layout of a bundle: text several roles share is written once and read back per role.
import { describe, expect, it } from 'vitest';
import { expandLayout, storedLayout } from '../../runtime/bundle/index.js';

const stmt = (role: string, body: string): string => `-- role: ${role}\n-- root field: t\n${body}\n`;

describe('bundle layout', () => {
  const files = new Map<string, string>([
    ['engine.mjs', 'export const model = {};'],
    ['schema/a.graphql', 'type query_root { t: Int }'],
    ['schema/b.graphql', 'type query_root { t: Int }'],
    ['schema/c.graphql', 'type query_root { u: Int }'],
    ['sql/a/t.sql', stmt('a', 'SELECT 1')],
    ['sql/b/t.sql', stmt('b', 'SELECT 1')],
    ['sql/c/t.sql', stmt('c', 'SELECT 2')],
    ['sql/a/u.sql', stmt('a', 'SELECT 3')],
  ]);
  const stored = storedLayout(files);

  it('stores a statement several roles run once, and keeps one only a role runs at its own path', () => {
    const shared = [...stored.files.keys()].filter((p) => p.startsWith('shared/') && p.endsWith('.sql'));
    expect(shared).toHaveLength(1);
    expect(stored.files.get(shared[0]!)).toBe('-- root field: t\nSELECT 1\n');
    expect(stored.files.has('sql/a/t.sql')).toBe(false);
    expect(stored.files.get('sql/c/t.sql')).toBe(stmt('c', 'SELECT 2'));
    expect(stored.files.get('sql/a/u.sql')).toBe(stmt('a', 'SELECT 3'));
    expect(JSON.parse(stored.files.get('sql/a/links.json')!)).toEqual({ 't.sql': shared[0]!.slice('shared/'.length, -'.sql'.length) });
  });

  it('stores a schema several roles see once and names each role\'s file', () => {
    expect(stored.schemas['a']).toBe(stored.schemas['b']);
    expect(stored.schemas['a']).toMatch(/^shared\/\w+\.graphql$/);
    expect(stored.schemas['c']).toBe('schema/c.graphql');
  });

  it('reads back exactly the files it was given', () => {
    const back = expandLayout(stored.files, stored.schemas);
    expect([...back]).toEqual([...files].sort(([x], [y]) => (x < y ? -1 : 1)));
  });

  it('keeps a statement whose first line is not its role line at its own path', () => {
    const odd = storedLayout(new Map([['sql/a/t.sql', 'SELECT 1\n'], ['sql/b/t.sql', 'SELECT 1\n']]));
    expect([...odd.files.keys()]).toEqual(['sql/a/t.sql', 'sql/b/t.sql']);
  });
});
