// Cron trigger definitions: `create_cron_trigger` (with `replace`) and `delete_cron_trigger`
// (Hasura.RQL.DDL.ScheduledTrigger, messages kept). Scheduling the events is the workers'.

import { ApiError, ArgsReader, asBool, asName, asString, type JsonObject, type JsonValue, parseFailed } from '../../../runtime/errors/index.js';
import type { OpHandler } from '../types.js';
import { compact } from './compact.js';
import { created, dropped, findBy, listOf, removeBy, upsert, withList } from './document.js';
import { cronProblem } from './cron-expression.js';
import { readHeaders } from './headers.js';

/** RetryConfST with Hasura's defaults. */
function readRetryConf(r: ArgsReader): JsonObject {
  const rc = r.optObject('retry_conf');
  return rc?.retryConfST() ?? { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };
}

/**
 * The definition of a cron trigger, in the order Hasura's parsers read it: CreateCronTrigger and
 * CronTriggerMetadata are written by hand with aeson's `.:` (RQL/Types/ScheduledTrigger.hs), so a
 * missing `name`, `webhook`, `schedule` or `include_in_metadata` is `key "webhook" not found`.
 */
export function readCronDefinition(r: ArgsReader): { name: string; webhook: string; schedule: string; payload: JsonValue | undefined;
  retryConf: JsonObject; headers: ReturnType<typeof readHeaders>; includeInMetadata: boolean } {
  const name = asName(r.field('name'), r.at('name'));
  const webhook = asString(r.field('webhook'), r.at('webhook'));
  const payload = r.raw('payload');
  const schedule = asString(r.field('schedule'), r.at('schedule'));
  const problem = cronProblem(schedule);
  if (problem !== undefined) throw parseFailed(r.at('schedule'), `invalid cron expression: ${problem}`);
  const retryConf = readRetryConf(r);
  const headers = readHeaders(r);
  const includeInMetadata = asBool(r.field('include_in_metadata'), r.at('include_in_metadata'));
  return { name, webhook, schedule, payload, retryConf, headers, includeInMetadata };
}

export const createCronTrigger: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const { name, webhook, schedule, payload, retryConf, headers, includeInMetadata } = readCronDefinition(r);
  const comment = r.comment();
  const replace = r.bool('replace', false);
  const list = listOf(input.metadata, 'cron_triggers');
  if (!replace && findBy(list, 'name', name) !== undefined) {
    throw new ApiError('already-exists', `cron trigger with name: ${name} already exists`, 400, ['args']);
  }
  const entry = compact({
    name, webhook, schedule, include_in_metadata: includeInMetadata, payload, retry_conf: retryConf, headers, comment,
    request_transform: input.api === 'metadata' ? r.raw('request_transform') : undefined,
    response_transform: input.api === 'metadata' ? r.raw('response_transform') : undefined,
  });
  const md = withList(input.metadata, 'cron_triggers', upsert(list, 'name', name, entry));
  return created(md, 'cron_trigger', `cron_trigger ${name}`);
};

export const deleteCronTrigger: OpHandler = (input) => {
  const name = ArgsReader.args(input).name('name');
  const list = listOf(input.metadata, 'cron_triggers');
  if (findBy(list, 'name', name) === undefined) {
    throw new ApiError('not-exists', `cron trigger with name: ${name} does not exist`, 400, ['args']);
  }
  return dropped(withList(input.metadata, 'cron_triggers', removeBy(list, 'name', name)), false);
};
