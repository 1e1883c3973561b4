// The change feed of one PostgreSQL source: the tables live queries read carry a statement-level
// trigger that notifies a channel (its SQL: runtime/sql/render/postgres/change-feed.ts), and one dedicated connection LISTENs on
// it. A poller watches the tables its plan reads and refetches when one of them changed; it
// relies on the feed only while the feed is healthy for it (LISTEN holds and every one of its
// tables carries the trigger), and polls on its interval otherwise.

import type { ChannelListener, Driver } from '../drivers/index.js';
import {
  CHANGE_CHANNEL, CHANGE_TRIGGER, FUNCTION_PRESENT, FUNCTION_SIGNATURE, INSTALL_FUNCTION, LOCK_TIMEOUT, TABLE_STATES, createTrigger, type QualifiedName,
} from '../sql/index.js';
import { keyOfPayload, tableKey } from './change-keys.js';

/** What a watching poller is told. */
export interface FeedWatcher {
  /** A table it reads changed (a commit notified it). */
  changed(): void;
  /** The feed became healthy (a change may have been missed before: refetch) or stopped being so (poll). */
  health(healthy: boolean): void;
}

/** A poller's watch of its tables. */
export interface FeedWatch {
  /** True while every change of the watched tables is sure to be notified. */
  healthy(): boolean;
  close(): void;
}

type TableState = 'pending' | 'ready' | 'unwatchable';

class Watch implements FeedWatch {
  wasHealthy = false;

  constructor(readonly keys: readonly string[], readonly watcher: FeedWatcher, private readonly feed: ChangeFeed) {}

  healthy(): boolean {
    return this.feed.healthyFor(this.keys);
  }

  close(): void {
    this.feed.unwatch(this);
  }
}

/** The change feed of one source. */
export class ChangeFeed {
  private listener: ChannelListener | null = null;
  private listening = false;
  private readonly states = new Map<string, TableState>();
  private readonly byTable = new Map<string, Set<Watch>>();
  private readonly watches = new Set<Watch>();
  private pending: QualifiedName[] = [];
  private installing = false;
  private functionReady = false;
  private disabled = false;
  private closed = false;
  /** Notifications received and refetches they caused (for the scale figures and tests). */
  notifications = 0;

  constructor(private readonly source: string, readonly driver: Driver, private readonly log: (line: string) => void) {}

  /** Watches `tables` for `w`. */
  watch(tables: readonly QualifiedName[], w: FeedWatcher): FeedWatch {
    const keys = tables.map((t) => tableKey(t.schema, t.name));
    const watch = new Watch(keys, w, this);
    this.watches.add(watch);
    for (const k of keys) {
      let set = this.byTable.get(k);
      if (!set) this.byTable.set(k, (set = new Set()));
      set.add(watch);
    }
    tables.forEach((t, i) => {
      const state = this.states.get(keys[i]!);
      if (state === 'unwatchable' || state === 'pending') return;
      // A table already watched is checked again (one catalog query per new poller, not per
      // subscriber): it may have been dropped and created again since, without its trigger.
      if (state === undefined) this.states.set(keys[i]!, this.disabled ? 'unwatchable' : 'pending');
      if (!this.disabled) this.pending.push(t);
    });
    this.start();
    void this.install();
    return watch;
  }

  /** True when LISTEN holds and every table of `keys` carries the trigger. */
  healthyFor(keys: readonly string[]): boolean {
    return this.listening && keys.every((k) => this.states.get(k) === 'ready');
  }

  unwatch(w: Watch): void {
    if (!this.watches.delete(w)) return;
    for (const k of w.keys) this.byTable.get(k)?.delete(w);
    // No watcher left: the LISTEN connection goes until the next one comes.
    if (this.watches.size === 0) this.stop();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private start(): void {
    if (this.listener || this.closed || this.disabled || !this.driver.listen) return;
    this.listener = this.driver.listen(CHANGE_CHANNEL, {
      notify: (payload) => this.notified(payload),
      up: () => { this.listening = true; this.recheck(); },
      down: () => { this.listening = false; this.recheck(); },
    });
  }

  private stop(): Promise<void> {
    const l = this.listener;
    this.listener = null;
    this.listening = false;
    return l?.close() ?? Promise.resolve();
  }

  private notified(payload: string): void {
    const key = keyOfPayload(payload);
    if (key === null) return;
    this.notifications++;
    for (const w of this.byTable.get(key) ?? []) if (w.wasHealthy) w.watcher.changed();
  }

  // Tells every watcher whose health changed.
  private recheck(): void {
    for (const w of [...this.watches]) {
      const h = w.healthy();
      if (h === w.wasHealthy) continue;
      w.wasHealthy = h;
      w.watcher.health(h);
    }
  }

  // Puts the trigger on the pending tables, one batch at a time.
  private async install(): Promise<void> {
    if (this.installing || this.pending.length === 0) return;
    this.installing = true;
    const batch = [...new Map(this.pending.map((t) => [tableKey(t.schema, t.name), t])).values()];
    this.pending = [];
    try {
      await this.installBatch(batch);
    } finally {
      this.installing = false;
      this.recheck();
      if (this.pending.length > 0) void this.install();
    }
  }

  private async installBatch(batch: readonly QualifiedName[]): Promise<void> {
    const mark = (state: TableState, tables: readonly QualifiedName[]): void => {
      for (const t of tables) this.states.set(tableKey(t.schema, t.name), state);
    };
    try {
      if (!this.functionReady) {
        const present = async (): Promise<boolean> => (await this.driver.query(FUNCTION_PRESENT, [FUNCTION_SIGNATURE])).rows[0]?.[0] === true;
        if (!await present()) {
          // Another instance creating it at the same moment may make this fail ("tuple concurrently updated"): look again.
          await this.driver.transaction(async (tx) => { for (const s of INSTALL_FUNCTION) await tx.query(s); })
            .catch(async (e: unknown) => { if (!await present()) throw e; });
        }
        this.functionReady = true;
      }
    } catch (e) {
      // Without the function there is no feed on this source: every table polls.
      this.disabled = true;
      for (const k of this.states.keys()) this.states.set(k, 'unwatchable');
      this.pending = [];
      void this.stop();
      this.log(`warning: no change feed on source "${this.source}" (live queries poll): cannot create ${FUNCTION_SIGNATURE}: ${messageOf(e)}`);
      return;
    }
    const states = async (): Promise<Map<string, { kind: string; has: boolean }>> => {
      const r = await this.driver.query(TABLE_STATES, [batch.map((t) => t.schema), batch.map((t) => t.name), CHANGE_TRIGGER]);
      return new Map(r.rows.map((row) => [tableKey(String(row[0]), String(row[1])), { kind: String(row[2]), has: row[3] === true }]));
    };
    try {
      const before = await states();
      const plain = batch.filter((t) => before.get(tableKey(t.schema, t.name))?.kind === 'r');
      // Views, partitioned and foreign tables: a trigger on them would not see every change.
      mark('unwatchable', batch.filter((t) => !plain.includes(t)));
      const failures: string[] = [];
      const missing = plain.filter((t) => !before.get(tableKey(t.schema, t.name))!.has);
      // A table found without its trigger is not watched until it has it again: its pollers poll.
      mark('pending', missing);
      if (missing.length) this.recheck();
      for (const t of missing) {
        // Another instance may create it at the same moment: the state read after decides.
        // CREATE TRIGGER waits for the transactions using the table, and writers queue behind it:
        // it gives up after LOCK_TIMEOUT rather than stall them (the table is polled then).
        await this.driver.transaction(async (tx) => {
          await tx.query(LOCK_TIMEOUT);
          await tx.query(createTrigger(t));
        }).catch((e: unknown) => { failures.push(`${t.schema}.${t.name}: ${messageOf(e)}`); });
      }
      const after = failures.length ? await states() : before;
      for (const t of plain) {
        const key = tableKey(t.schema, t.name);
        this.states.set(key, after.get(key)?.has === true || !failures.length ? 'ready' : 'unwatchable');
      }
      if (failures.length) this.log(`warning: live queries on these tables poll (cannot create their change trigger): ${failures.join('; ')}`);
    } catch (e) {
      mark('unwatchable', batch);
      this.log(`warning: live queries on source "${this.source}" poll: cannot read or create change triggers: ${messageOf(e)}`);
    }
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
