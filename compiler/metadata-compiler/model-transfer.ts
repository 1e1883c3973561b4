// The compiled model and SDL, sent from the compile worker to the serving thread with only what
// the serving thread does not hold yet (issue 19). A structured clone of a 1,000-table model is
// 19 MB and its SDL 40 MB; reading them back on the serving thread stops every query for
// seconds. The model's large maps (tables by id; roots, permissions, templates, root and mutation templates by role) go as
// one content digest per entry, with the entry itself only when the other side lacks it; each
// role's SDL goes as its schema key (schema-cache.ts), with the text only when it is new.

import type { BundleModel, Json } from '../../runtime/bundle/index.js';
import { digestText } from './reuse.js';

/** The model's maps sent entry by entry: the path of each from the model's top. */
const SPLIT: readonly (readonly string[])[] = [['tables'], ['roots'], ['select'], ['mutations'], ['templates', 'roles'], ['rootTemplates', 'roles'], ['mutationTemplates', 'roles']];

/** A model as sent: its small parts whole, its large maps as digests, the entries the receiver lacks. */
export interface PackedModel {
  /** The model with every split map replaced by a map of digests. */
  readonly skeleton: Json;
  /** Entries by digest: only those not in the receiver's `have`. */
  readonly entries: { readonly [digest: string]: Json };
}

/** The SDL as sent: each role's key, and the texts of keys the receiver lacks. */
export interface PackedSdl {
  readonly keys: { readonly [role: string]: string };
  readonly texts: { readonly [key: string]: string };
}

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Packs `model` for a receiver that holds the entries digested in `have` (`digest`: a content digest of an entry). */
export function packModel(model: BundleModel, have: ReadonlySet<string>, digest: (entry: Json) => string = (v) => digestText(JSON.stringify(v))): PackedModel {
  const entries: Obj = {};
  const skeleton = replaceSplit(model as unknown as Json, (map) => {
    const out: { [k: string]: string } = {};
    for (const [k, v] of Object.entries(map)) {
      const d = digest(v);
      out[k] = d;
      if (!have.has(d)) entries[d] = v;
    }
    return out;
  });
  return { skeleton, entries };
}

/** Packs the SDL: texts only for keys the receiver does not hold. */
export function packSdl(sdl: { readonly [role: string]: string }, keys: { readonly [role: string]: string }, have: ReadonlySet<string>): PackedSdl {
  const texts: { [key: string]: string } = {};
  const out: { [role: string]: string } = {};
  for (const [role, text] of Object.entries(sdl)) {
    const key = keys[role] ?? digestText(text);
    out[role] = key;
    if (!have.has(key)) texts[key] = text;
  }
  return { keys: out, texts };
}

/**
 * What the serving thread holds of earlier answers: model entries by digest and SDL texts by key,
 * from the last two answers (an answer for an edit that fails is not served, and must not make
 * the next one resend what is served). Bounded by two models' entries and two sets of texts.
 */
export class ReceivedParts {
  private current = { entries: new Map<string, Json>(), texts: new Map<string, string>() };
  private older = { entries: new Map<string, Json>(), texts: new Map<string, string>() };

  /** The digests and keys the worker need not send again. */
  have(): { entries: string[]; texts: string[] } {
    return { entries: [...new Set([...this.current.entries.keys(), ...this.older.entries.keys()])],
      texts: [...new Set([...this.current.texts.keys(), ...this.older.texts.keys()])] };
  }

  /** Forgets everything (the worker that knew what was sent stopped). */
  clear(): void {
    this.current = { entries: new Map(), texts: new Map() };
    this.older = { entries: new Map(), texts: new Map() };
  }

  /** The model and SDL of an answer, from its new parts and the ones held. */
  unpack(model: PackedModel, sdl: PackedSdl): { model: BundleModel; sdl: { [role: string]: string } } {
    const next = { entries: new Map<string, Json>(), texts: new Map<string, string>() };
    const entry = (d: string): Json => {
      const v = model.entries[d] ?? this.current.entries.get(d) ?? this.older.entries.get(d);
      if (v === undefined) throw new Error(`assertion failed: the compile worker sent no entry ${d} and none is held`);
      next.entries.set(d, v);
      return v;
    };
    const full = replaceSplit(model.skeleton, (map) => {
      const out: Obj = {};
      for (const [k, d] of Object.entries(map)) out[k] = entry(d as string);
      return out;
    });
    const texts: { [role: string]: string } = {};
    for (const [role, key] of Object.entries(sdl.keys)) {
      const t = sdl.texts[key] ?? next.texts.get(key) ?? this.current.texts.get(key) ?? this.older.texts.get(key);
      if (t === undefined) throw new Error(`assertion failed: the compile worker sent no SDL for key ${key} and none is held`);
      next.texts.set(key, t);
      texts[role] = t;
    }
    this.older = this.current;
    this.current = next;
    return { model: full as unknown as BundleModel, sdl: texts };
  }
}

// `value` with each split map (where present) replaced by `f` of it; every other part kept, in its order.
function replaceSplit(value: Json, f: (map: Obj) => Json): Json {
  const walk = (v: Json, path: readonly (readonly string[])[], depth: number): Json => {
    if (!isObj(v)) return v;
    const out: Obj = {};
    for (const [k, child] of Object.entries(v)) {
      const below = path.filter((p) => p[depth] === k);
      if (below.length === 0) out[k] = child;
      else if (below.some((p) => p.length === depth + 1)) out[k] = isObj(child) ? f(child) : child;
      else out[k] = walk(child, below, depth + 1);
    }
    return out;
  };
  return walk(value, SPLIT, 0);
}
