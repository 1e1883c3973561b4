// The body of an OTLP/HTTP trace export (opentelemetry-proto `ExportTraceServiceRequest`), in
// both encodings OTLP/HTTP defines: binary protobuf (`application/x-protobuf`, the one Hasura
// sends) and JSON (`application/json`: ids as hex, 64-bit numbers as strings, enums as numbers).
//
//   ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
//   ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
//   Resource { repeated KeyValue attributes = 1; }
//   ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
//   InstrumentationScope { string name = 1; string version = 2; }
//   Span { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4;
//          string name = 5; SpanKind kind = 6; fixed64 start_time_unix_nano = 7;
//          fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; Status status = 15;
//          fixed32 flags = 16; }
//   Status { string message = 2; StatusCode code = 3; }
//   KeyValue { string key = 1; AnyValue value = 2; }
//   AnyValue { oneof { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }

import { SpanKind, type AttributeValue, type Span } from './span.js';

/** Who sent the spans: the resource attributes and the instrumentation scope. */
export interface ExportOrigin {
  readonly resource: readonly (readonly [string, string])[];
  readonly scopeName: string;
  readonly scopeVersion: string;
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

/** A protobuf writer: the few wire types the trace messages use. */
class ProtoWriter {
  private buf = Buffer.allocUnsafe(256);
  private n = 0;

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  private varint(v: bigint | number): void {
    this.room(10);
    if (typeof v === 'number' && v >= 0 && v < 0x80000000) {
      let n = v;
      while (n > 127) {
        this.buf[this.n++] = (n & 127) | 128;
        n >>>= 7;
      }
      this.buf[this.n++] = n;
      return;
    }
    let x = BigInt.asUintN(64, BigInt(v));
    while (x > 127n) {
      this.buf[this.n++] = Number(x & 127n) | 128;
      x >>= 7n;
    }
    this.buf[this.n++] = Number(x);
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  private raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.n);
    this.n += bytes.length;
  }

  bytes(field: number, b: Uint8Array): void {
    this.tag(field, WIRE_LEN);
    this.varint(b.length);
    this.raw(b);
  }

  /** A string field; proto3 leaves an empty one out unless it is a oneof member (`always`). */
  string(field: number, s: string, always = false): void {
    if (s === '' && !always) return;
    this.bytes(field, Buffer.from(s, 'utf8'));
  }

  uint(field: number, v: number | bigint): void {
    if (v === 0 || v === 0n) return;
    this.tag(field, WIRE_VARINT);
    this.varint(v);
  }

  /** A varint field always written (a oneof member: false and 0 are values). */
  varintAlways(field: number, v: number | bigint): void {
    this.tag(field, WIRE_VARINT);
    this.varint(v);
  }

  fixed64(field: number, v: bigint): void {
    this.tag(field, WIRE_FIXED64);
    this.room(8);
    this.buf.writeBigUInt64LE(v, this.n);
    this.n += 8;
  }

  double(field: number, v: number): void {
    this.tag(field, WIRE_FIXED64);
    this.room(8);
    this.buf.writeDoubleLE(v, this.n);
    this.n += 8;
  }

  fixed32(field: number, v: number): void {
    this.tag(field, WIRE_FIXED32);
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.n);
    this.n += 4;
  }

  message(field: number, write: (w: ProtoWriter) => void): void {
    const inner = new ProtoWriter();
    write(inner);
    this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.n);
  }
}

/** Milliseconds (fractional) since the epoch as OTLP's nanoseconds. */
function nanos(ms: number): bigint {
  return BigInt(Math.round(ms * 1000)) * 1000n;
}

/** trace.proto `Span.flags`: the W3C flags in the low byte, bit 8 "is_remote known", bit 9 "parent is remote". */
function flagsOf(s: Span): number {
  return (s.sampled ? 1 : 0) | 0x100 | (s.remoteParent ? 0x200 : 0);
}

function anyValue(w: ProtoWriter, v: AttributeValue): void {
  if (typeof v === 'string') w.string(1, v, true);
  else if (typeof v === 'boolean') w.varintAlways(2, v ? 1 : 0);
  else if (Number.isSafeInteger(v)) w.varintAlways(3, v);
  else w.double(4, v);
}

function keyValue(w: ProtoWriter, field: number, key: string, v: AttributeValue): void {
  w.message(field, (kv) => {
    kv.string(1, key, true);
    kv.message(2, (a) => anyValue(a, v));
  });
}

function protoSpan(w: ProtoWriter, s: Span): void {
  w.bytes(1, Buffer.from(s.traceId, 'hex'));
  w.bytes(2, Buffer.from(s.spanId, 'hex'));
  if (s.traceState !== null) w.string(3, s.traceState);
  if (s.parentSpanId !== null) w.bytes(4, Buffer.from(s.parentSpanId, 'hex'));
  w.string(5, s.name);
  w.uint(6, SpanKind[s.kind]);
  w.fixed64(7, nanos(s.startMs));
  w.fixed64(8, nanos(s.endMs));
  for (const [k, v] of Object.entries(s.attributes)) keyValue(w, 9, k, v);
  if (s.statusCode !== 0) {
    w.message(15, (st) => {
      st.string(2, s.statusMessage);
      st.uint(3, s.statusCode);
    });
  }
  w.fixed32(16, flagsOf(s));
}

/** The spans as one protobuf `ExportTraceServiceRequest`. */
export function encodeProtobuf(origin: ExportOrigin, spans: readonly Span[]): Buffer {
  const w = new ProtoWriter();
  w.message(1, (rs) => {
    rs.message(1, (r) => { for (const [k, v] of origin.resource) keyValue(r, 1, k, v); });
    rs.message(2, (ss) => {
      ss.message(1, (scope) => {
        scope.string(1, origin.scopeName);
        scope.string(2, origin.scopeVersion);
      });
      for (const s of spans) ss.message(2, (m) => protoSpan(m, s));
    });
  });
  return w.finish();
}

function jsonValue(v: AttributeValue): object {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

const jsonAttributes = (entries: Iterable<readonly [string, AttributeValue]>): object[] =>
  [...entries].map(([key, v]) => ({ key, value: jsonValue(v) }));

/** The spans as one OTLP/JSON `ExportTraceServiceRequest`. */
export function encodeJson(origin: ExportOrigin, spans: readonly Span[]): string {
  return JSON.stringify({
    resourceSpans: [{
      resource: { attributes: jsonAttributes(origin.resource) },
      scopeSpans: [{
        scope: { name: origin.scopeName, version: origin.scopeVersion },
        spans: spans.map((s) => ({
          traceId: s.traceId, spanId: s.spanId,
          ...(s.traceState !== null ? { traceState: s.traceState } : {}),
          ...(s.parentSpanId !== null ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name, kind: SpanKind[s.kind],
          startTimeUnixNano: String(nanos(s.startMs)), endTimeUnixNano: String(nanos(s.endMs)),
          attributes: jsonAttributes(Object.entries(s.attributes)),
          ...(s.statusCode !== 0 ? { status: { code: s.statusCode, message: s.statusMessage } } : {}),
          flags: flagsOf(s),
        })),
      }],
    }],
  });
}
