#!/usr/bin/env node
// `kiln compile` holds a whole bundle in memory while it shares text between roles: about 1.3 MB
// of heap per table at 20 roles, past V8's default limit (about 4 GB) at 5,000 tables. Unless a
// heap limit was given (--max-old-space-size in NODE_OPTIONS or on node's command line), compile
// runs in a child node whose limit is three quarters of the machine's memory. Set
// KILN_COMPILE_HEAP=default to keep V8's own limit.
import { spawnSync } from 'node:child_process';
import { totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';

const MB = 1024 * 1024;
const limitGiven = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith('--max-old-space-size'));
const wanted = Math.floor((totalmem() * 0.75) / MB);
if (process.argv[2] === 'compile' && !limitGiven && process.env.KILN_COMPILE_HEAP !== 'default'
  && getHeapStatistics().heap_size_limit < wanted * MB * 0.9) {
  const child = spawnSync(process.execPath, [`--max-old-space-size=${wanted}`, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' });
  if (child.error) throw child.error;
  process.exit(child.status ?? 1);
}
await import('../build/kiln.mjs');
