// An OTLP/HTTP traces receiver for tests: a real HTTP server on 127.0.0.1 that decodes what it is
// sent (protobuf with a wire-format reader of its own, or OTLP/JSON) into plain spans.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as received. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly traceState: string;
  readonly name: string;
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Record<string, string | number | boolean>;
  readonly status: { code: number; message: string };
  readonly flags: number;
}

/** One export request as received. */
export interface ReceivedExport {
  readonly contentType: string;
  readonly headers: IncomingHttpHeaders;
  readonly resource: Record<string, string | number | boolean>;
  readonly scope: { name: string; version: string };
  readonly spans: ReceivedSpan[];
}

type Field = { wire: number; value: bigint | Buffer };

/** Protobuf wire format: field number → values in order. */
function fields(buf: Buffer): Map<number, Field[]> {
  const out = new Map<number, Field[]>();
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++]!;
      v |= BigInt(b & 127) << shift;
      if ((b & 128) === 0) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    let value: bigint | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 1) { value = buf.subarray(i, i + 8); i += 8; }
    else if (wire === 2) { const n = Number(varint()); value = buf.subarray(i, i + n); i += n; }
    else if (wire === 5) { value = buf.subarray(i, i + 4); i += 4; }
    else throw new Error(`wire type ${wire} not expected in a trace export`);
    const list = out.get(field) ?? [];
    list.push({ wire, value });
    out.set(field, list);
  }
  return out;
}

const all = (m: Map<number, Field[]>, f: number): Buffer[] => (m.get(f) ?? []).map((x) => x.value as Buffer);
const one = (m: Map<number, Field[]>, f: number): Field | undefined => m.get(f)?.at(-1);
const str = (m: Map<number, Field[]>, f: number): string => (one(m, f)?.value as Buffer | undefined)?.toString('utf8') ?? '';
const hex = (m: Map<number, Field[]>, f: number): string => (one(m, f)?.value as Buffer | undefined)?.toString('hex') ?? '';

function anyValue(b: Buffer): string | number | boolean {
  const m = fields(b);
  if (m.has(1)) return str(m, 1);
  if (m.has(2)) return one(m, 2)!.value === 1n;
  if (m.has(3)) return Number(BigInt.asIntN(64, one(m, 3)!.value as bigint));
  if (m.has(4)) return (one(m, 4)!.value as Buffer).readDoubleLE(0);
  throw new Error('an AnyValue of a kind Kiln does not send');
}

function keyValues(list: Buffer[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list) {
    const m = fields(kv);
    out[str(m, 1)] = anyValue(all(m, 2)[0]!);
  }
  return out;
}

function protoSpan(b: Buffer): ReceivedSpan {
  const m = fields(b);
  const status = all(m, 15)[0];
  const st = status ? fields(status) : new Map<number, Field[]>();
  return {
    traceId: hex(m, 1), spanId: hex(m, 2), traceState: str(m, 3), parentSpanId: hex(m, 4), name: str(m, 5),
    kind: Number(one(m, 6)?.value ?? 0n),
    startNs: (one(m, 7)!.value as Buffer).readBigUInt64LE(0), endNs: (one(m, 8)!.value as Buffer).readBigUInt64LE(0),
    attributes: keyValues(all(m, 9)),
    status: { code: Number(one(st, 3)?.value ?? 0n), message: str(st, 2) },
    flags: (one(m, 16)?.value as Buffer | undefined)?.readUInt32LE(0) ?? 0,
  };
}

function decodeProtobuf(body: Buffer): Omit<ReceivedExport, 'contentType' | 'headers'> {
  const spans: ReceivedSpan[] = [];
  let resource: Record<string, string | number | boolean> = {};
  let scope = { name: '', version: '' };
  for (const rs of all(fields(body), 1)) {
    const r = fields(rs);
    const res = all(r, 1)[0];
    if (res) resource = keyValues(all(fields(res), 1));
    for (const ss of all(r, 2)) {
      const s = fields(ss);
      const sc = all(s, 1)[0];
      if (sc) { const f = fields(sc); scope = { name: str(f, 1), version: str(f, 2) }; }
      for (const sp of all(s, 2)) spans.push(protoSpan(sp));
    }
  }
  return { resource, scope, spans };
}

type JsonKv = { key: string; value: { stringValue?: string; boolValue?: boolean; intValue?: string; doubleValue?: number } };
const jsonKvs = (list: JsonKv[] | undefined): Record<string, string | number | boolean> => Object.fromEntries((list ?? []).map((kv) => [kv.key,
  kv.value.stringValue ?? kv.value.boolValue ?? (kv.value.intValue !== undefined ? Number(kv.value.intValue) : kv.value.doubleValue!)]));

function decodeJson(text: string): Omit<ReceivedExport, 'contentType' | 'headers'> {
  const body = JSON.parse(text) as { resourceSpans: any[] };
  const rs = body.resourceSpans[0];
  const ss = rs.scopeSpans[0];
  return {
    resource: jsonKvs(rs.resource.attributes), scope: ss.scope,
    spans: (ss.spans as any[]).map((s) => ({
      traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', traceState: s.traceState ?? '', name: s.name, kind: s.kind,
      startNs: BigInt(s.startTimeUnixNano), endNs: BigInt(s.endTimeUnixNano), attributes: jsonKvs(s.attributes),
      status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' }, flags: s.flags,
    })),
  };
}

/** A running receiver: every export it got, and a way to wait for spans. */
export interface OtlpReceiver {
  readonly url: string;
  readonly exports: ReceivedExport[];
  spans(): ReceivedSpan[];
  /** Resolves once a span matching `pred` has arrived (fails after `ms`). */
  waitFor(pred: (s: ReceivedSpan) => boolean, ms?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      try {
        const decoded = contentType === 'application/json' ? decodeJson(body.toString('utf8')) : decodeProtobuf(body);
        exports.push({ contentType, headers: req.headers, ...decoded });
        res.writeHead(200, { 'content-type': contentType }).end(contentType === 'application/json' ? '{}' : '');
      } catch (e) {
        res.writeHead(400).end(String(e));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  const spans = (): ReceivedSpan[] => exports.flatMap((e) => e.spans);
  return {
    url, exports, spans,
    async waitFor(pred, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const hit = spans().find(pred);
        if (hit) return hit;
        if (Date.now() > until) throw new Error(`no such span within ${ms} ms; received: ${spans().map((s) => s.name).join(', ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
