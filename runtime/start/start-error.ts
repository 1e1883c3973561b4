// A problem with how the server was started (a flag, a variable, an unreachable database): the
// command line prints the message and exits with `exitCode`, never a stack.

import { maskUrlPassword } from '../server/index.js';

/** Thrown for a start-up problem the user must fix; `exitCode` 2 is bad input, 1 the rest. */
export class StartError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** A URL with its password hidden, for messages. */
export const redact = maskUrlPassword;

/** The most precise message of a failure: a database error's own text when it has one. */
export function detailOf(e: unknown): string {
  return (e as { internal?: { error?: { message?: string } } }).internal?.error?.message ?? (e as Error).message;
}
