import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { ApiError, formatPath } from '../../runtime/errors/index.js';
import { sharedPath } from '../helpers/shared.js';

/** A small seeded generator, so that a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['version', 'sources', 'name', 'kind', 'tables', 'table', 'schema', 'columns', 'role', 'permission', 'using',
  'metadata', 'functions', 'configuration', 'select_permissions', 'object_relationships', '__proto__', 'constructor', 'x y', ''];
const ATOMS: unknown[] = [null, true, false, 0, -1, 3, 1.5, 1e308, '', '*', 'postgres', 'public', '!include x', 'toString'];

function randomJson(r: () => number, depth: number): unknown {
  const pick = r();
  if (depth <= 0 || pick < 0.4) return ATOMS[Math.floor(r() * ATOMS.length)];
  const n = Math.floor(r() * 4);
  if (pick < 0.7) return Array.from({ length: n }, () => randomJson(r, depth - 1));
  // fromEntries keeps `__proto__` as an own key, as JSON.parse does.
  return Object.fromEntries(Array.from({ length: n }, () => [KEYS[Math.floor(r() * KEYS.length)]!, randomJson(r, depth - 1)]));
}

/** Replaces, deletes or duplicates one randomly chosen node of a copy of `doc`. */
function mutate(doc: unknown, r: () => number): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  let node: unknown = copy;
  for (let step = 0; step < 12; step++) {
    const entries = node !== null && typeof node === 'object' ? Object.entries(node) : [];
    if (entries.length === 0) break;
    const [key, child] = entries[Math.floor(r() * entries.length)]!;
    const holder = node as Record<string, unknown>;
    if (r() < 0.25 || child === null || typeof child !== 'object') {
      const how = r();
      if (how < 0.5) holder[key] = randomJson(r, 3);
      else if (how < 0.75 && !Array.isArray(holder)) delete holder[key];
      else if (Array.isArray(holder)) holder.push(structuredClone(child));
      else holder[key] = [child, child];
      break;
    }
    node = child;
  }
  return copy;
}

function checkAnswer(doc: unknown): boolean {
  const r = parseMetadata(doc);
  expect(Array.isArray(r.errors)).toBe(true);
  expect(r.value === null).toBe(r.errors.length > 0);
  for (const e of r.errors) {
    expect(e).toBeInstanceOf(ApiError);
    expect(['parse-failed', 'already-exists']).toContain(e.code);
    expect(formatPath(e.path).startsWith('$')).toBe(true);
  }
  return r.value !== null;
}

const bench: unknown = JSON.parse(readFileSync(sharedPath('bench', 'metadata.json'), 'utf8'));
const rich = {
  version: 3,
  sources: [{ name: 'd', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables: [
    { table: 'a', configuration: { custom_root_fields: { select: 'as' }, column_config: { c: { custom_name: 'cc' } } },
      object_relationships: [{ name: 'b', using: { manual_configuration: { remote_table: 'b', column_mapping: { b_id: 'id' } } } }],
      select_permissions: [{ role: 'u', permission: { columns: ['c'], filter: { c: { _eq: 1 } }, limit: 3 } }],
      update_permissions: [{ role: 'u', permission: { columns: '*', filter: {}, check: null } }] },
  ], functions: ['f'] }],
  actions: [{ name: 'act' }],
};

describe('no input makes the reader throw', () => {
  it('answers 200 random JSON values and mutated documents with a value or problems', () => {
    const r = rng(20240501);
    for (let i = 0; i < 80; i++) checkAnswer(randomJson(r, 5));
    const outcomes: boolean[] = [];
    for (let i = 0; i < 60; i++) outcomes.push(checkAnswer(mutate(bench, r)));
    for (let i = 0; i < 60; i++) outcomes.push(checkAnswer(mutate(i % 2 === 0 ? rich : { resource_version: 1, metadata: rich }, r)));
    // The mutations reach both sides: some documents stay valid, some break.
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(5);
    expect(outcomes.filter((x) => !x).length).toBeGreaterThan(5);
  });

  it('survives very deep nesting inside a raw section and as the document itself', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20000; i++) deep = [deep];
    const inRaw = parseMetadata({ version: 3, sources: [], backend_configs: { x: deep } });
    expect(inRaw.errors.map((e) => [e.code, formatPath(e.path), e.message])).toEqual([['parse-failed', '$.backend_configs', 'value is nested too deeply']]);
    expect(parseMetadata(deep).errors).toHaveLength(1);
  });

  it('treats inherited property names as ordinary keys', () => {
    const doc = JSON.parse('{"version": 3, "sources": [{"name": "constructor", "kind": "toString", "tables": [{"table": "__proto__", "configuration": {"column_config": {"__proto__": {"custom_name": "p"}}}}]}]}') as unknown;
    const r = parseMetadata(doc);
    expect(r.errors.map((e) => formatPath(e.path))).toEqual(['$.sources[0].kind']);
    const ok = parseMetadata(JSON.parse(JSON.stringify(doc).replace('toString', 'postgres')) as unknown);
    expect(ok.errors).toEqual([]);
    const config = ok.value?.sources[0]?.tables[0]?.configuration?.column_config;
    expect(Object.keys(config ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
  });
});
