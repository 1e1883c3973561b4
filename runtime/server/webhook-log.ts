// `webhook-log` lines (one of Hasura's default log types): a failed auth webhook call in the shape
// of Hasura's WebHookLog, {status_code, url, method, http_error, response, message}, at level error.

import type { WebhookLogEntry } from '../auth/index.js';
import { logs, logTimestamp, maskUrlPassword, type LogSettings } from './request-log.js';

/** The writer of webhook-log lines under these settings, or undefined when they write none. */
export function webhookLogWriter(s: LogSettings): ((e: WebhookLogEntry) => void) | undefined {
  if (!logs(s, 'webhook-log', 'error')) return undefined;
  return (e) => {
    s.write(JSON.stringify({
      type: 'webhook-log', timestamp: logTimestamp(), level: 'error',
      detail: { status_code: e.statusCode, url: maskUrlPassword(e.url), method: e.method, http_error: e.httpError, response: e.response, message: e.message },
    }));
  };
}
