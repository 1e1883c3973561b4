// W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header a client or
// a proxy sends, read into the parent of the request's span. A header that does not parse is
// ignored (the request starts its own trace), as the recommendation asks.

/** The remote parent a request names. */
export interface RemoteParent {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  readonly traceState: string | null;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
// tracestate: at most 32 list members of at most 256 characters each (§3.3.1); longer is dropped.
const MAX_TRACESTATE = 32 * 257;

/** The parent named by `traceparent` (and `tracestate`), or null when absent or malformed. */
export function readTraceParent(header: string | string[] | undefined, state: string | string[] | undefined): RemoteParent | null {
  if (typeof header !== 'string') return null;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return null;
  const [, version, traceId, spanId, flags, rest] = m;
  // Version ff is invalid; version 00 has nothing after the flags; later versions may add fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  const s = Array.isArray(state) ? state.join(',') : state;
  return {
    traceId: traceId!, spanId: spanId!, sampled: (parseInt(flags!, 16) & 1) === 1,
    traceState: s !== undefined && s !== '' && s.length <= MAX_TRACESTATE ? s : null,
  };
}
