// One span: what a traced step did, with the ids that place it in its trace. A span is written
// once, when it ends, to the sink its trace was started with (the exporter of the instance).

import { randomFillSync } from 'node:crypto';

/** OTLP's span kinds (trace.proto `SpanKind`), by the number sent on the wire. */
export const SpanKind = { internal: 1, server: 2, client: 3, producer: 4 } as const;
export type SpanKindName = keyof typeof SpanKind;

/** An attribute value (OTLP AnyValue: string, bool, int or double). */
export type AttributeValue = string | number | boolean;

/** Where ended spans go. */
export interface SpanSink {
  write(span: Span): void;
}

const nowMs = (): number => performance.timeOrigin + performance.now();

// Ids are cut from a pool of random bytes refilled 4 KiB at a time: a call to the system's random
// source per span cost more than the rest of the span.
const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

/** A 16-byte trace id or an 8-byte span id, as lower-case hex. */
export function newId(bytes: 16 | 8): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString('hex', used, used + bytes);
  used += bytes;
  return id;
}

/** A started span; `end()` writes it (once) when it was sampled. */
export class Span {
  readonly spanId = newId(8);
  readonly attributes: Record<string, AttributeValue> = {};
  endMs = 0;
  /** 0 unset, 2 error (trace.proto `Status.StatusCode`). */
  statusCode: 0 | 2 = 0;
  statusMessage = '';

  constructor(readonly sink: SpanSink, public name: string, readonly kind: SpanKindName, readonly traceId: string,
    readonly parentSpanId: string | null, readonly sampled: boolean, readonly traceState: string | null,
    readonly startMs: number = nowMs(), readonly remoteParent = false) {}

  /** A span under this one, in the same trace and sink. */
  child(name: string, kind: SpanKindName, startMs: number = nowMs()): Span {
    return new Span(this.sink, name, kind, this.traceId, this.spanId, this.sampled, this.traceState, startMs);
  }

  set(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }

  /** Marks the span failed (OTLP status ERROR) with a short message. */
  fail(message: string): this {
    this.statusCode = 2;
    this.statusMessage = message;
    return this;
  }

  end(atMs: number = nowMs()): void {
    if (this.endMs !== 0) return;
    this.endMs = atMs;
    if (this.sampled) this.sink.write(this);
  }

  /** The W3C `traceparent` header naming this span as the parent of a call it makes. */
  traceparent(): string {
    return `00-${this.traceId}-${this.spanId}-${this.sampled ? '01' : '00'}`;
  }
}

/** The wall-clock time now in milliseconds, as spans keep it (sub-millisecond precision). */
export function spanClock(): number {
  return nowMs();
}
