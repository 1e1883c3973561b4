// The pieces of tracing that need no server: the `opentelemetry` metadata read with Hasura's
// defaults, and W3C traceparent headers read as the recommendation says (malformed: ignored).
import { describe, expect, it } from 'vitest';
import { readOpenTelemetry } from '../../compiler/model/index.js';
import { readTraceParent } from '../../runtime/tracing/index.js';
import { formatPath } from '../../runtime/errors/index.js';

describe('opentelemetry metadata', () => {
  it('reads Hasura\'s shape with its defaults', () => {
    expect(readOpenTelemetry({ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: 'http://collector:4318/v1/traces' } }, ['opentelemetry'])).toEqual({
      enabled: true, dataTypes: ['traces'], tracesEndpoint: 'http://collector:4318/v1/traces', protocol: 'http/protobuf',
      headers: [], resourceAttributes: [], propagators: ['tracecontext'], maxExportBatchSize: 512,
    });
    // Disabled needs no endpoint; a blank one is none.
    expect(readOpenTelemetry({ status: 'disabled', exporter_otlp: { otlp_traces_endpoint: '' } }, ['opentelemetry'])?.tracesEndpoint).toBeNull();
    expect(readOpenTelemetry({}, ['opentelemetry'])?.enabled).toBe(false);
    expect(readOpenTelemetry(undefined, ['opentelemetry'])).toBeUndefined();
  });

  it('refuses an unknown key with its path', () => {
    try {
      readOpenTelemetry({ status: 'enabled', exporter_otlp: { otlp_traces_endpoint: 'http://c/v1/traces', endpoint: 'x' } }, ['opentelemetry']);
      expect.unreachable();
    } catch (e) {
      expect(formatPath((e as { path: (string | number)[] }).path)).toBe('$.opentelemetry.exporter_otlp.endpoint');
    }
  });
});

describe('traceparent', () => {
  const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const span = '00f067aa0ba902b7';
  it('reads the parent, its sampled flag and tracestate', () => {
    expect(readTraceParent(`00-${trace}-${span}-01`, 'a=1')).toEqual({ traceId: trace, spanId: span, sampled: true, traceState: 'a=1' });
    expect(readTraceParent(`00-${trace}-${span}-00`, undefined)?.sampled).toBe(false);
    expect(readTraceParent(`00-${trace}-${span}-03`, ['a=1', 'b=2'])).toMatchObject({ sampled: true, traceState: 'a=1,b=2' });
    // A later version may carry more fields after the flags.
    expect(readTraceParent(`01-${trace}-${span}-01-extra`, undefined)?.traceId).toBe(trace);
  });

  it('ignores what does not parse: a new trace starts', () => {
    for (const bad of [`00-${trace}-${span}-01-extra`, `ff-${trace}-${span}-01`, `00-${'0'.repeat(32)}-${span}-01`, `00-${trace}-${'0'.repeat(16)}-01`,
      `00-${trace.toUpperCase()}-${span}-01`, `00-${trace}-${span}`, 'garbage', '']) {
      expect(readTraceParent(bad, undefined)).toBeNull();
    }
    expect(readTraceParent(undefined, undefined)).toBeNull();
    expect(readTraceParent([`00-${trace}-${span}-01`], undefined)).toBeNull();
  });
});
