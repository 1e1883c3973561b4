// `opentelemetry` of the metadata (Hasura v2's set_opentelemetry_config args), read into the
// bundle model. One reader for the operation and the compile: a bad value is refused with its
// path before anything is stored, and a metadata file carrying it does not compile.

import type { OpenTelemetryModel } from '../../runtime/bundle/index.js';
import { ApiError, jsonKind, type JsonPath } from '../../runtime/errors/index.js';
import type { Json } from '../metadata/index.js';

type JsonObject = { readonly [k: string]: Json };
type DataType = OpenTelemetryModel['dataTypes'][number];

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOP_KEYS = ['status', 'data_types', 'exporter_otlp', 'batch_span_processor'];
const EXPORTER_KEYS = ['otlp_traces_endpoint', 'otlp_metrics_endpoint', 'otlp_logs_endpoint', 'protocol', 'headers',
  'resource_attributes', 'traces_propagators'];
const DATA_TYPES: readonly DataType[] = ['traces', 'metrics', 'logs'];
// Hasura's batch size when none is given.
const DEFAULT_BATCH = 512;

function bad(path: JsonPath, message: string): ApiError {
  return new ApiError('parse-failed', message, 400, path);
}

function object(v: unknown, path: JsonPath, keys: readonly string[]): JsonObject {
  if (!isObject(v)) throw bad(path, `expected an object, but encountered ${jsonKind(v)}`);
  for (const k of Object.keys(v)) if (!keys.includes(k)) throw bad([...path, k], `unexpected key "${k}" (expected one of ${keys.join(', ')})`);
  return v;
}

function list(v: unknown, path: JsonPath): readonly Json[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(path, `expected an array, but encountered ${jsonKind(v)}`);
  return v as Json[];
}

function text(v: unknown, path: JsonPath): string {
  if (typeof v !== 'string') throw bad(path, `expected a string, but encountered ${jsonKind(v)}`);
  return v;
}

// An empty endpoint is none (a configuration saved from a form with the field left blank).
function endpoint(v: unknown, path: JsonPath): string | null {
  if (v === undefined || v === null || v === '') return null;
  const s = text(v, path);
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw bad(path, `Invalid URL: ${JSON.stringify(s)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(path, `Invalid URL: ${JSON.stringify(s)} (expected http or https)`);
  return s;
}

function pairs(v: unknown, path: JsonPath): { name: string; value: string }[] {
  return list(v, path).map((x, i) => {
    const o = object(x, [...path, i], ['name', 'value']);
    return { name: text(o['name'], [...path, i, 'name']), value: text(o['value'], [...path, i, 'value']) };
  });
}

function headers(v: unknown, path: JsonPath): OpenTelemetryModel['headers'] {
  return list(v, path).map((x, i) => {
    const o = object(x, [...path, i], ['name', 'value', 'value_from_env']);
    const name = text(o['name'], [...path, i, 'name']);
    if (o['value'] !== undefined && o['value_from_env'] === undefined) return { name, value: text(o['value'], [...path, i, 'value']) };
    if (o['value_from_env'] !== undefined && o['value'] === undefined) return { name, fromEnv: text(o['value_from_env'], [...path, i, 'value_from_env']) };
    throw bad([...path, i], 'a header needs exactly one of value, value_from_env');
  });
}

function batchSize(v: unknown, path: JsonPath): number {
  if (v === undefined || v === null) return DEFAULT_BATCH;
  const o = object(v, path, ['max_export_batch_size']);
  const n = o['max_export_batch_size'];
  if (n === undefined) return DEFAULT_BATCH;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw bad([...path, 'max_export_batch_size'], 'max_export_batch_size must be a positive integer');
  return n;
}

/**
 * The checked OpenTelemetry configuration; undefined when the metadata has none. Only OTLP over
 * HTTP is spoken (`http/protobuf`, Hasura's one protocol, and `http/json`), and only the W3C
 * `tracecontext` propagator.
 */
export function readOpenTelemetry(v: Json | undefined, path: JsonPath): OpenTelemetryModel | undefined {
  if (v === undefined || v === null) return undefined;
  const o = object(v, path, TOP_KEYS);
  const status = o['status'] ?? 'disabled';
  if (status !== 'enabled' && status !== 'disabled') throw bad([...path, 'status'], `status must be "enabled" or "disabled", not ${JSON.stringify(status)}`);
  const dataTypes = o['data_types'] === undefined ? ['traces' as const] : list(o['data_types'], [...path, 'data_types']).map((t, i) => {
    if (!(DATA_TYPES as readonly Json[]).includes(t)) throw bad([...path, 'data_types', i], `unknown data type ${JSON.stringify(t)} (expected one of ${DATA_TYPES.join(', ')})`);
    return t as DataType;
  });
  const ex = o['exporter_otlp'] === undefined || o['exporter_otlp'] === null ? {} : object(o['exporter_otlp'], [...path, 'exporter_otlp'], EXPORTER_KEYS);
  const at = (k: string): JsonPath => [...path, 'exporter_otlp', k];
  const protocol = ex['protocol'] ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') throw bad(at('protocol'), `protocol must be "http/protobuf" or "http/json", not ${JSON.stringify(protocol)}`);
  const propagators = ex['traces_propagators'] === undefined ? ['tracecontext' as const] : list(ex['traces_propagators'], at('traces_propagators')).map((p, i) => {
    if (p !== 'tracecontext') throw bad([...at('traces_propagators'), i], `propagator ${JSON.stringify(p)} is not supported (Kiln propagates W3C "tracecontext")`);
    return 'tracecontext' as const;
  });
  // Checked even when disabled, so that set_opentelemetry_status enabled cannot switch on a broken one.
  const endpoints = { traces: endpoint(ex['otlp_traces_endpoint'], at('otlp_traces_endpoint')) };
  endpoint(ex['otlp_metrics_endpoint'], at('otlp_metrics_endpoint'));
  endpoint(ex['otlp_logs_endpoint'], at('otlp_logs_endpoint'));
  const enabled = status === 'enabled';
  if (enabled && dataTypes.includes('traces') && endpoints.traces === null) {
    throw bad(at('otlp_traces_endpoint'), 'otlp_traces_endpoint is required when traces are exported');
  }
  return {
    enabled, dataTypes: [...new Set(dataTypes)], tracesEndpoint: endpoints.traces, protocol,
    headers: headers(ex['headers'], at('headers')), resourceAttributes: pairs(ex['resource_attributes'], at('resource_attributes')),
    propagators, maxExportBatchSize: batchSize(o['batch_span_processor'], [...path, 'batch_span_processor']),
  };
}
