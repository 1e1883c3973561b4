import { ApiError } from '../../errors/index.js';

/** A parsed JSON path (`$.a.b`, `$.a['b%']`, `$["x"][0]`): object keys and array indexes. */
export type JsonPathSegments = readonly (string | number)[];

// A key name: a letter or `_`, then letters, digits, `_` and `-` (Hasura's Data.Parser.JSONPath `name`).
const NAME = /^[\p{L}_][\p{L}0-9_-]*/u;

/**
 * Parses the JSON paths of `claims_namespace_path` and `claims_map` as Hasura does
 * (Data/Parser/JSONPath.hs, parseJSONPath): `$` alone is the payload root; otherwise an
 * optional `$`, then one or more elements, each `name` or `[3]`, `['any key']`, `["any key"]`,
 * with or without a `.` before it (`$.a.b`, `$.a['b%']`, `$.['x'].y`, `a.b`).
 * Throws `invalid-configuration` naming the path when it does not parse.
 */
export function parseJsonPath(text: string): JsonPathSegments {
  const fail = (why: string): never => {
    throw new ApiError('invalid-configuration', `invalid JSON path "${text}": ${why}`);
  };
  if (text === '$') return [];
  const out: (string | number)[] = [];
  let i = text.startsWith('$') ? 1 : 0;
  if (i >= text.length) fail('it has no element');
  while (i < text.length) {
    if (text[i] === '.') i++;
    if (text[i] === '[') {
      const close = readBracket(text, i + 1, fail);
      out.push(close.segment);
      i = close.next;
      continue;
    }
    const m = NAME.exec(text.slice(i));
    if (!m) fail(`expected a key name (a letter or "_", then letters, digits, "_" or "-") or a bracket at position ${i}`);
    out.push(m![0]);
    i += m![0].length;
  }
  return out;
}

function readBracket(text: string, start: number, fail: (why: string) => never): { segment: string | number; next: number } {
  const q = text[start];
  if (q === "'" || q === '"') {
    let key = '';
    let i = start + 1;
    while (i < text.length && text[i] !== q) {
      if (text[i] === '\\' && i + 1 < text.length) i++;
      key += text[i];
      i++;
    }
    if (text[i] !== q || text[i + 1] !== ']') fail(`unterminated bracket at position ${start - 1}`);
    return { segment: key, next: i + 2 };
  }
  const end = text.indexOf(']', start);
  const digits = end < 0 ? '' : text.slice(start, end);
  if (!/^\d+$/.test(digits)) fail(`expected a quoted key or an index at position ${start}`);
  return { segment: Number(digits), next: end + 1 };
}

/** The value at `path` inside `root`, or undefined when any step is missing. */
export function readJsonPath(root: unknown, path: JsonPathSegments): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (typeof key === 'number') {
      if (!Array.isArray(v)) return undefined;
      v = v[key];
    } else {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
      if (!Object.hasOwn(v, key)) return undefined;
      v = (v as Record<string, unknown>)[key];
    }
  }
  return v;
}
