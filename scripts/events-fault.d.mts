// Types of scripts/events-fault.mjs for the TypeScript test that runs a small fault scenario.

export interface FaultOptions {
  readonly instances: number;
  readonly changes: number;
  readonly batch: number;
  readonly killAt: number;
  readonly restartAfterMs: number;
  readonly latencyMs: readonly [number, number];
  readonly retries: number;
  readonly deadlineMs: number;
  readonly env: Readonly<Record<string, string>>;
  readonly echo?: boolean;
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
}

export interface EventCounts {
  readonly total: number;
  readonly delivered: number;
  readonly error: number;
  readonly locked: number;
  readonly retried: number;
  readonly timedOut: boolean;
}

export interface FaultResult {
  readonly database: string;
  /** Row changes committed (inserts + updates). */
  readonly changes: number;
  readonly counts: EventCounts;
  readonly killed: {
    readonly pid: number | null;
    readonly label: string;
    readonly sentBefore: number;
    readonly inFlight: number;
    readonly lockedAtKill: ReadonlySet<string>;
    readonly orphans: number;
  };
  /** Events in svc_catalog.event_log. */
  readonly written: number;
  /** Distinct ids the webhook received. */
  readonly received: number;
  readonly deliveries: number;
  readonly missing: readonly string[];
  readonly unknown: readonly string[];
  readonly duplicates: number;
  readonly extraDeliveries: number;
  readonly explained: number;
  readonly unexplained: readonly string[];
  readonly hungUp: number;
  readonly perProcess: ReadonlyMap<number | 'unknown', number>;
  readonly restartAfterMs: number;
  readonly seconds: number;
  readonly stuck?: readonly Record<string, unknown>[];
}

/** Runs the fault scenario and returns its figures. */
export function runFault(o: FaultOptions): Promise<FaultResult>;
/** Prints the figures; returns the exit status. */
export function report(r: FaultResult, log?: (line: string) => void): number;
