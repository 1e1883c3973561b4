// The resolve hook record-modules.mjs registers (it runs on the loader thread).
import { appendFileSync } from 'node:fs';

let out = '';

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(out, `import ${r.url}\n`);
  return r;
}
