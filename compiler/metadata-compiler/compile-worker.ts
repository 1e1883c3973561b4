// The compile of the metadata API, run in a worker thread (issue 19): resolving a 1,000-table
// document takes a second or more, which on the event loop would stop every query meanwhile.
// scripts/build.mjs writes this file as build/compile-worker.mjs beside the CLI.
//
// The worker keeps the role schemas of its earlier compiles (schema-cache.ts): a change rebuilds
// the schemas of the roles it touches, and the answer carries only the parts of the model and
// SDL the serving thread does not hold already (model-transfer.ts).

import { parentPort } from 'node:worker_threads';
import type { Json } from '../../runtime/bundle/index.js';
import { IncrementalCompiler } from './incremental.js';
import { packModel, packSdl } from './model-transfer.js';
import type { CompileAnswer, CompileRequest } from './worker-messages.js';

let compiler: IncrementalCompiler | null = null;
// The last document received, as text and as read (a request may say "the same again").
let lastText: string | null = null;
let lastDocument: Json = null;

parentPort?.on('message', (req: CompileRequest) => {
  let answer: CompileAnswer;
  try {
    const started = performance.now();
    compiler ??= new IncrementalCompiler(req.engineVersion);
    if (req.metadataText !== null) {
      lastText = null; // until it is read
      lastDocument = JSON.parse(req.metadataText) as Json;
      lastText = req.metadataText;
    } else if (lastText === null) throw new Error('assertion failed: the compile worker was asked for the same document again, and has none');
    const { model, sdl, inconsistencies } = compiler.compile(lastDocument, req.introspection, { stringifyNumeric: req.stringifyNumeric, inferFunctionPermissions: req.inferFunctionPermissions });
    const compiled = performance.now();
    const packed = packModel(model, new Set(req.have.entries), (v) => compiler!.reuse.digest(v));
    const texts = packSdl(sdl, compiler.schemas.lastKeys, new Set(req.have.texts));
    const timings = { compile: compiled - started, pack: performance.now() - compiled, printedSchemas: compiler.schemas.lastPrinted };
    answer = { id: req.id, model: packed, sdl: texts, inconsistencies, timings };
  } catch (e) {
    answer = { id: req.id, error: { message: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack ?? '' : '' } };
  }
  parentPort!.postMessage(answer);
});
