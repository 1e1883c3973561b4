// The subscription service's websocket-log lines go where http-log lines go, when
// SVC_GRAPHQL_ENABLED_LOG_TYPES has `websocket-log` (one of Hasura's defaults) at level info or lower.

import type { SubscriptionOptions } from '../subscriptions/index.js';
import { logs, type LogSettings } from './request-log.js';

/** The subscription options with websocket-log lines written by these settings (unchanged when they write none). */
export function withWebsocketLog(o: SubscriptionOptions, s: LogSettings | undefined): SubscriptionOptions {
  if (s === undefined || !logs(s, 'websocket-log', 'info')) return o;
  return { ...o, wsLog: { withQuery: s.level === 'debug', write: s.write } };
}
