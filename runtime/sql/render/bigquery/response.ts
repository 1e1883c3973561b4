// The response JSON of a BigQuery statement, written by the engine from its one typed row: the
// same IR the statement was rendered from (select.ts) says which STRUCT field (`f<i>`) holds which
// key. Values arrive as the driver hands them: INT64, NUMERIC and BIGNUMERIC as strings (Hasura's
// BigQuery backend prints them as JSON strings), FLOAT64 as numbers, DATE/DATETIME/TIME/TIMESTAMP
// as BigQuery's text, records as objects, arrays as arrays; SQL NULL as null.

import type { AggregateSelect, JsonField, JsonObject, JsonValue, ScalarOutput } from '../../ir/index.js';
import { unreachable } from './scalar.js';

type Row = { readonly [column: string]: unknown };

/** The JSON object of `fields` from the statement's row (column `f<i>` is field i). */
export function responseOfRow(fields: readonly JsonField[], row: Row): string {
  return objectText({ kind: 'object', fields }, row);
}

function at(record: unknown, i: number): unknown {
  if (record === null || typeof record !== 'object') return null;
  return (record as Row)[`f${i}`] ?? null;
}

function objectText(o: JsonObject, record: unknown): string {
  const parts = o.fields.map((f, i) => `${JSON.stringify(f.key)}:${valueText(f.value, at(record, i))}`);
  return `{${parts.join(',')}}`;
}

function valueText(v: JsonValue, value: unknown): string {
  switch (v.kind) {
    case 'scalar': return scalarText(value, v.output);
    case 'name': return JSON.stringify(v.name);
    case 'json_text': return typeof value === 'string' ? value : 'null';
    case 'object': return objectText(v, value);
    case 'one': return value === null || value === undefined ? 'null' : objectText(v.shape, value);
    case 'list': return listText(v.shape, value);
    case 'aggregate': return aggregateText(v, value);
    default: return unreachable(v);
  }
}

function listText(shape: JsonObject, value: unknown): string {
  if (!Array.isArray(value)) return '[]';
  return `[${value.map((r) => objectText(shape, r)).join(',')}]`;
}

function scalarText(value: unknown, output: ScalarOutput): string {
  if (value === null || value === undefined) return 'null';
  if (output === 'string') return JSON.stringify(String(value));
  if (typeof value === 'number' && !Number.isFinite(value)) return JSON.stringify(String(value));
  return JSON.stringify(value);
}

// A row set with no rows (a LEFT JOIN that found none) counts 0, sums null, and has no nodes.
function aggregateText(a: AggregateSelect, value: unknown): string {
  const parts = a.fields.map((part, i) => {
    const v = part.value;
    const x = at(value, i);
    let text: string;
    switch (v.kind) {
      case 'name': text = JSON.stringify(v.name); break;
      case 'nodes': text = listText(v.shape, x); break;
      case 'list': text = listText(v.shape, x); break;
      case 'functions': {
        const fns = v.fields.map((f, k) => {
          const fv = f.value;
          const y = at(x, k);
          if (fv.kind === 'name') return `${JSON.stringify(f.key)}:${JSON.stringify(fv.name)}`;
          if (fv.kind === 'count') return `${JSON.stringify(f.key)}:${y === null ? 0 : Number(y)}`;
          const cols = fv.fields.map((c, m) => `${JSON.stringify(c.key)}:${c.value.kind === 'name' ? JSON.stringify(c.value.name) : scalarText(at(y, m), c.value.output)}`);
          return `${JSON.stringify(f.key)}:{${cols.join(',')}}`;
        });
        text = `{${fns.join(',')}}`;
        break;
      }
      default: return unreachable(v);
    }
    return `${JSON.stringify(part.key)}:${text}`;
  });
  return `{${parts.join(',')}}`;
}
