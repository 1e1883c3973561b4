// The compile of the metadata API, run in a worker thread (issue 19): resolving a 1,000-table
// document and building its role schemas takes seconds, which on the event loop would stop every
// query meanwhile. scripts/build.mjs writes this file as build/compile-worker.mjs beside the CLI.
//
// A message is { id, metadata, introspection, engineVersion, stringifyNumeric }; the answer is
// { id, model, sdlTexts, sdlIndex, inconsistencies } (roles that see the same schema share one
// SDL text: it is sent once) or { id, error }.

import { parentPort } from 'node:worker_threads';
import type { Json } from '../../runtime/bundle/index.js';
import type { Introspection } from '../introspect/index.js';
import type { Metadata } from '../metadata/index.js';
import { compileModel } from '../emit/index.js';
import { packSdl, type CompileRequest, type CompileAnswer } from './worker-messages.js';

parentPort?.on('message', (req: CompileRequest) => {
  let answer: CompileAnswer;
  try {
    const present = Object.fromEntries(Object.entries(req.introspection).filter((e): e is [string, Json] => e[1] !== null)) as unknown as { [s: string]: Introspection };
    const { model, sdl, inconsistencies } = compileModel({ metadata: req.metadata as unknown as Metadata, introspection: present,
      engineVersion: req.engineVersion, stringifyNumeric: req.stringifyNumeric });
    answer = { id: req.id, model, ...packSdl(sdl), inconsistencies };
  } catch (e) {
    answer = { id: req.id, error: { message: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack ?? '' : '' } };
  }
  parentPort!.postMessage(answer);
});
