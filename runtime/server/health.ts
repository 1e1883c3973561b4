// GET /healthz: the catalog's state and, when asked, each source's. The plain answer stays
// Hasura's (text `OK`, `WARN: ...`, `ERROR`); a client asking for JSON gets the report behind it.
// `?strict=true` answers 500 unless everything is healthy: the metadata consistent and every
// source answering a `SELECT 1`.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Driver } from '../drivers/index.js';
import { JSON_TYPE, send, unexpectedError } from './http-io.js';
import type { HealthState } from './options.js';

/** What /healthz asks of the server. */
export interface HealthContext {
  /** The catalog's state; absent for a served bundle (no catalog). */
  readonly catalog?: () => Promise<HealthState> | HealthState;
  /** The databases of the sources served now. */
  readonly sources?: () => ReadonlyMap<string, Driver>;
}

/** One source's answer to the probe. */
interface SourceHealth {
  readonly status: 'ok' | 'down';
  readonly error?: string;
}

// Long enough for a loaded database, short enough for a probe's own timeout (Kubernetes: 1 s by default,
// usually raised): a source that does not answer in time is reported down.
const PROBE_TIMEOUT_MS = 3000;

const TEXT: Readonly<Record<HealthState, string>> = { ok: 'OK', warn: 'WARN: inconsistent objects in schema', error: 'ERROR' };

async function probe(d: Driver): Promise<SourceHealth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([d.query('SELECT 1'), late]);
    return { status: 'ok' };
  } catch (e) {
    return { status: 'down', error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

async function catalogState(ctx: HealthContext): Promise<HealthState | 'none'> {
  if (!ctx.catalog) return 'none';
  try {
    return await ctx.catalog();
  } catch (e) {
    unexpectedError(e);
    return 'error';
  }
}

/** Answers GET /healthz (and /svc/healthz). */
export async function handleHealth(req: IncomingMessage, res: ServerResponse, ctx: HealthContext): Promise<void> {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const strict = query.get('strict') === 'true';
  const wantsJson = (req.headers.accept ?? '').includes('application/json');
  const catalog = await catalogState(ctx);
  // Sources are probed only when the answer depends on them or reports them: a plain liveness
  // probe costs no database round trip per source.
  const sources: Record<string, SourceHealth> = {};
  if (strict || wantsJson) {
    const entries = [...(ctx.sources?.() ?? new Map<string, Driver>())];
    const answers = await Promise.all(entries.map(([, d]) => probe(d)));
    entries.forEach(([name], i) => { sources[name] = answers[i]!; });
  }
  const anyDown = Object.values(sources).some((s) => s.status === 'down');
  let state: HealthState = catalog === 'none' ? 'ok' : catalog;
  if (anyDown && state === 'ok') state = 'warn';
  const status = state === 'error' || (strict && state !== 'ok') ? 500 : 200;
  if (!wantsJson) {
    // Hasura's texts; a source down (non-strict) reads as a warning.
    const text = state === 'warn' && anyDown && catalog !== 'warn' ? 'WARN: a source database is unreachable' : TEXT[state];
    send(res, status, 'text/plain; charset=utf-8', strict && status === 500 && state === 'warn' ? `ERROR: ${text.slice(6)}` : text);
    return;
  }
  send(res, status, JSON_TYPE, JSON.stringify({ status: state, strict, catalog, sources }));
}
