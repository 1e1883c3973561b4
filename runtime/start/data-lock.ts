// The embedded database's folder belongs to one process at a time: PGlite is PostgreSQL inside
// the process, with no server to arbitrate, so two demos on one folder would both write its files.
// A lock file beside the folder (`<folder>.lock`, outside it so PGlite never sees it) holds the
// owner's pid; a second process is refused with that pid, and a lock whose process is gone (a
// crash, a kill -9) is taken over.

import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { StartError } from './start-error.js';

interface Holder { readonly pid: number; readonly host: string; readonly since: string }

/** A held lock: release it when the folder is closed (also done at exit). */
export interface DataLock { readonly path: string; release(): void }

function readHolder(path: string): Holder | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof v.pid === 'number' ? { pid: v.pid, host: String(v.host ?? ''), since: String(v.since ?? '') } : null;
  } catch {
    return null;
  }
}

/** True while a process with this pid exists (EPERM: it exists, owned by someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StartError(`cannot create the lock ${path}: ${(e as Error).message}`, 1);
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }) + '\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Moves a stale lock aside, but only if it is still the one found stale: another process may
 * have taken it over meanwhile, and its fresh lock must stay.
 */
function removeStale(path: string, stale: Holder | null): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // gone already: someone else took it over, the next attempt will see theirs
  }
  const moved = readHolder(aside);
  if (stale !== null && moved !== null && moved.pid !== stale.pid) {
    renameSync(aside, path);
    return;
  }
  unlinkSync(aside);
}

/** Takes the lock of the embedded data folder `dir`, or fails naming the process that holds it. */
export function lockDataDir(dir: string, log: (line: string) => void): DataLock {
  const path = `${dir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) {
      let held = true;
      const release = (): void => {
        if (!held) return;
        held = false;
        process.removeListener('exit', release);
        // Only our own lock is removed (a takeover after a long pause must not lose its lock).
        if (readHolder(path)?.pid === process.pid) {
          try { unlinkSync(path); } catch { /* already gone */ }
        }
      };
      process.on('exit', release);
      return { path, release };
    }
    const holder = readHolder(path);
    // A process on another host cannot be seen from here: its lock is never taken as stale.
    if (holder !== null && (holder.host !== hostname() || (holder.pid !== process.pid && alive(holder.pid)))) {
      const where = holder.host === hostname() ? '' : ` on host ${holder.host}`;
      throw new StartError(`the embedded data folder ${dir} is in use by process ${holder.pid}${where} (since ${holder.since}); stop it, or use another --data-dir (lock: ${path})`, 1);
    }
    log(`taking over the lock of ${dir}: ${holder === null ? 'it is unreadable' : `process ${holder.pid} no longer runs`}`);
    removeStale(path, holder);
  }
  throw new StartError(`cannot take the lock ${path}: other processes keep taking it`, 1);
}
