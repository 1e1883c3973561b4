// Cron triggers of a metadata document and the retry configuration of scheduled events, typed.
// The compiler checked each definition when it was stored (compiler/ops/extra/cron-triggers.ts);
// this reading fills Hasura's defaults and skips what is not shaped as expected.

import type { Json } from '../bundle/index.js';
import { headerConfs, type HeaderConf } from './definitions.js';

/** RetryConfST, the retry configuration of cron triggers and one-off events. */
export interface ScheduledRetryConf {
  readonly num_retries: number;
  readonly retry_interval_seconds: number;
  readonly timeout_seconds: number;
  /** An event later than this many seconds past its time is marked dead instead of sent. */
  readonly tolerance_seconds: number;
}

export interface CronTriggerDef {
  readonly name: string;
  readonly webhook: string;
  readonly schedule: string;
  readonly payload: Json | undefined;
  readonly headers: readonly HeaderConf[];
  readonly retry_conf: ScheduledRetryConf;
  readonly include_in_metadata: boolean;
  readonly comment: string | undefined;
  readonly request_transform: Json | undefined;
  /** The definition as stored (what get_cron_triggers answers). */
  readonly stored: Json;
}

type Obj = { readonly [k: string]: Json };

function obj(v: Json | undefined): Obj | undefined {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

function nat(v: Json | undefined, dflt: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : dflt;
}

// NonNegativeDiffTime: fractions of a second are kept.
function seconds(v: Json | undefined, dflt: number): number {
  return typeof v === 'number' && v >= 0 ? v : dflt;
}

/** RetryConfST with Hasura's defaults: 0 retries, 10 s apart, 60 s timeout, 6 h tolerance. */
export function retryConfST(v: Json | undefined): ScheduledRetryConf {
  const o = obj(v) ?? {};
  return {
    num_retries: nat(o['num_retries'], 0),
    retry_interval_seconds: seconds(o['retry_interval_seconds'], 10),
    timeout_seconds: seconds(o['timeout_seconds'], 60),
    tolerance_seconds: seconds(o['tolerance_seconds'], 21600),
  };
}

function cronTrigger(v: Json): CronTriggerDef | undefined {
  const o = obj(v);
  const name = o?.['name'];
  const webhook = o?.['webhook'];
  const schedule = o?.['schedule'];
  if (!o || typeof name !== 'string' || typeof webhook !== 'string' || typeof schedule !== 'string') return undefined;
  const comment = o['comment'];
  const rt = o['request_transform'];
  return {
    name, webhook, schedule,
    payload: o['payload'],
    headers: headerConfs(o['headers']),
    retry_conf: retryConfST(o['retry_conf']),
    include_in_metadata: o['include_in_metadata'] === true,
    comment: typeof comment === 'string' ? comment : undefined,
    request_transform: rt === null ? undefined : rt,
    stored: v,
  };
}

/** Every cron trigger of the document, include_in_metadata or not, in document order. */
export function cronTriggersOf(metadata: Json): CronTriggerDef[] {
  const list = obj(metadata)?.['cron_triggers'];
  return (Array.isArray(list) ? list : []).map(cronTrigger).filter((t): t is CronTriggerDef => t !== undefined);
}
