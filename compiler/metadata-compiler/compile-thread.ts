// The worker thread the metadata API compiles in (compile-worker.ts): started on the first
// compile, kept for the next ones, and not keeping the process alive. One compile at a time:
// each request names what this side holds of earlier answers, and the answer sends the rest
// (model-transfer.ts), so requests wait for the answer before them. A worker that dies is
// started again (and this side forgets what it held, so the new one sends everything).

import { Worker } from 'node:worker_threads';
import type { Json } from '../../runtime/bundle/index.js';
import type { Compiled, CompileOptions } from '../../runtime/metadata-api/index.js';
import { ReceivedParts } from './model-transfer.js';
import type { CompileAnswer, CompileRequest } from './worker-messages.js';

/** Compiles in a worker thread running the given file (build/compile-worker.mjs). */
export class CompileThread {
  private worker: Worker | null = null;
  private next = 1;
  private turn: Promise<unknown> = Promise.resolve();
  private waiting: { id: number; resolve: (c: Compiled) => void; reject: (e: Error) => void } | null = null;
  private readonly held = new ReceivedParts();
  /** The document text the worker last received (it need not be sent again). */
  private sentText: string | null = null;
  /** The stage timings of the last answer (milliseconds; `printedSchemas` counts schemas printed). */
  lastTimings: { readonly [stage: string]: number } = {};

  constructor(private readonly file: URL, private readonly engineVersion: string) {}

  compile(metadata: Json, introspection: { readonly [source: string]: Json | null }, opts: CompileOptions): Promise<Compiled> {
    const run = (): Promise<Compiled> => new Promise<Compiled>((resolve, reject) => {
      const id = this.next++;
      const w = this.started();
      const text = JSON.stringify(metadata);
      const same = text === this.sentText;
      this.sentText = text;
      const req: CompileRequest = { id, metadataText: same ? null : text, introspection, engineVersion: this.engineVersion,
        stringifyNumeric: opts.stringifyNumeric, inferFunctionPermissions: opts.inferFunctionPermissions ?? true, have: this.held.have() };
      this.waiting = { id, resolve, reject };
      w.ref(); // kept alive while a compile is under way
      w.postMessage(req);
    });
    const result = this.turn.then(run, run);
    this.turn = result.catch(() => undefined);
    return result;
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
    this.held.clear();
    this.sentText = null;
    w.on('message', (a: CompileAnswer) => {
      const waiter = this.waiting;
      if (!waiter || waiter.id !== a.id) return;
      this.waiting = null;
      w.unref();
      if ('error' in a) {
        const e = new Error(a.error.message);
        e.stack = a.error.stack;
        waiter.reject(e);
        return;
      }
      this.lastTimings = a.timings;
      try {
        const { model, sdl } = this.held.unpack(a.model, a.sdl);
        waiter.resolve({ model, sdl, inconsistencies: a.inconsistencies });
      } catch (e) {
        // What this side held and what the worker thought it held disagree: start over with a new worker.
        this.held.clear();
        waiter.reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
    const fail = (e: Error): void => {
      if (this.worker === w) this.worker = null;
      const waiter = this.waiting;
      this.waiting = null;
      waiter?.reject(e);
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the compile worker stopped (exit code ${code})`)));
    w.unref();
    this.worker = w;
    return w;
  }
}
