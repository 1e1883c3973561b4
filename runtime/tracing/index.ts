/** The tracing of one served instance (set_opentelemetry_config), and the active request span. */
export { Tracing, activeSpan, withSpan, stepStart, stepEnd, outgoingCall, propagationHeaders } from './tracing.js';
/** Spans and their kinds. */
export { Span, SpanKind, type SpanKindName, type AttributeValue, type SpanSink } from './span.js';
/** W3C traceparent/tracestate read from a request. */
export { readTraceParent, type RemoteParent } from './trace-context.js';
/** OTLP/HTTP trace export bodies (protobuf and JSON). */
export { encodeProtobuf, encodeJson, type ExportOrigin } from './otlp-encode.js';
/** The batch exporter to an OTLP/HTTP traces endpoint. */
export { OtlpExporter, type ExporterSettings } from './exporter.js';
/** Drivers whose statements are spans of the traced request that runs them. */
export { tracedDrivers } from './traced-driver.js';
