// Types of scripts/pg-replica.mjs for the TypeScript tests (test/helpers/replica.ts).

/** A running streaming replica. */
export interface Replica {
  readonly port: number;
  /** The URL of database `name` on the replica. */
  url(name: string): string;
  /** Stops the server (fast shutdown); `start()` brings it back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder; safe to call more than once. */
  destroy(): Promise<void>;
}

/** The test PostgreSQL (KILN_TEST_PG). */
export const PG_ROOT: string;
/** Why a replica of `root` cannot be made here (null: it can). */
export function replicaUnavailable(root?: string): Promise<string | null>;
/** Takes a base backup of `root` and starts it as a hot standby on a free port. */
export function startReplica(root?: string): Promise<Replica>;
/** Waits until `fn` gives a value (not undefined), at most `ms`. */
export function waitFor<T>(fn: () => Promise<T | undefined>, ms: number, what: string): Promise<T>;
