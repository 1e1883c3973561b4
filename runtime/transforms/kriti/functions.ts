// Kriti's function library (`basicFuncMap`) plus the engine's getSessionVariable
// (reference/kriti.md §5). Every function takes one value; a failure is a FunctionFailure whose
// message becomes a Function Error at the argument's span.

import type { Json } from '../../bundle/index.js';
import { isObject, renderText, typeName } from './values.js';

/** Raised by a library function; the evaluator adds the position. */
export class FunctionFailure extends Error {}

/** A library function. */
export type KritiFunction = (arg: Json) => Json;

/** The functions a template may call, by name. */
export type FunctionTable = ReadonlyMap<string, KritiFunction>;

function expectString(v: Json): string {
  if (typeof v !== 'string') throw new FunctionFailure(`Expected String, but encountered ${typeName(v)}`);
  return v;
}

function empty(v: Json): Json {
  if (typeof v === 'boolean') throw new FunctionFailure('Cannot define emptiness for a boolean');
  if (v === null) return true;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  return Object.keys(v).length === 0;
}

function size(v: Json): Json {
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  return Object.keys(v).length;
}

function inverse(v: Json): Json {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') {
    if (v === 0) throw new FunctionFailure('Cannot invert zero');
    return 1 / v;
  }
  if (typeof v === 'string') return [...v].reverse().join('');
  if (Array.isArray(v)) return [...v].reverse();
  return v;
}

function head(v: Json): Json {
  if (Array.isArray(v)) {
    if (v.length === 0) throw new FunctionFailure('Empty array');
    return v[0]!;
  }
  if (typeof v === 'string') {
    if (v === '') throw new FunctionFailure('Empty string');
    return [...v][0]!;
  }
  throw new FunctionFailure('Expected an array or string');
}

// The empty case of tail is unconfirmed against Kriti (reference/kriti.md §5); it gives the empty value.
function tail(v: Json): Json {
  if (Array.isArray(v)) return v.slice(1);
  if (typeof v === 'string') return [...v].slice(1).join('');
  throw new FunctionFailure('Expected an array or string');
}

/** Title case: the first letter of each word upper-cased, the rest lower-cased. */
function toTitle(v: Json): Json {
  let inWord = false;
  let out = '';
  for (const ch of expectString(v)) {
    const wordChar = /[\p{L}\p{M}\p{N}']/u.test(ch);
    out += wordChar && !inWord ? ch.toUpperCase() : ch.toLowerCase();
    inWord = wordChar;
  }
  return out;
}

// Full case folding approximated by upper- then lower-casing (ß → SS → ss, ς → Σ → σ).
function toCaseFold(v: Json): Json {
  return expectString(v).toUpperCase().toLowerCase();
}

/** Percent-encodes every UTF-8 byte outside `A-Z a-z 0-9 - . _ ~`, with upper-case hex. */
export function escapeUri(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const PAIRS_SHAPE = 'Expected an array of [key, value] pairs with string keys';

function fromPairs(v: Json): Json {
  if (!Array.isArray(v)) throw new FunctionFailure(PAIRS_SHAPE);
  const out: { [k: string]: Json } = {};
  for (const pair of v) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') throw new FunctionFailure(PAIRS_SHAPE);
    out[pair[0]] = pair[1]!;
  }
  return out;
}

function toPairs(v: Json): Json {
  if (!isObject(v)) throw new FunctionFailure(`Expected Object, but encountered ${typeName(v)}`);
  return Object.entries(v).map(([k, x]) => [k, x]);
}

function removeNulls(v: Json): Json {
  if (!Array.isArray(v)) throw new FunctionFailure(`Expected Array, but encountered ${typeName(v)}`);
  return v.filter((x) => x !== null);
}

/** Flattens arrays, joins strings, or merges objects (the right-most wins). */
function concat(v: Json): Json {
  if (!Array.isArray(v)) throw new FunctionFailure(`Expected Array, but encountered ${typeName(v)}`);
  if (v.length === 0) return [];
  if (v.every((x) => Array.isArray(x))) return (v as Json[][]).flat(1);
  if (v.every((x) => typeof x === 'string')) return (v as string[]).join('');
  if (v.every((x) => isObject(x))) return Object.assign({}, ...v) as Json;
  throw new FunctionFailure('Expected an array of arrays, an array of strings or an array of objects');
}

function not(v: Json): Json {
  if (typeof v !== 'boolean') throw new FunctionFailure(`Expected Boolean, but encountered ${typeName(v)}`);
  return !v;
}

/** getSessionVariable over the request's session (case-insensitive names); null when there is none. */
function sessionLookup(session: Readonly<Record<string, Json>> | null): KritiFunction {
  return (v) => {
    if (v === null) return null;
    if (typeof v !== 'string') throw new FunctionFailure('Session variable name should be a string');
    const wanted = v.toLowerCase();
    const hit = session ? Object.keys(session).find((k) => k.toLowerCase() === wanted) : undefined;
    if (hit === undefined) throw new FunctionFailure(`Session variable "${v}" not found`);
    return renderText(session![hit]!);
  };
}

/** Kriti's basic functions plus getSessionVariable bound to `session`. */
export function transformFunctions(session: Readonly<Record<string, Json>> | null): FunctionTable {
  return new Map<string, KritiFunction>([
    ['empty', empty],
    ['size', size],
    ['inverse', inverse],
    ['head', head],
    ['tail', tail],
    ['toCaseFold', toCaseFold],
    ['toLower', (v) => expectString(v).toLowerCase()],
    ['toUpper', (v) => expectString(v).toUpperCase()],
    ['toTitle', toTitle],
    ['escapeUri', (v) => escapeUri(expectString(v))],
    ['fromPairs', fromPairs],
    ['toPairs', toPairs],
    ['removeNulls', removeNulls],
    ['concat', concat],
    ['not', not],
    ['getSessionVariable', sessionLookup(session)],
  ]);
}
