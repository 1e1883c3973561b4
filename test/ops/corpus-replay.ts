// Replays the conformance corpus' metadata operations in process: SQL steps run on a real database
// (and the catalog is read again), metadata steps go through applyOperation and are judged as the
// metadata API judges them (runtime/metadata-api/contract.ts, `Effect`), so that the expected
// error bodies of the corpus can be compared with what the compiler side produces.
import { readFileSync } from 'node:fs';
import { introspectPostgres, type Introspection } from '../../compiler/introspect/index.js';
import type { Metadata } from '../../compiler/metadata/index.js';
import { resolveModel } from '../../compiler/model/index.js';
import { applyOperation, dependentLabel, dropObjects, emptyMetadata, knowsOperation } from '../../compiler/ops/index.js';
import { createPgDriver } from '../../runtime/drivers/index.js';
import { ApiError, formatPath } from '../../runtime/errors/index.js';
import type { InconsistentObject } from '../../runtime/metadata-api/index.js';
import { createTestDatabase } from '../helpers/database.js';
import { sharedPath } from '../helpers/shared.js';

/** The conformance folder of the shared folder (KILN_SHARED or ../shared). */
export const CONFORMANCE = sharedPath('conformance');

/** One operation of a corpus file: a setup step (status null) or a test step with its expected answer. */
export interface Step {
  readonly api: 'metadata' | 'query';
  readonly op: { type: string; args: never; version?: number };
  readonly status: number | null;
  readonly response: { code?: string; error?: string; path?: string; internal?: unknown } | null;
}

/** The steps of one corpus file; a missing or unreadable file throws (it is not "no steps"). */
export function readSteps(file: string, endpoint?: string): Step[] {
  const doc: unknown = JSON.parse(readFileSync(sharedPath('conformance', 'corpus', file.replace(/\.yaml$/, '.json')), 'utf8'));
  const out: Step[] = [];
  for (const t of (Array.isArray(doc) ? doc : [doc]) as Record<string, never>[]) {
    if (!t || typeof t !== 'object') continue;
    const url: string = t['url'] ?? endpoint ?? '/v1/query';
    if (!/v1\/(metadata|query)|v2\/query/.test(url)) continue;
    const q = (t['url'] ? t['query'] : t) as { type?: string; args?: unknown } | undefined;
    const api = url.includes('metadata') ? 'metadata' : 'query';
    const status = t['url'] ? (t['status'] ?? 200) : null;
    if (q?.type === 'bulk') for (const op of (q.args as Step['op'][]) ?? []) out.push({ api, op, status, response: null });
    else if (q?.type) out.push({ api, op: q as Step['op'], status, response: t['response'] ?? null });
  }
  return out;
}

export interface Outcome { readonly step: Step; readonly got: { code: string; error: string; path: string; internal?: unknown } | null }

function inconsistent(md: Metadata, catalog: Introspection): readonly InconsistentObject[] {
  return resolveModel(md, { engineVersion: 'test', introspection: { default: catalog } }).inconsistencies.filter((i) => i.type !== 'source');
}

/**
 * Runs the steps on a fresh database; returns each metadata step with what it gave, and the SQL
 * steps that failed although they were meant to succeed (a setup step, or a test step expecting 200).
 */
export async function replay(steps: readonly Step[]): Promise<{ outcomes: Outcome[]; sqlFailures: string[]; final: readonly InconsistentObject[] }> {
  const db = await createTestDatabase('ops_corpus', 'create schema hge_tests');
  const driver = createPgDriver({ url: db.url, max: 1 });
  const outcomes: Outcome[] = [];
  const sqlFailures: string[] = [];
  try {
    let catalog = await introspectPostgres(driver);
    let md = emptyMetadata();
    for (const step of steps) {
      const { api, op } = step;
      if (op.type === 'run_sql') {
        const text = (op.args as { sql: string }).sql;
        try {
          await db.exec(text);
        } catch (e) {
          if (step.status === null || step.status === 200) sqlFailures.push(`${(e as Error).message}: ${text.slice(0, 200)}`);
        }
        catalog = await introspectPostgres(driver);
        continue;
      }
      if (!knowsOperation(op.type, api)) continue;
      let got: Outcome['got'] = null;
      try {
        const before = inconsistent(md, catalog);
        const r = applyOperation(md, { type: op.type, args: op.args, api, ...(op.version !== undefined ? { version: op.version } : {}) }, { default: catalog });
        if (r.metadata) {
          const fresh = inconsistent(r.metadata, catalog).filter((a) => !before.some((b) => b.type === a.type && b.name === a.name));
          if (fresh.length === 0) md = r.metadata;
          else if (r.effect.kind === 'drop' && r.effect.cascade) md = dropObjects(r.metadata, fresh);
          else if (r.effect.kind === 'drop') {
            got = { code: 'dependency-error', path: '$.args', error: `cannot drop due to the following dependent objects : ${[...new Set(fresh.map(dependentLabel))].sort().join(', ')}` };
          } else {
            const target = r.effect.kind === 'create' ? r.effect.object : undefined;
            const own = target ? fresh.find((f) => f.type === target.type && f.name === target.name) : undefined;
            got = own ? { code: 'invalid-configuration', path: '$.args', error: own.reason, internal: fresh }
              : { code: 'unexpected', path: '$.args', error: 'cannot continue due to new inconsistent metadata', internal: fresh };
          }
        }
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        got = { code: e.code, error: e.message, path: formatPath(e.path) };
      }
      outcomes.push({ step, got });
    }
    return { outcomes, sqlFailures, final: inconsistent(md, catalog) };
  } finally {
    await driver.close();
    await db.drop();
  }
}
