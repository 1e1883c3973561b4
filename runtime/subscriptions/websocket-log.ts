// `websocket-log` lines in Hasura v2's shape: a connection accepted, rejected and closed, and each
// operation started, stopped, completed or failed (`query_err`), with the connection's id, its
// token expiry and the session variables. Written only when websocket-log is enabled.

import { randomUUID } from 'node:crypto';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import type { ApiError } from '../errors/index.js';
import { formatPath } from '../errors/index.js';
import { sessionExpiresAt } from '../auth/index.js';

/** Where websocket-log lines go: the line writer, and whether a started operation shows its query. */
export interface WebsocketLog {
  /** websocket-log lines (the connection and its operations) are written. */
  readonly operations?: boolean;
  /**
   * ws-server lines are written (Hasura's WSLog, Transport/WebSocket/Server.hs: an internal log at
   * level debug): the connection accepted and closed, and each message sent with the operation's
   * id and name. Messages received are not shown: a connection_init carries the client's secrets.
   */
  readonly server?: boolean;
  /** True when query-log is on: the query text and variables may carry user values. */
  readonly withQuery: boolean;
  readonly write: (line: string) => void;
}

function timestamp(): string {
  return new Date().toISOString().replace('Z', '+0000');
}

function errorDetail(e: ApiError): { path: string; error: string; code: string } {
  return { path: formatPath(e.path), error: e.message, code: e.code };
}

/** The log of one connection. */
export class ConnectionLog {
  readonly websocketId = randomUUID();
  /** The operation name of each operation started and not yet completed, for ws-server lines. */
  private readonly names = new Map<string, string | null>();

  constructor(private readonly log: WebsocketLog) {}

  private server(event: object, metadata?: object): void {
    if (this.log.server !== true) return;
    this.log.write(JSON.stringify({
      type: 'ws-server', timestamp: timestamp(), level: 'debug',
      detail: { websocket_id: this.websocketId, event, ...(metadata ? { metadata } : {}) },
    }));
  }

  /** A message sent on the socket (ws-server); an operation's message names the operation. */
  sent(text: string): void {
    if (this.log.server !== true) return;
    let m: { type?: unknown; id?: unknown };
    try {
      m = JSON.parse(text) as typeof m;
    } catch {
      m = {};
    }
    // Only an operation's messages carry Hasura's WSEventInfo; absent fields are left out (omitNothingFields).
    const id = typeof m.id === 'string' ? m.id : null;
    const name = id === null ? null : this.names.get(id) ?? null;
    const metadata = id === null ? undefined
      : { event_type: m.type ?? null, operation_id: id, ...(name !== null ? { operation_name: name } : {}) };
    this.server({ type: 'message_sent', detail: text }, metadata);
    if (id !== null && m.type === 'complete') this.names.delete(id);
  }

  private write(event: object, session: Session | null, level: 'info' | 'error' = 'info', msg: string | null = null): void {
    if (this.log.operations === false) return;
    const expiry = session ? sessionExpiresAt(session) : null;
    this.log.write(JSON.stringify({
      type: 'websocket-log', timestamp: timestamp(), level,
      detail: {
        event,
        connection_info: { websocket_id: this.websocketId, token_expiry: expiry === null ? null : new Date(expiry).toISOString(), msg },
        user_vars: session ? { 'x-svc-role': session.role, ...session.variables } : null,
      },
    }));
  }

  accepted(session: Session): void {
    this.server({ type: 'accepted' });
    this.write({ type: 'accepted' }, session);
  }

  rejected(e: ApiError): void {
    this.server({ type: 'rejected' });
    this.write({ type: 'rejected', detail: errorDetail(e) }, null, 'error');
  }

  closed(session: Session | null, msg: string | null): void {
    this.names.clear();
    this.server({ type: 'closed' });
    this.write({ type: 'closed' }, session, 'info', msg);
  }

  private operation(session: Session | null, detail: {
    request_id: string | null; operation_id: string; operation_name: string | null;
    query: object | null; operation_type: object;
  }, level: 'info' | 'error' = 'info'): void {
    this.write({ type: 'operation', detail }, session, level);
  }

  private query(r: GraphQLRequest): object | null {
    if (!this.log.withQuery) return null;
    // Hasura's GQLReq as it encodes it: operationName, query, variables, absent ones left out.
    return {
      ...(typeof r.operationName === 'string' ? { operationName: r.operationName } : {}),
      query: r.query,
      ...(r.variables !== undefined && r.variables !== null ? { variables: r.variables } : {}),
    };
  }

  /** An operation started; answers its request id (for the error or completion that follows). */
  started(session: Session, id: string, r: GraphQLRequest): string {
    const requestId = randomUUID();
    this.names.set(id, r.operationName ?? null);
    this.operation(session, { request_id: requestId, operation_id: id, operation_name: r.operationName ?? null, query: this.query(r), operation_type: { type: 'started' } });
    return requestId;
  }

  failed(session: Session | null, id: string, r: GraphQLRequest, requestId: string | null, e: ApiError): void {
    this.operation(session, { request_id: requestId, operation_id: id, operation_name: r.operationName ?? null, query: this.query(r),
      operation_type: { type: 'query_err', detail: errorDetail(e) } }, 'error');
  }

  completed(session: Session, id: string, requestId: string | null): void {
    this.operation(session, { request_id: requestId, operation_id: id, operation_name: null, query: null, operation_type: { type: 'completed' } });
  }

  stopped(session: Session | null, id: string): void {
    this.names.delete(id);
    this.operation(session, { request_id: null, operation_id: id, operation_name: null, query: null, operation_type: { type: 'stopped' } });
  }
}
