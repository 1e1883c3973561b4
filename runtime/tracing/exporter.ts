// The batch exporter: ended spans wait in a bounded queue and are sent to the OTLP/HTTP traces
// endpoint in batches of `max_export_batch_size`, when a batch is full or every schedule delay.
// One export is in flight at a time; a full queue drops new spans (counted, said once) rather
// than grow: tracing never holds up or endangers serving.

import { encodeJson, encodeProtobuf, type ExportOrigin } from './otlp-encode.js';
import type { Span, SpanSink } from './span.js';

/** How and where one exporter sends. */
export interface ExporterSettings {
  readonly url: string;
  readonly protocol: 'http/protobuf' | 'http/json';
  readonly headers: { readonly [name: string]: string };
  readonly origin: ExportOrigin;
  readonly maxBatch: number;
  /** Milliseconds between exports of a batch that is not full (OTEL_BSP_SCHEDULE_DELAY, default 5000). */
  readonly delayMs: number;
  /** Spans kept waiting at most (OTEL_BSP_MAX_QUEUE_SIZE, default 2048). */
  readonly maxQueue: number;
  /** Milliseconds one export may take (OTEL_BSP_EXPORT_TIMEOUT, default 30000). */
  readonly timeoutMs: number;
  readonly log: (line: string) => void;
}

// Export failures are said at most once a minute, with the count since.
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** Sends ended spans to one OTLP/HTTP endpoint. */
export class OtlpExporter implements SpanSink {
  private queue: Span[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private lastFailureLog = 0;
  private failuresSince = 0;
  /** Spans dropped because the queue was full, and spans whose export failed. */
  dropped = 0;
  failed = 0;
  exported = 0;

  constructor(readonly settings: ExporterSettings) {}

  write(span: Span): void {
    if (this.closed) return;
    if (this.queue.length >= this.settings.maxQueue) {
      if (this.dropped++ === 0) this.settings.log(`opentelemetry: the span queue is full (${this.settings.maxQueue}); spans are dropped until it drains`);
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= this.settings.maxBatch) this.kick();
    else if (this.timer === null) {
      this.timer = setTimeout(() => this.kick(), this.settings.delayMs);
      this.timer.unref();
    }
  }

  /** Sends everything waiting now (the last batches at shutdown); resolves when done or failed. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight) {
      if (this.inFlight) await this.inFlight;
      else this.kick();
    }
  }

  /** Flushes and stops; later spans are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.settings.maxBatch);
    this.inFlight = this.send(batch).finally(() => {
      this.inFlight = null;
      if (this.queue.length >= this.settings.maxBatch) this.kick();
      else if (this.queue.length > 0 && this.timer === null && !this.closed) {
        this.timer = setTimeout(() => this.kick(), this.settings.delayMs);
        this.timer.unref();
      }
    });
  }

  private async send(batch: readonly Span[]): Promise<void> {
    const s = this.settings;
    const json = s.protocol === 'http/json';
    const body: string | Uint8Array<ArrayBuffer> = json ? encodeJson(s.origin, batch) : new Uint8Array(encodeProtobuf(s.origin, batch));
    try {
      const res = await fetch(s.url, {
        method: 'POST', body, signal: AbortSignal.timeout(s.timeoutMs), redirect: 'manual',
        headers: { ...s.headers, 'content-type': json ? 'application/json' : 'application/x-protobuf' },
      });
      // The answer (an ExportTraceServiceResponse) is read and dropped so the connection is reused.
      await res.arrayBuffer();
      if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
      this.exported += batch.length;
    } catch (e) {
      this.failed += batch.length;
      this.failuresSince++;
      const now = Date.now();
      if (now - this.lastFailureLog >= FAILURE_LOG_INTERVAL_MS) {
        s.log(`opentelemetry: exporting ${batch.length} span(s) to ${s.url} failed (${(e as Error).message}); ${this.failuresSince} failed export(s) since the last report`);
        this.lastFailureLog = now;
        this.failuresSince = 0;
      }
    }
  }
}
