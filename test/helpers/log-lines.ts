// The JSON log lines a server in this process writes to stdout, kept for a test to read (and not
// printed); any other output passes through. Call it in a beforeAll, and vi.restoreAllMocks() after.

import { vi } from 'vitest';

/** Starts capturing: every stdout line that is a JSON log line (`{"type":...`) is pushed onto `lines`. */
export function captureLogLines(lines: string[]): void {
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    for (const l of text.split('\n')) if (l.startsWith('{"type":')) lines.push(l);
    if (!text.startsWith('{"type":')) return write(chunk, ...rest);
    return true;
  }) as typeof process.stdout.write);
}
