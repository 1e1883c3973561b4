// The tracing of one served instance, configured from the metadata's `opentelemetry` (and again
// on every metadata change), and the scope that carries a request's span through its async
// work. Nothing here runs for a request while tracing is off: the server checks `on`, no scope
// is opened, and `activeSpan()` answers undefined after one check of a number.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { OpenTelemetryModel } from '../bundle/index.js';
import { OtlpExporter } from './exporter.js';
import { newId, Span, spanClock, type SpanKindName } from './span.js';
import { readTraceParent } from './trace-context.js';

/** The span of the request being served, in the async context of its handling. */
const traceScope = new AsyncLocalStorage<Span>();

// How many instances in this process trace now: 0 makes every check below one comparison.
let tracingInstances = 0;

/** The span of the request being served here, when that request is traced. */
export function activeSpan(): Span | undefined {
  return tracingInstances === 0 ? undefined : traceScope.getStore();
}

/** Runs `fn` with `span` as the active span of everything it starts. */
export function withSpan<T>(span: Span, fn: () => T): T {
  return traceScope.run(span, fn);
}

/** The clock of a step that may be traced: 0 (no clock read) when nothing traces. */
export function stepStart(): number {
  return tracingInstances === 0 ? 0 : spanClock();
}

/** Writes a finished step (started at `stepStart()`) as a child of the active span, if any. */
export function stepEnd(name: string, startedMs: number, attributes?: Readonly<Record<string, string | number | boolean>>): void {
  if (startedMs === 0) return;
  const parent = traceScope.getStore();
  if (!parent) return;
  const span = parent.child(name, 'internal', startedMs);
  if (attributes) Object.assign(span.attributes, attributes);
  span.end();
}

/**
 * A client span for an HTTP call made in the active request, and the headers that carry its
 * context to the callee (`traceparent`, and `tracestate` when the trace has one). Null when the
 * request is not traced: the call is made as it would be without tracing.
 */
export function outgoingCall(name: string, method: string, url: string): { span: Span; headers: Record<string, string> } | null {
  const parent = activeSpan();
  if (!parent) return null;
  const span = parent.child(name, 'client').set('http.request.method', method).set('url.full', url);
  return { span, headers: propagationHeaders(span) };
}

/** The W3C headers that make the callee's spans children of `span`. */
export function propagationHeaders(span: Span): Record<string, string> {
  const h: Record<string, string> = { traceparent: span.traceparent() };
  if (span.traceState !== null) h['tracestate'] = span.traceState;
  return h;
}

/** Settings of the batch export besides the metadata's (OpenTelemetry's OTEL_BSP_* variables). */
function batchSettings(env: NodeJS.ProcessEnv): { delayMs: number; maxQueue: number; timeoutMs: number } {
  const num = (name: string, fallback: number): number => {
    const v = Number(env[name]);
    return env[name] !== undefined && Number.isInteger(v) && v > 0 ? v : fallback;
  };
  return { delayMs: num('OTEL_BSP_SCHEDULE_DELAY', 5000), maxQueue: num('OTEL_BSP_MAX_QUEUE_SIZE', 2048), timeoutMs: num('OTEL_BSP_EXPORT_TIMEOUT', 30_000) };
}

/** The tracing of one served instance. */
export class Tracing {
  /** True while traces are exported: the one check a request makes. */
  on = false;
  private exporter: OtlpExporter | null = null;
  private config = '';

  constructor(private readonly version: string, private readonly log: (line: string) => void,
    private readonly env: NodeJS.ProcessEnv = process.env) {}

  /**
   * Applies the metadata's configuration (undefined: none). An unchanged configuration keeps its
   * exporter; a changed one flushes the old exporter's spans and starts a new one.
   */
  configure(model: OpenTelemetryModel | undefined): void {
    const active = model !== undefined && model.enabled && model.dataTypes.includes('traces') && model.tracesEndpoint !== null;
    const key = active ? JSON.stringify(model) : '';
    if (key === this.config) return;
    this.config = key;
    const old = this.exporter;
    this.exporter = active ? this.exporterFor(model) : null;
    if (this.on !== active) tracingInstances += active ? 1 : -1;
    this.on = active;
    // An AsyncLocalStorage that has run keeps Node's async hook on (a cost on every promise of
    // the process) until disabled: tracing switched off leaves nothing running.
    if (tracingInstances === 0) traceScope.disable();
    if (old) void old.close();
    if (active) this.log(`opentelemetry: exporting traces to ${model.tracesEndpoint} (${model.protocol})`);
  }

  private exporterFor(m: OpenTelemetryModel): OtlpExporter {
    const headers: Record<string, string> = {};
    for (const h of m.headers) {
      const value = 'value' in h ? h.value : this.env[h.fromEnv];
      if (value === undefined) this.log(`opentelemetry: header ${h.name} is not sent: environment variable ${'fromEnv' in h ? h.fromEnv : ''} is not set`);
      else headers[h.name] = value;
    }
    const resource = new Map<string, string>([['service.name', 'kiln'], ['service.version', this.version],
      ['telemetry.sdk.name', 'kiln'], ['telemetry.sdk.language', 'nodejs']]);
    for (const a of m.resourceAttributes) resource.set(a.name, a.value);
    return new OtlpExporter({
      url: m.tracesEndpoint!, protocol: m.protocol, headers, maxBatch: m.maxExportBatchSize, log: this.log,
      origin: { resource: [...resource], scopeName: 'kiln', scopeVersion: this.version }, ...batchSettings(this.env),
    });
  }

  /**
   * The span of a request served now: a child of the caller's span when `traceparent` names one
   * (sampled as the caller decided), else the root of a new trace.
   */
  startRequest(name: string, traceparent: string | string[] | undefined, tracestate: string | string[] | undefined): Span {
    const sink = this.exporter!;
    const parent = readTraceParent(traceparent, tracestate);
    if (!parent) return new Span(sink, name, 'server', newId(16), null, true, null);
    return new Span(sink, name, 'server', parent.traceId, parent.spanId, parent.sampled, parent.traceState, undefined, true);
  }

  /** The root span of work no request started (an event delivery); null when tracing is off. */
  startRoot(name: string, kind: SpanKindName): Span | null {
    return this.exporter ? new Span(this.exporter, name, kind, newId(16), null, true, null) : null;
  }

  /** Sends what waits now (tests and shutdown). */
  async flush(): Promise<void> {
    await this.exporter?.flush();
  }

  /** Flushes and stops exporting. */
  async close(): Promise<void> {
    const e = this.exporter;
    this.configure(undefined);
    await e?.close();
  }
}
