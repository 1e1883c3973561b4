// A cap on the size of one message from PostgreSQL, checked as the bytes arrive.
//
// Kiln reads a whole answer as one value of one row. pg turns each value into a JavaScript
// string inside the socket's 'data' handler; a value past V8's string limit (512 MiB) throws
// there, outside any promise, and ends the process. One request can reach it within the query
// caps: 600 aliases of a table holding 1 MB of text the role may read (issue 15). So every
// message's length is read from its header before pg parses it, and a connection whose message
// is over the cap is destroyed at once (nothing more is buffered): the query fails with
// ResponseTooLarge, the pool drops the client, the process lives.

import pg from 'pg';
import type { Duplex } from 'node:stream';

/** The default cap on one message (one row) from PostgreSQL: well under V8's 512 MiB strings. */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 2 ** 20;

/** A row from the database was over the cap; its connection was closed. */
export class ResponseTooLarge extends Error {
  constructor(readonly limit: number, readonly size: number) {
    super(`a row of ${size} bytes from the database is over the limit of ${limit} bytes`);
  }
}

// Reads the framing of the backend protocol (a type byte, then a 4-byte length that counts
// itself) across chunk boundaries; answers the length of the first message over `max`, else null.
// A header inside the chunk is read in place; only one split across two chunks is copied.
export function framer(max: number): (chunk: Buffer) => number | null {
  const header = Buffer.alloc(5);
  let have = 0; // bytes of a split header kept from the previous chunk
  let skip = 0; // bytes of the current message's body still to come
  return (chunk) => {
    const end = chunk.length;
    let i = 0;
    if (skip >= end) {
      skip -= end;
      return null;
    }
    i = skip;
    skip = 0;
    if (have > 0) {
      const n = Math.min(5 - have, end - i);
      chunk.copy(header, have, i, i + n);
      have += n;
      i += n;
      if (have < 5) return null;
      have = 0;
      const length = header.readUInt32BE(1);
      if (length > max) return length;
      i += length - 4;
    }
    while (i + 5 <= end) {
      const length = chunk[i + 1]! * 0x1000000 + ((chunk[i + 2]! << 16) | (chunk[i + 3]! << 8) | chunk[i + 4]!);
      if (length > max) return length;
      i += 1 + length;
    }
    if (i > end) skip = i - end;
    else if (i < end) {
      chunk.copy(header, 0, i, end);
      have = end - i;
    }
    return null;
  };
}

// Wraps the 'data' listeners pg attached to its socket: the framer sees every chunk first, and an
// exception of the parser destroys the connection instead of reaching the process. The listeners
// are swapped after pg attached them, so the socket object stays as Node made it (a method set on
// the socket itself gives pg's sockets a hidden class of their own in Node's stream code, which
// every HTTP socket runs through too).
function guard(stream: Duplex, max: number, attached: ReadonlySet<unknown>): void {
  const frame = framer(max);
  let over = false;
  for (const listener of stream.listeners('data')) {
    if (attached.has(listener)) continue;
    const parse = listener as (chunk: Buffer) => void;
    stream.removeListener('data', parse);
    stream.on('data', (chunk: Buffer) => {
      if (over) return;
      const size = frame(chunk);
      if (size !== null) {
        over = true;
        stream.destroy(new ResponseTooLarge(max, size));
        return;
      }
      try {
        parse(chunk);
      } catch (e) {
        over = true;
        stream.destroy(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }
}

/** A pg Client class whose connections are guarded with a cap of `max` bytes per message. */
export function guardedClient(max: number): typeof pg.Client {
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // pg attaches its parser to the socket (or to the TLS socket that replaces it) here.
      const connection = (this as unknown as { connection: { attachListeners(s: Duplex): void } }).connection;
      const attach = connection.attachListeners.bind(connection);
      connection.attachListeners = (s: Duplex) => {
        const before = new Set(s.listeners('data'));
        attach(s);
        guard(s, max, before);
      };
    }
  };
}
