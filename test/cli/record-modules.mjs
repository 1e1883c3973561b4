// Preloaded with `node --import` by the kiln-runtime test: appends to $KILN_MODULE_LOG the file
// of every module the process loads, ES modules through a resolve hook and CommonJS through
// require's resolver, so the test can list what serving really loaded.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const out = process.env.KILN_MODULE_LOG;
if (!out) throw new Error('record-modules.mjs needs KILN_MODULE_LOG');
register('./record-modules-hooks.mjs', import.meta.url, { data: { out } });
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function recorded(...args) {
  const file = resolveFilename.apply(this, args);
  appendFileSync(out, `require ${file}\n`);
  return file;
};
