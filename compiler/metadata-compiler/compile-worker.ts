// The compile of the metadata API, run in a worker thread (issue 19): resolving a 1,000-table
// document takes a second or more, which on the event loop would stop every query meanwhile.
// scripts/build.mjs writes this file as build/compile-worker.mjs beside the CLI.
//
// The worker keeps the role schemas of its earlier compiles (schema-cache.ts): a change rebuilds
// the schemas of the roles it touches, and the answer carries only the parts of the model and
// SDL the serving thread does not hold already (model-transfer.ts).

import { parentPort } from 'node:worker_threads';
import { packModel, packSdl } from './model-transfer.js';
import { compileWithCache } from './incremental.js';
import { SchemaCache } from './schema-cache.js';
import type { CompileAnswer, CompileRequest } from './worker-messages.js';

const cache = new SchemaCache();

parentPort?.on('message', (req: CompileRequest) => {
  let answer: CompileAnswer;
  try {
    const started = performance.now();
    const { model, sdl, inconsistencies } = compileWithCache(cache, req.metadata, req.introspection, req.engineVersion, { stringifyNumeric: req.stringifyNumeric });
    const compiled = performance.now();
    const packed = packModel(model, new Set(req.have.entries));
    const texts = packSdl(sdl, cache.lastKeys, new Set(req.have.texts));
    const timings = { compile: compiled - started, pack: performance.now() - compiled, printedSchemas: cache.lastPrinted };
    answer = { id: req.id, model: packed, sdl: texts, inconsistencies, timings };
  } catch (e) {
    answer = { id: req.id, error: { message: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack ?? '' : '' } };
  }
  parentPort!.postMessage(answer);
});
