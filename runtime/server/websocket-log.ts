// The subscription service's websocket-log lines go where http-log lines go, when
// SVC_GRAPHQL_ENABLED_LOG_TYPES has `websocket-log` (one of Hasura's defaults) at level info or lower.
// An operation's query is shown only when query-log is on too, as Hasura's websocket-log shows it
// (Note [Disable query printing when query-log is disabled], Server/Logging.hs).

import type { SubscriptionOptions } from '../subscriptions/index.js';
import { logs, type LogSettings } from './request-log.js';

/** The subscription options with websocket-log and ws-server lines written by these settings (unchanged when they write none). */
export function withWebsocketLog(o: SubscriptionOptions, s: LogSettings | undefined): SubscriptionOptions {
  if (s === undefined) return o;
  const operations = logs(s, 'websocket-log', 'info');
  // Hasura's ws-server lines are internal ones (written whatever the enabled types) at level debug.
  const server = s.level === 'debug';
  if (!operations && !server) return o;
  return { ...o, wsLog: { operations, server, withQuery: logs(s, 'query-log', 'info'), write: s.write } };
}
