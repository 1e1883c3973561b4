// `kiln-runtime`: serves a compiled bundle, and nothing else. It reads the flags and variables of
// `kiln serve --bundle` and runs the same function, but its build holds no compiler (no ts-morph,
// TypeScript, esbuild or codegen), so a deployment needs only the bundle and the runtime.

import { Command, CommanderError } from 'commander';
import { addServeFlags, stopOnSignals } from './flags.js';
import { checkServeInput, type RawServeInput } from './input-check.js';
import { serveModel } from './serve-model.js';
import type { ServeSettings } from './settings.js';
import { StartError } from './start-error.js';
import { KILN_VERSION } from './version.js';

/** The `kiln-runtime` command line. */
export function runtimeCli(): Command {
  const program = new Command('kiln-runtime')
    .description('serve a compiled Kiln bundle (GraphQL over HTTP and WebSocket, event and cron workers); metadata writes answer not-supported')
    .version(KILN_VERSION)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .requiredOption('--bundle <dir>', 'the bundle directory written by `kiln compile`');
  addServeFlags(program).action(async (raw: RawServeInput & ServeSettings & { bundle: string }) => {
    const o = checkServeInput(raw);
    stopOnSignals(await serveModel(o, { kind: 'bundle', dir: o.bundle }));
  });
  return program;
}

/** Runs `kiln-runtime`; start-up problems exit with their code and a message, never a stack. */
export async function runtimeMain(argv: readonly string[]): Promise<void> {
  try {
    await runtimeCli().parseAsync([...argv]);
  } catch (e) {
    exitOnError(e, 'kiln-runtime');
  }
}

/** Prints a user error as `<name>: message` and exits (2 for usage errors); rethrows a bug. */
export function exitOnError(e: unknown, name: string): void {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
  if (e instanceof StartError) {
    process.stderr.write(`${name}: ${e.message}\n`);
    process.exit(e.exitCode);
  }
  const err = e as { code?: string; message?: string };
  if (err && typeof err.code === 'string' && err.message) {
    process.stderr.write(`${name}: ${err.message} (${err.code})\n`);
    process.exit(1);
  }
  throw e;
}
