// The worker thread the metadata API compiles in (compile-worker.ts): started on the first
// compile, kept for the next ones, and not keeping the process alive. One compile at a time
// (the metadata API applies one change at a time anyway); a worker that dies is started again.

import { Worker } from 'node:worker_threads';
import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled } from '../../runtime/metadata-api/index.js';
import { unpackSdl, type CompileAnswer, type CompileRequest } from './worker-messages.js';

/** Compiles in a worker thread running the given file (build/compile-worker.mjs). */
export class CompileThread {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (c: Compiled) => void; reject: (e: Error) => void }>();

  constructor(private readonly file: URL, private readonly engineVersion: string) {}

  compile(metadata: Json, introspection: { readonly [source: string]: Json | null }, opts: { readonly stringifyNumeric: boolean }): Promise<Compiled> {
    const id = this.next++;
    const req: CompileRequest = { id, metadata, introspection, engineVersion: this.engineVersion, stringifyNumeric: opts.stringifyNumeric };
    return new Promise<Compiled>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const w = this.started();
      w.ref(); // kept alive while a compile is under way
      w.postMessage(req);
    });
  }

  /** Stops the worker (tests; a served process lets it go with the process). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.file);
    w.on('message', (a: CompileAnswer) => {
      const waiter = this.waiting.get(a.id);
      this.waiting.delete(a.id);
      if (this.waiting.size === 0) w.unref();
      if (!waiter) return;
      if ('error' in a) {
        const e = new Error(a.error.message);
        e.stack = a.error.stack;
        waiter.reject(e);
      } else waiter.resolve({ model: a.model, sdl: unpackSdl(a.sdlTexts, a.sdlIndex), inconsistencies: a.inconsistencies });
    });
    const fail = (e: Error): void => {
      if (this.worker === w) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(e);
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the compile worker stopped (exit code ${code})`)));
    w.unref();
    this.worker = w;
    return w;
  }
}
