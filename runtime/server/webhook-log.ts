// `webhook-log` lines (one of Hasura's default log types): a failed auth webhook call in the shape
// of Hasura's WebHookLog, {status_code, url, method, http_error, response, message}, at level error.

import type { WebhookLogEntry } from '../auth/index.js';
import { logs, type LogSettings } from './request-log.js';

// A password in the hook's URL is masked, as any URL a log line shows.
const maskPassword = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

/** The writer of webhook-log lines under these settings, or undefined when they write none. */
export function webhookLogWriter(s: LogSettings): ((e: WebhookLogEntry) => void) | undefined {
  if (!logs(s, 'webhook-log', 'error')) return undefined;
  return (e) => {
    s.write(JSON.stringify({
      type: 'webhook-log', timestamp: new Date().toISOString().replace('Z', '+0000'), level: 'error',
      detail: { status_code: e.statusCode, url: maskPassword(e.url), method: e.method, http_error: e.httpError, response: e.response, message: e.message },
    }));
  };
}
