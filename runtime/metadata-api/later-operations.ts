// Operations Hasura has that Kiln does not run yet, by what they need: a clear refusal when run
// instead of "unknown command" (they parse as Hasura's requests do).

import { ApiError } from '../errors/index.js';

const LATER: readonly (readonly [RegExp, string])[] = [
  [/^introspect_remote_schema$/, 'introspect_remote_schema is not supported yet'],
  [/^get_event_invocations$/,
    'this older operation is not supported; use get_scheduled_event_invocations'],
  [/^(?:pause_event_trigger_cleanups|resume_event_trigger_cleanups)$/,
    'scheduled cleanups of event logs are not supported yet; run cleanup_event_trigger_logs to clear old events'],
];

/** The refusal of an operation of later work (400 not-supported at `$.type`), or undefined. */
export function laterRefusal(type: string): ApiError | undefined {
  const later = LATER.find(([re]) => re.test(type));
  return later ? new ApiError('not-supported', `${type}: ${later[1]}`, 400, ['type']) : undefined;
}
