// The args of the scheduled event operations, read as Hasura's aeson parsers read them: the first
// problem is a 400 `parse-failed` at the value's path ($.args.x on /v1/metadata, $.x on
// /v1/query), in aeson's words.

import type { Json } from '../bundle/index.js';
import type { ApiKind } from '../metadata-api/index.js';
import { parseRequestTransform, parseResponseTransform } from '../transforms/index.js';
import { ArgsReader, asString, mismatch, parseFailed as failed, type JsonPath } from '../errors/index.js';
import type { HeaderConf } from './definitions.js';
import type { ScheduledRetryConf } from './scheduled-definitions.js';

type Obj = { readonly [k: string]: Json };

export type ScheduledType = 'one_off' | 'cron';
export const STATUSES = ['scheduled', 'locked', 'delivered', 'error', 'dead'] as const;
export type ScheduledStatus = (typeof STATUSES)[number];

function tag<T extends string>(v: Json, path: JsonPath, parser: string, tags: readonly T[]): T {
  if (typeof v !== 'string') throw mismatch(path, parser, 'String', v);
  if (!(tags as readonly string[]).includes(v)) {
    throw failed(path, `parsing ${parser} failed, expected one of the tags [${tags.map((t) => `'${t}'`).join(', ')}], but found tag '${v}'`);
  }
  return v as T;
}

/**
 * `type`: one_off | cron. delete_scheduled_event's parser is derived ("the key 'type' was not
 * present"); the get_ operations read it with a hand-written `.:` (`key "type" not found`).
 */
export function scheduledType(a: ArgsReader, parser: 'derived' | 'hand-written' = 'derived'): ScheduledType {
  const v = parser === 'derived' ? a.required('type') : a.field('type');
  return tag(v, a.at('type'), 'ScheduledEventType', ['one_off', 'cron']);
}

/** A text key read with a hand-written `.:` (Hasura's `o .: "trigger_name"`): absent, `key "x" not found`. */
export function fieldText(a: ArgsReader, key: string): string {
  return asString(a.field(key), a.at(key));
}

/** `status`: a list of event states (absent: all). */
export function statuses(a: ArgsReader): readonly ScheduledStatus[] {
  return (a.optArray('status') ?? []).map((s, i) => tag(s, [...a.at('status'), i], 'ScheduledEventStatus', STATUSES));
}

/** `limit` / `offset`. */
export function pagination(a: ArgsReader): { readonly limit: number | null; readonly offset: number } {
  return { limit: a.optCount('limit') ?? null, offset: a.optCount('offset') ?? 0 };
}

// The environment prefix the engine keeps for itself (Hasura: HASURA_GRAPHQL_).
const RESERVED_PREFIX = 'SVC_GRAPHQL_';

function header(v: Json, path: JsonPath): HeaderConf {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw failed(path, 'expecting object for headers');
  const h = v as Obj;
  if (typeof h['name'] !== 'string') {
    throw h['name'] === undefined || h['name'] === null ? failed(path, "the key 'name' was not present") : mismatch([...path, 'name'], 'Text', 'String', h['name']);
  }
  const value = h['value'];
  const fromEnv = h['value_from_env'];
  const has = (x: Json | undefined): boolean => x !== undefined && x !== null;
  if (!has(value) && !has(fromEnv)) throw failed(path, 'expecting value or value_from_env keys');
  if (has(value) && has(fromEnv)) throw failed(path, 'expecting only one of value or value_from_env keys');
  if (has(value)) {
    if (typeof value !== 'string') throw mismatch([...path, 'value'], 'Text', 'String', value);
    return { name: h['name'], value };
  }
  if (typeof fromEnv !== 'string') throw mismatch([...path, 'value_from_env'], 'Text', 'String', fromEnv);
  if (fromEnv.startsWith(RESERVED_PREFIX)) {
    throw failed(path, `env variables starting with "${RESERVED_PREFIX}" are not allowed in value_from_env: ${fromEnv}`);
  }
  return { name: h['name'], value_from_env: fromEnv };
}

// ISO 8601 with an optional zone (none: UTC, as the sessions run in UTC).
const TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function time(v: Json, path: JsonPath): string {
  if (typeof v !== 'string') throw mismatch(path, 'UTCTime', 'String', v);
  const m = TIME.exec(v.trim());
  const text = m ? `${m[1]}T${m[2]}${m[3] === undefined ? 'Z' : m[3].toUpperCase()}` : '';
  // The check reads milliseconds at most; PostgreSQL keeps the microseconds.
  if (!m || Number.isNaN(Date.parse(text.replace(/(\.\d{3})\d+/, '$1')))) {
    throw failed(path, `parsing UTCTime failed, could not parse an ISO 8601 time: ${JSON.stringify(v)}`);
  }
  return text;
}

/** A one-off event as create_scheduled_event asks for it. */
export interface OneOffRequest {
  readonly webhook: string;
  readonly scheduleAt: string;
  readonly payload: Json | undefined;
  readonly headers: readonly HeaderConf[];
  readonly retryConf: ScheduledRetryConf;
  readonly comment: string | undefined;
  readonly requestTransform: Json | undefined;
  readonly responseTransform: Json | undefined;
}

/**
 * Reads create_scheduled_event's args (the transforms only on /v1/metadata). Hasura's parser is
 * hand-written (`o .: "webhook"`, `o .: "schedule_at"`), so a missing key is aeson's `key "x" not found`.
 */
export function oneOffRequest(args: Json, api: ApiKind): OneOffRequest {
  const a = ArgsReader.args({ args, api });
  const webhook = fieldText(a, 'webhook');
  const scheduleAt = time(a.field('schedule_at'), a.at('schedule_at'));
  const rc = a.optObject('retry_conf');
  const retryConf: ScheduledRetryConf = rc?.retryConfST() ?? { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };
  const headers = (a.optArray('headers') ?? []).map((h, i) => header(h, [...a.at('headers'), i]));
  const requestTransform = api === 'metadata' ? a.raw('request_transform') : undefined;
  const responseTransform = api === 'metadata' ? a.raw('response_transform') : undefined;
  if (requestTransform !== undefined) parseRequestTransform(requestTransform, a.at('request_transform'));
  if (responseTransform !== undefined) parseResponseTransform(responseTransform, a.at('response_transform'));
  return {
    webhook, scheduleAt, payload: a.raw('payload'), headers, retryConf, comment: a.optString('comment'),
    requestTransform, responseTransform,
  };
}
