// The pipeline lane: a few PostgreSQL connections that take the engine's statements pipelined.
//
// A statement the engine sends alone (a query's, or a mutation's only one: its own implicit
// transaction, no session setting of its own) may go here instead of the pool. A lane connection
// takes statements one behind another without waiting for each answer (the extended protocol's
// pipelining, pg's `pipeline` mode: each statement ends with its own Sync, so one failing fails
// alone), and what is sent on one connection in one turn of the event loop goes out in one write.
// Against the pool (a connection per statement, a write and a wake-up of a backend per statement), the ideal bench
// server made to send this way (two connections) answered 1.1 to 2.2 times as many requests on
// Q1, Q2 and Q6 as itself on a pool of ten, in one session's runs on this 2-core machine: fewer
// system calls in the server and in PostgreSQL, and backends that never wait for the next statement.
//
// What a pipeline costs: a statement waits for those before it on its connection. So a statement
// goes behind others only when it is expected to take at most QUEUE_BUDGET_MS itself (its recent
// service times, measured here and on the pool), the wait it would have is within that too (the
// statements in flight times the connection's mean time between answers), and the one running has
// not run longer; a statement not timed yet, or a slow one, goes only to a lane connection with
// nothing in flight. When no lane connection may take it, the caller runs it on the pool, as before.
//
// That budget is for a pool with a connection free. When it has none, a statement sent there waits
// for one: about the checkouts waiting ahead of it, each the pool's mean statement time over its
// size (pg.ts poolWait). The budget is then that wait when it is the longer, so that a statement
// goes where it would wait less. Measured on a slower machine than the budget's (2 cores where a
// statement took 2-4 times as long under load, and where each statement the pool sent cost this
// process about 130 µs in the write that wakes a backend, against one write per turn for all of a
// lane connection's), in three alternating rounds of 4 s next to the ideal server at 64
// connections: Q1 1.31 of it against 0.99 with the fixed budget, Q2 1.23 against 0.92, Q4 1.14
// against 0.90, Q3, Q5 and Q6 1.05-1.32 against 0.98-1.17, p99 at most 1.83 × the ideal's; at 16
// connections the two were alike within the machine's noise (Q1-Q6 0.86-1.11 against 0.87-1.18;
// Q7, the insert, 0.64 and 1.12 against 0.76 and 0.91 in two such runs).
//
// What a time estimate cannot foresee is a lock: a write waiting on a row another transaction
// holds, or a read waiting behind DDL, would hold up everything queued after it for as long as the
// lock is held. So the lane's sessions set lock_timeout to QUEUE_BUDGET_MS: a statement that waits
// longer for a lock fails there (SQLSTATE 55P03, its implicit transaction rolled back, nothing of
// it applied) and the caller runs it again on the pool, where it waits as long as the source allows.
// Such a statement then stays on the pool until a run there is quick again.
//
// A write sent alone (a mutation's only statement, marked by the engine) goes behind others only
// while the pool has no connection free, and only where its wait is shorter than the pool's
// (poolWait); there it may queue past the read's bound, up to MAX_DEPTH. Each insert in a pipeline
// waits for the commit flushes of those before it, one after another, where inserts on pool
// connections commit side by side and share a flush (PostgreSQL's group commit). Measured on bench
// Q7 (an insert returning its row, autocommit) at 16 connections, with writes queued to MAX_DEPTH
// whenever the head had not run long: a statement's time from its sending to its answer was 1.98
// ms on average against 1.14 ms with no lane, and PostgreSQL used 58-64% of a core against 76-79%
// with this rule (the ideal server 80-88%: 5 alternating rounds of each, a CHECKPOINT before every
// round). At 64 connections, where the pool is always busy, writes still queue (0.91 of the ideal
// server before this rule, 1.00 with it, p99 at most 1.4 × the ideal's in both). Under that load a
// lane backend answers an insert every 1-3 ms, so the read's wait bound would let one or two queue
// per connection and send the rest to the pool, where each insert costs a write and a wake-up of
// its own. Reads keep the bound: queued as deep, bench Q5's p99 rose to 2.75 × the ideal's.

import pg from 'pg';
import { DEFAULT_MAX_MESSAGE_BYTES, guardedClient } from './pg-guard.js';
import { connectionConfig, SESSION_SETUP, type PoolSettings } from './pg-pool.js';

/**
 * The longest wait behind other statements one is sent to, ms; also the longest a statement may
 * be expected to take to go behind others, and the longest the statement at the head may have run.
 * Times are measured by this process: under load they include the wait for the event loop to read
 * the answer (a few milliseconds at most), so the budget is above that, and well under the time of
 * a statement that would hold others up. A larger budget queued more and answered no more (bench
 * Q5 at 10 ms: p99 2.7 times the pool's); at 2 ms most statements went to the pool under load.
 */
export const QUEUE_BUDGET_MS = 4;
/**
 * Statements in flight on one lane connection at most. A lane connection answers in order, so one
 * slow statement (or a backend the OS holds off the CPU) delays everything queued behind it; the
 * pool's waiters are spread over ten connections instead. Measured at 64 connections on bench Q4,
 * the answer times split by where each statement ran (same server, same run): with 32, the lane's
 * p99 was 62-126 ms against the pool's 28-33 ms (the whole p99 about 50 ms); with 8, 23-25 ms against
 * 25-54 ms (the whole p99 26-27 ms); with 4, 16-20 ms against 30-51 ms, more going to the pool. At
 * 16 connections 8 and 32 were alike within the noise (Q1, Q7).
 */
export const MAX_DEPTH = 8;
/**
 * Reads in flight on one lane connection at most (a write may queue to MAX_DEPTH). A lane
 * connection answers in order, so a read queued there waits out any stall of the one before it (a
 * backend the OS holds off the CPU), where the pool's ten connections stall apart; deeper queues
 * answer more reads for fewer system calls and a longer tail. At 16 connections on bench Q5, an
 * 8-deep lane had p99 1.5-3.2 times the ideal server's. On bench Q3, Q4 and Q5 at 16 and 64
 * connections (2026-12-01, alternating 3-second rounds next to the ideal server, three rounds per
 * cell, max p99 ratio of a cell and its mean req/s ratio): with 4, p99 up to 2.14-4.10 × the
 * ideal's at 16 connections (Q3, Q4, Q5) for 0.93-1.10 of its req/s; with 2, p99 at most 1.22-2.00
 * × but Q4 at 64 connections 0.87-0.91 of its req/s; with 3, p99 at most 1.18-1.95 × and 0.94-1.06
 * of its req/s in every cell.
 */
export const MAX_READ_DEPTH = 3;
/** After a lane connection could not be opened, how long the pool alone serves, ms. */
const RETRY_AFTER_MS = 1000;
/** The application_name of the lane's sessions (a URL's own application_name wins). */
export const LANE_APPLICATION_NAME = 'kiln pipeline lane';
/** What a lane session sets besides the pool's setup: a lock wait longer than the budget fails (see the header). */
const LANE_SETUP = `SET lock_timeout = '${QUEUE_BUDGET_MS}ms'`;
/** The SQLSTATE of a lock wait past lock_timeout: a lane statement that fails so runs again on the pool. */
export const LOCK_TIMEOUT_CODE = '55P03';
/** Statements whose service time is kept; past it the estimates start over (statement names are not bounded). */
const MAX_ESTIMATES = 10_000;

/** A statement's answer: its rows, or its error; `lost` when the connection broke under it. */
export type LaneDone = (err: Error | null, rows: unknown[][] | undefined, lost: boolean) => void;

/** Sends one statement on a client and calls back once with its rows (pg.ts's submitWith). */
export type LaneSubmit = (client: pg.Client, text: string, values: readonly unknown[], name: string,
  done: (err: Error | null, rows: unknown[][] | undefined) => void) => void;

interface Sent {
  readonly name: string;
  /** Not timed yet when it was sent: nothing goes behind it. */
  readonly untimed: boolean;
}

/** The socket under a pg client (pg's connection keeps it as `stream`). */
interface Socket { ref?(): void; unref?(): void; cork(): void; uncork(): void }
const socketOf = (client: pg.Client): Socket => (client as unknown as { connection: { stream: Socket } }).connection.stream;

/** One pipelined connection and what is in flight on it, in the order the answers come. */
export interface LaneConnection {
  readonly client: pg.Client;
  readonly opened: number;
  readonly inFlight: Sent[];
  /** How many in flight have no expected time (not timed yet). */
  unknown: number;
  /**
   * The mean time between two answers while the connection is busy, ms: what each statement in
   * flight adds to the wait of one sent now. Measured per connection, since several answers often
   * arrive in one read and a statement's own time then says little.
   */
  meanService: number;
  served: number;
  /** When the statement at the head started being served: its sending, or its predecessor's answer. */
  headSince: number;
  lastUsed: number;
  corked: boolean;
  lost: boolean;
  retiring: boolean;
}

/** What the lane reports for the pool statistics. */
export interface LaneStats {
  readonly total: number;
  readonly idle: number;
  readonly max: number;
}

/** The pipeline lane of one driver: `size` connections, opened on first use. */
export class PipelineLane {
  private readonly connections: LaneConnection[] = [];
  private readonly estimates = new Map<string, number>();
  /** Statements whose lane run waited on a lock past lock_timeout: kept off the lane until a pool run is quick. */
  private readonly locked = new Set<string>();
  private readonly corked: LaneConnection[] = [];
  private flushScheduled = false;
  private opening = false;
  private retryAt = 0;
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly Client: typeof pg.Client;

  constructor(private readonly settings: PoolSettings, private readonly size: number, private readonly options: string,
    private readonly submit: LaneSubmit) {
    this.Client = guardedClient(settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  /**
   * The lane connection that may take the statement now: the first with nothing in flight, else
   * the one with the shortest expected wait among those where it fits the budget and MAX_READ_DEPTH
   * (a write: only while the pool has no connection free, where it waits less than there and fits
   * MAX_DEPTH; see the header); null when none may (the caller runs it elsewhere). Opens a
   * missing connection meanwhile. `poolWait` is the wait the statement would have on the pool (ms,
   * 0 while a pool connection is free): the budget is QUEUE_BUDGET_MS or that, the longer.
   */
  connectionFor(name: string, write = false, poolWait = 0): LaneConnection | null {
    // While the pool has no connection free, the pool is a wait too: up to as long may be queued here.
    const budget = Math.max(QUEUE_BUDGET_MS, poolWait);
    if (this.closed) return null;
    if (this.connections.length < this.size) this.openOne();
    const expected = this.estimates.get(name);
    const canQueue = expected !== undefined && expected <= budget;
    // One that met a lock here goes to the pool until a run there is quick again (a hot row would
    // otherwise cost every run the lane's lock_timeout before the pool's wait).
    if (this.locked.size > 0 && this.locked.has(name)) return null;
    const now = performance.now();
    let best: LaneConnection | null = null;
    for (const c of this.connections) {
      if (c.inFlight.length === 0) return c;
      if (!canQueue || c.unknown > 0 || c.inFlight.length >= (write ? MAX_DEPTH : MAX_READ_DEPTH)) continue;
      const wait = c.inFlight.length * c.meanService;
      // A read within the budget; a write only where the pool would keep it waiting longer (see the header).
      if ((write ? poolWait === 0 || wait > poolWait : wait + expected > budget) || now - c.headSince > budget) continue;
      if (best === null || wait < best.inFlight.length * best.meanService) best = c;
    }
    return best;
  }

  /** Sends the statement on `c` (from connectionFor, in the same turn); `done` is called once. */
  send(c: LaneConnection, text: string, values: readonly unknown[], name: string, done: LaneDone): void {
    if (c.inFlight.length === 0) {
      c.headSince = performance.now();
      // Only a connection with a statement in flight keeps the process alive.
      socketOf(c.client).ref?.();
    }
    const untimed = !this.estimates.has(name);
    c.inFlight.push({ name, untimed });
    if (untimed) c.unknown++;
    if (!c.corked) this.cork(c);
    this.submit(c.client, text, values, name, (err, rows) => this.answered(c, err, rows, done));
  }

  /** Lane connections open and idle, for the pool statistics. */
  stats(): LaneStats {
    let idle = 0;
    for (const c of this.connections) if (c.inFlight.length === 0) idle++;
    return { total: this.connections.length, idle, max: this.size };
  }

  /** Closes every lane connection (a statement still in flight fails with a connection error). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer !== null) clearInterval(this.idleTimer);
    this.flush();
    await Promise.all(this.connections.splice(0).map((c) => c.client.end().catch(() => undefined)));
  }

  private answered(c: LaneConnection, err: Error | null, rows: unknown[][] | undefined, done: LaneDone): void {
    const sent = c.inFlight.shift();
    const now = performance.now();
    if (sent !== undefined && !c.lost) {
      if (sent.untimed) c.unknown--;
      // Its service time: from when it reached the head of the connection to its answer. A
      // connection that broke says nothing about the statement.
      const ms = now - c.headSince;
      this.learn(sent.name, ms);
      c.meanService = c.served === 0 ? ms : c.meanService + (ms - c.meanService) / 16;
      c.served++;
    }
    c.headSince = now;
    c.lastUsed = now;
    if (c.inFlight.length === 0) {
      socketOf(c.client).unref?.();
    }
    // One past its lifetime takes no more statements, and is closed once those on it are answered.
    if (c.retiring ? c.inFlight.length === 0 : this.expired(c, now)) this.retire(c);
    done(err, rows, c.lost);
  }

  /** Notes that a statement's lane run waited on a lock past lock_timeout (it runs on the pool now). */
  lockTimedOut(name: string): void {
    if (this.locked.size >= MAX_ESTIMATES) this.locked.clear();
    this.locked.add(name);
  }

  /** Records a statement's service time measured elsewhere (a run on the pool), ms. */
  observe(name: string, ms: number): void {
    this.learn(name, ms);
    if (ms <= QUEUE_BUDGET_MS) this.locked.delete(name);
  }

  // A moving average over the last few runs: a statement that became slow (a lock, a larger table)
  // soon stops going behind others, and one slow run (a pause of this process that delayed the
  // answer's reading) does not keep it out for long.
  private learn(name: string, ms: number): void {
    const before = this.estimates.get(name);
    if (before === undefined && this.estimates.size >= MAX_ESTIMATES) this.estimates.clear();
    this.estimates.set(name, before === undefined ? ms : before + (ms - before) / 4);
  }

  private expired(c: LaneConnection, now: number): boolean {
    const lifetime = this.settings.maxLifetimeSeconds;
    return lifetime > 0 && now - c.opened > lifetime * 1000;
  }

  // Taken out of the lane at once; closed once nothing is in flight on it (answered calls it again then).
  private retire(c: LaneConnection): void {
    c.retiring = true;
    const i = this.connections.indexOf(c);
    if (i >= 0) this.connections.splice(i, 1);
    if (c.inFlight.length === 0) c.client.end().catch(() => undefined);
  }

  // What is written in this turn of the event loop goes out together, after the turn's I/O.
  private cork(c: LaneConnection): void {
    socketOf(c.client).cork();
    c.corked = true;
    this.corked.push(c);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    for (const c of this.corked) {
      c.corked = false;
      socketOf(c.client).uncork();
    }
    this.corked.length = 0;
  };

  private openOne(): void {
    if (this.opening || this.closed || performance.now() < this.retryAt) return;
    this.opening = true;
    // Named, so that pg_stat_activity tells the lane's sessions from the pool's.
    const client = new this.Client({ application_name: LANE_APPLICATION_NAME, ...connectionConfig(this.settings, this.options), pipeline: true } as pg.ClientConfig);
    const now = performance.now();
    const c: LaneConnection = {
      client, opened: now, inFlight: [], unknown: 0, meanService: 0, served: 0, headSince: now, lastUsed: now, corked: false, lost: false, retiring: false,
    };
    const lost = (why: string): void => {
      if (c.lost) return;
      c.lost = true;
      const ours = c.retiring;
      this.retire(c);
      if (!this.closed && !ours) this.settings.log(`kiln: PostgreSQL connection lost (pipeline lane): ${why}`);
    };
    client.on('error', (e: Error) => lost(e.message));
    // A backend that ends the session (pg_terminate_backend, a restart) may close it without an error event.
    client.on('end', () => lost('the server closed the connection'));
    const ready = (): void => {
      this.opening = false;
      if (this.closed || c.lost) {
        client.end().catch(() => undefined);
        return;
      }
      socketOf(client).unref?.();
      this.connections.push(c);
      this.watchIdle();
    };
    client.connect()
      .then(() => client.query(`${SESSION_SETUP}; ${LANE_SETUP}`))
      .then(ready, (e: Error) => {
        this.opening = false;
        this.retryAt = performance.now() + RETRY_AFTER_MS;
        c.lost = true;
        client.end().catch(() => undefined);
        // The pool reports the same failure to the requests; this is only the lane's note.
        if (!this.closed) this.settings.log(`kiln: could not open a pipeline-lane connection: ${e.message}`);
      });
  }

  // Lane connections idle for the pool's idle timeout are closed, as the pool closes its own.
  private watchIdle(): void {
    if (this.idleTimer !== null) return;
    const every = Math.max(1000, Math.min(this.settings.idleTimeoutMillis / 2, 60_000));
    this.idleTimer = setInterval(() => {
      const now = performance.now();
      for (const c of [...this.connections]) {
        if (c.inFlight.length === 0 && (now - c.lastUsed > this.settings.idleTimeoutMillis || this.expired(c, now))) this.retire(c);
      }
      if (this.connections.length === 0 && this.idleTimer !== null) {
        clearInterval(this.idleTimer);
        this.idleTimer = null;
      }
    }, every);
    this.idleTimer.unref();
  }
}

