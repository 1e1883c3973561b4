// Values between BigQuery's REST form (every scalar a string; a record `{f: [{v}]}`, an array
// `[{v}]`) and ZetaSQL's ValueProto / TypeProto, for the local BigQuery stand-in.

const KINDS = {
  INT64: 'TYPE_INT64', INTEGER: 'TYPE_INT64', FLOAT64: 'TYPE_DOUBLE', FLOAT: 'TYPE_DOUBLE', NUMERIC: 'TYPE_NUMERIC',
  BIGNUMERIC: 'TYPE_BIGNUMERIC', BOOL: 'TYPE_BOOL', BOOLEAN: 'TYPE_BOOL', STRING: 'TYPE_STRING', BYTES: 'TYPE_BYTES',
  DATE: 'TYPE_DATE', DATETIME: 'TYPE_DATETIME', TIME: 'TYPE_TIME', TIMESTAMP: 'TYPE_TIMESTAMP', JSON: 'TYPE_JSON',
};

const NAMES = {
  TYPE_INT64: 'INT64', TYPE_INT32: 'INT64', TYPE_UINT32: 'INT64', TYPE_UINT64: 'INT64', TYPE_DOUBLE: 'FLOAT64', TYPE_FLOAT: 'FLOAT64',
  TYPE_NUMERIC: 'NUMERIC', TYPE_BIGNUMERIC: 'BIGNUMERIC', TYPE_BOOL: 'BOOL', TYPE_STRING: 'STRING', TYPE_BYTES: 'BYTES',
  TYPE_DATE: 'DATE', TYPE_DATETIME: 'DATETIME', TYPE_TIME: 'TIME', TYPE_TIMESTAMP: 'TIMESTAMP', TYPE_JSON: 'JSON',
};

/** A REST table field (`{name, type, mode, fields}`) or a query parameter type as a ZetaSQL TypeProto. */
export function typeOfField(f) {
  const base = f.type === 'RECORD' || f.type === 'STRUCT'
    ? { typeKind: 'TYPE_STRUCT', structType: { field: (f.fields ?? []).map((x) => ({ fieldName: x.name, fieldType: typeOfField(x) })) } }
    : scalarType(f.type);
  return f.mode === 'REPEATED' ? { typeKind: 'TYPE_ARRAY', arrayType: { elementType: base } } : base;
}

/** A query parameter's `parameterType` (`{type, arrayType, structTypes}`) as a TypeProto. */
export function typeOfParam(t) {
  if (t.type === 'ARRAY') return { typeKind: 'TYPE_ARRAY', arrayType: { elementType: typeOfParam(t.arrayType) } };
  if (t.type === 'STRUCT') {
    return { typeKind: 'TYPE_STRUCT', structType: { field: (t.structTypes ?? []).map((x) => ({ fieldName: x.name ?? '', fieldType: typeOfParam(x.type) })) } };
  }
  return scalarType(t.type);
}

function scalarType(name) {
  const kind = KINDS[name];
  if (!kind) throw new StandInError(`unsupported type ${name}`);
  return { typeKind: kind };
}

/** A ZetaSQL TypeProto as a REST schema field named `name`. */
export function fieldOfType(name, type) {
  if (type.typeKind === 'TYPE_ARRAY') return { ...fieldOfType(name, type.arrayType.elementType), mode: 'REPEATED' };
  if (type.typeKind === 'TYPE_STRUCT') {
    return { name, type: 'RECORD', mode: 'NULLABLE', fields: type.structType.field.map((f, i) => fieldOfType(f.fieldName || `_field_${i + 1}`, f.fieldType)) };
  }
  const t = NAMES[type.typeKind];
  if (!t) throw new StandInError(`result type ${type.typeKind} is not supported by the stand-in`);
  return { name, type: t, mode: 'NULLABLE' };
}

/** A REST value (string, `{f}` or `[{v}]`; null) of `type` as a ValueProto. */
export function toZeta(v, type) {
  if (v === null || v === undefined) return {};
  switch (type.typeKind) {
    case 'TYPE_ARRAY': return { arrayValue: { element: v.map((e) => toZeta(e?.v ?? e, type.arrayType.elementType)) } };
    case 'TYPE_STRUCT': {
      const cells = Array.isArray(v.f) ? v.f.map((c) => c.v) : type.structType.field.map((f) => v[f.fieldName]);
      return { structValue: { field: type.structType.field.map((f, i) => toZeta(cells[i], f.fieldType)) } };
    }
    case 'TYPE_INT64': return { int64Value: integerText(v) };
    case 'TYPE_DOUBLE': return { doubleValue: Number(v) };
    case 'TYPE_NUMERIC': return { numericValue: encodeScaled(String(v), 9) };
    case 'TYPE_BIGNUMERIC': return { bignumericValue: encodeScaled(String(v), 38) };
    case 'TYPE_BOOL': return { boolValue: v === true || String(v).toLowerCase() === 'true' };
    case 'TYPE_STRING': return { stringValue: String(v) };
    case 'TYPE_JSON': return { jsonValue: String(v) };
    case 'TYPE_BYTES': return { bytesValue: Buffer.from(String(v), 'base64') };
    case 'TYPE_DATE': return { dateValue: daysOf(String(v)) };
    case 'TYPE_DATETIME': return { datetimeValue: datetimeOf(String(v)) };
    case 'TYPE_TIMESTAMP': return { timestampValue: timestampOf(String(v)) };
    default: throw new StandInError(`unsupported value type ${type.typeKind}`);
  }
}

/** A ValueProto of `type` in REST form; `int64Timestamp` writes TIMESTAMP as microseconds. */
export function fromZeta(value, type, int64Timestamp) {
  if (!value || value.value === undefined || value.value === null) return null;
  const x = value[value.value];
  switch (value.value) {
    case 'arrayValue': return (x.element ?? []).map((e) => ({ v: fromZeta(e, type.arrayType.elementType, int64Timestamp) }));
    case 'structValue': return { f: (x.field ?? []).map((e, i) => ({ v: fromZeta(e, type.structType.field[i].fieldType, int64Timestamp) })) };
    case 'int64Value': case 'int32Value': case 'uint32Value': case 'uint64Value': return String(x);
    case 'doubleValue': case 'floatValue': return Number.isFinite(x) ? String(x) : x > 0 ? 'Infinity' : x < 0 ? '-Infinity' : 'NaN';
    case 'numericValue': return decodeScaled(x, 9);
    case 'bignumericValue': return decodeScaled(x, 38);
    case 'boolValue': return x ? 'true' : 'false';
    case 'stringValue': return x;
    case 'jsonValue': return x;
    case 'bytesValue': return Buffer.from(x).toString('base64');
    case 'dateValue': return dateText(x);
    case 'datetimeValue': return datetimeText(x);
    case 'timestampValue': {
      const micros = BigInt(x.seconds ?? 0) * 1000000n + BigInt(Math.trunc((x.nanos ?? 0) / 1000));
      return int64Timestamp ? micros.toString() : String(Number(micros) / 1e6);
    }
    default: throw new StandInError(`result value ${value.value} is not supported by the stand-in`);
  }
}

/** An error the stand-in answers as BigQuery's `invalidQuery` (HTTP 400). */
export class StandInError extends Error {}

function integerText(v) {
  const s = String(v).trim();
  if (!/^[+-]?\d+$/.test(s)) throw new StandInError(`Invalid INT64 value: ${s}`);
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw new StandInError(`INT64 value out of range: ${s}`);
  return n.toString();
}

// NUMERIC is an integer scaled by 10^9, BIGNUMERIC by 10^38; ZetaSQL serializes it as
// little-endian two's complement bytes, as few as keep the sign.
function encodeScaled(text, scale) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new StandInError(`Invalid NUMERIC value: ${text}`);
  let digits = (m[2] || '0') + (m[3] ?? '');
  let exp = Number(m[4] ?? 0) - (m[3] ?? '').length + scale;
  if (exp < 0) {
    const cut = digits.length + exp;
    const kept = cut > 0 ? digits.slice(0, cut) : '0';
    const dropped = cut > 0 ? digits.slice(cut) : digits.padStart(-exp, '0');
    digits = (BigInt(kept) + (dropped[0] >= '5' ? 1n : 0n)).toString();
    exp = 0;
  }
  let n = BigInt(digits) * 10n ** BigInt(exp);
  if (m[1] === '-') n = -n;
  const bytes = [];
  for (;;) {
    const b = Number(n & 0xffn);
    bytes.push(b);
    n >>= 8n;
    if ((n === 0n && (b & 0x80) === 0) || (n === -1n && (b & 0x80) !== 0)) break;
  }
  return Buffer.from(bytes);
}

function decodeScaled(buf, scale) {
  const b = Buffer.from(buf);
  if (b.length === 0) return '0';
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i]);
  if (b[b.length - 1] & 0x80) n -= 1n << BigInt(8 * b.length);
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = s.slice(s.length - scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

const DAY_MS = 86400000;

function daysOf(text) {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (!m) throw new StandInError(`Invalid DATE value: ${text}`);
  return Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
}

function dateText(days) {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

// DATETIME's bit field: year(14) month(4) day(5) hour(5) minute(6) second(6), lowest last.
function datetimeOf(text) {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?$/.exec(text);
  if (!m) throw new StandInError(`Invalid DATETIME value: ${text}`);
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => BigInt(m[i] ?? 0));
  const bits = (y << 26n) | (mo << 22n) | (d << 17n) | (h << 12n) | (mi << 6n) | s;
  return { bitFieldDatetimeSeconds: bits.toString(), nanos: Number((m[7] ?? '').padEnd(9, '0')) };
}

function datetimeText(x) {
  const bits = BigInt(x.bitFieldDatetimeSeconds ?? 0);
  const f = (shift, width) => Number((bits >> BigInt(shift)) & ((1n << BigInt(width)) - 1n));
  const p = (n, w = 2) => String(n).padStart(w, '0');
  const nanos = x.nanos ?? 0;
  const frac = nanos ? `.${p(nanos, 9).replace(/0+$/, '').padEnd(6, '0')}` : '';
  return `${p(f(26, 14), 4)}-${p(f(22, 4))}-${p(f(17, 5))}T${p(f(12, 5))}:${p(f(6, 6))}:${p(f(0, 6))}${frac}`;
}

function timestampOf(text) {
  const micros = /^-?\d+$/.test(text) ? BigInt(text) : null;
  if (micros !== null) return { seconds: (micros / 1000000n).toString(), nanos: Number(micros % 1000000n) * 1000 };
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text.replace(' ', 'T') : `${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(ms)) throw new StandInError(`Invalid TIMESTAMP value: ${text}`);
  return { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1000000 };
}
