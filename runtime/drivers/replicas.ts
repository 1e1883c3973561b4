// Reading from streaming replicas. A source with read replicas answers its queries and
// subscriptions from one of them, picked at random for each call (as Hasura does); writes never
// come here (the engine runs mutations on the primary's driver). A replica that fails to answer
// because its connection failed (refused, reset, shutting down, still starting) is left out for a
// pause that grows while it keeps failing (1 s doubling up to 30 s) and the call is made again on
// another replica, or on the primary when none is up. A read is safe to run twice; a statement
// error (a bad query, a recovery conflict) is the caller's answer and is not retried.

import type { CallOptions, Driver, QueryResult, ScriptResult, TransactionOptions, TransactionRunner } from './driver.js';
import { ConnectionError } from './database-error.js';

/** How a read-replica driver picks and retries. */
export interface ReplicaReaderOptions {
  /** The source's own database: what answers when no replica is up. */
  readonly primary: Driver;
  readonly replicas: readonly Driver[];
  /** A label per replica for the log (its redacted URL); default `replica <n>`. */
  readonly labels?: readonly string[];
  /** First pause after a failure, milliseconds (default 1000); doubles per failure up to `maxBackoffMs`. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** In [0, 1); default Math.random. */
  readonly random?: () => number;
  readonly now?: () => number;
  readonly log?: (line: string) => void;
}

/** Where the reads of a source go, and which replicas are left out now. */
export interface ReplicaReader extends Driver {
  /** Per replica: up, or left out until a time (ms since the epoch). */
  status(): readonly { readonly label: string; readonly up: boolean; readonly retryAt: number | null }[];
}

interface Member {
  readonly driver: Driver;
  readonly label: string;
  failures: number;
  retryAt: number;
}

/** True for an error that says the database could not be reached, not that the statement failed. */
export function isConnectionError(e: unknown): boolean {
  if (e instanceof ConnectionError) return true;
  const internal = (e as { internal?: { error?: { exec_status?: unknown } } } | null)?.internal;
  return internal?.error?.exec_status === 'ConnectionError';
}

/** A Driver that reads from the replicas (random pick, failing ones skipped for a while), else the primary. */
export function createReplicaReader(o: ReplicaReaderOptions): ReplicaReader {
  const base = o.backoffMs ?? 1000;
  const max = o.maxBackoffMs ?? 30_000;
  const random = o.random ?? Math.random;
  const now = o.now ?? Date.now;
  const log = o.log ?? ((line: string) => { process.stderr.write(`${line}\n`); });
  const members: Member[] = o.replicas.map((driver, i) => ({ driver, label: o.labels?.[i] ?? `replica ${i + 1}`, failures: 0, retryAt: 0 }));

  const failed = (m: Member, e: unknown): void => {
    const pause = Math.min(base * 2 ** m.failures, max);
    m.failures++;
    m.retryAt = now() + pause;
    log(`kiln: read replica ${m.label} is unreachable (${e instanceof Error ? e.message : String(e)}); reading elsewhere for ${pause} ms`);
  };
  const succeeded = (m: Member): void => {
    if (m.failures > 0) log(`kiln: read replica ${m.label} answers again`);
    m.failures = 0;
    m.retryAt = 0;
  };

  /** Runs `fn` on a random replica that is up; on a connection failure, on another; at last on the primary. */
  async function read<T>(fn: (d: Driver) => Promise<T>): Promise<T> {
    const tried = new Set<Member>();
    for (;;) {
      const t = now();
      const up = members.filter((m) => !tried.has(m) && m.retryAt <= t);
      if (up.length === 0) return fn(o.primary);
      const m = up[Math.min(up.length - 1, Math.floor(random() * up.length))]!;
      tried.add(m);
      try {
        const answer = await fn(m.driver);
        succeeded(m);
        return answer;
      } catch (e) {
        if (!isConnectionError(e)) throw e;
        failed(m, e);
      }
    }
  }

  return {
    dialect: o.primary.dialect,
    queryText: (text: string, params: readonly unknown[], name?: string, valueSensitive?: boolean, opts?: CallOptions): Promise<string> =>
      read((d) => d.queryText(text, params, name, valueSensitive, opts)),
    query: (text: string, params?: readonly unknown[], opts?: CallOptions): Promise<QueryResult> => read((d) => d.query(text, params, opts)),
    runScript: (text: string, opts?: CallOptions): Promise<ScriptResult> => read((d) => d.runScript(text, opts)),
    // The transactions asked of a reader hold reads only (a role's time limit wraps its query in one).
    transaction: <T>(fn: (tx: TransactionRunner) => Promise<T>, opts?: TransactionOptions): Promise<T> => read((d) => d.transaction(fn, opts)),
    status: () => members.map((m) => ({ label: m.label, up: m.retryAt <= now(), retryAt: m.retryAt <= now() ? null : m.retryAt })),
    // The replicas are this reader's own; the primary belongs to whoever opened it.
    close: async () => {
      for (const m of members) await m.driver.close().catch(() => undefined);
    },
  };
}
