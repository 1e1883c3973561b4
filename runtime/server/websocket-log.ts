// The subscription service's websocket-log lines go where http-log lines go, when
// SVC_GRAPHQL_ENABLED_LOG_TYPES has `websocket-log` (one of Hasura's defaults) at level info or lower.
// An operation's query is shown only when query-log is on too, as Hasura's websocket-log shows it
// (Note [Disable query printing when query-log is disabled], Server/Logging.hs).

import type { SubscriptionOptions } from '../subscriptions/index.js';
import { logs, type LogSettings } from './request-log.js';

/** The subscription options with websocket-log lines written by these settings (unchanged when they write none). */
export function withWebsocketLog(o: SubscriptionOptions, s: LogSettings | undefined): SubscriptionOptions {
  if (s === undefined || !logs(s, 'websocket-log', 'info')) return o;
  return { ...o, wsLog: { withQuery: logs(s, 'query-log', 'info'), write: s.write } };
}
