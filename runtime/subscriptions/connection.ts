// One WebSocket connection (reference/subscriptions.md §1, §2): wait for `connection_init`,
// resolve the session once from its headers (fixed for the connection), then run operations by
// id until the socket closes; closing stops every poll of the connection.

import type { IncomingHttpHeaders } from 'node:http';
import type { WebSocket } from 'ws';
import { resolveSession, sessionExpiresAt, type AuthOptions } from '../auth/index.js';
import type { GraphQLRequest, Session } from '../bundle/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import type { Multiplexer } from './multiplexer.js';
import { startOperation, type RunningOperation, type SubscriptionEngine } from './operation.js';
import { CLOSE, closeReason, decodeClientMessage, initHeaders, serverMessages, type ClientMessage, type ErrorStyle, type Protocol } from './protocol.js';
import type { SubscriptionSettings } from './settings.js';
import { ConnectionLog, type WebsocketLog } from './websocket-log.js';

/** What a connection shares with the rest of the service. */
/**
 * The connection_init messages one socket may have waiting at once. A client re-initialises now and
 * then (Hasura acknowledges every init); a burst past this is a flood, closed with 4429.
 */
export const MAX_PENDING_INITS = 8;

/** Operations (subscriptions, and queries not answered yet) one socket may have running at once. */
export const MAX_OPERATIONS = 1000;

export interface ConnectionContext {
  readonly engine: () => SubscriptionEngine;
  readonly auth: AuthOptions;
  readonly multiplexer: Multiplexer;
  readonly settings: SubscriptionSettings;
  readonly log: (line: string) => void;
  /** The peer address of the socket, for rate limits counted per IP. */
  readonly clientIp?: string | null;
  /** websocket-log lines; absent when that log type is off. */
  readonly wsLog?: WebsocketLog;
  /** How errors are worded: GraphQL errors (/v1/graphql, the default) or Hasura's legacy ones (/v1alpha1/graphql). */
  readonly errorStyle?: ErrorStyle;
  /** The socket is on the Relay API (/v1beta1/relay): its operations run there. */
  readonly relay?: boolean;
}

interface OperationState {
  running: RunningOperation | null;
  stopped: boolean;
  lastSent: string | undefined;
  /** The websocket-log request id of the operation's start (null when the log is off). */
  requestId: string | null;
}

/** Serves one socket until it closes. */
export class Connection {
  private readonly messages;
  private phase: 'waiting' | 'initialising' | 'ready' | 'closed' = 'waiting';
  private session: Session | null = null;
  private readonly operations = new Map<string, OperationState>();
  private initTimer: NodeJS.Timeout | null;
  private keepAlive: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private initialising: Promise<void> | null = null;
  /** connection_init messages queued or running. */
  private pendingInits = 0;
  private readonly wsLog: ConnectionLog | null;

  constructor(private readonly socket: WebSocket, private readonly protocol: Protocol, private readonly handshake: IncomingHttpHeaders,
    private readonly ctx: ConnectionContext) {
    this.messages = serverMessages(protocol, ctx.errorStyle ?? 'graphql');
    this.wsLog = ctx.wsLog ? new ConnectionLog(ctx.wsLog) : null;
    // graphql-transport-ws closes a socket that sends no connection_init in time; Hasura applies
    // the timeout to that protocol only, an Apollo (graphql-ws) socket may wait (Server.hs).
    this.initTimer = protocol === 'transport'
      ? setTimeout(() => this.close(CLOSE.initTimeout, 'Connection initialisation timeout'), ctx.settings.initTimeoutMs)
      : null;
    socket.on('message', (data, isBinary) => {
      if (isBinary) return this.invalid('Invalid message received: binary frame');
      this.onMessage(data.toString()).catch((e: unknown) => this.ctx.log(`kiln: websocket message failed: ${e instanceof Error ? e.stack : String(e)}`));
    });
    socket.on('close', () => this.teardown());
    socket.on('error', () => this.teardown());
  }

  /** Closes the socket with a code (server shutdown: 1001). */
  close(code: number, reason: string): void {
    if (this.phase === 'closed') return;
    this.teardown();
    this.socket.close(code, closeReason(reason));
  }

  private send(text: string): void {
    if (this.phase !== 'closed' && this.socket.readyState === this.socket.OPEN) {
      this.socket.send(text);
      this.wsLog?.sent(text);
    }
  }

  private teardown(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    if (this.initTimer) clearTimeout(this.initTimer);
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    for (const op of this.operations.values()) this.stopOperation(op);
    this.operations.clear();
    this.wsLog?.closed(this.session, null);
  }

  private invalid(message: string): void {
    if (this.protocol === 'transport') return this.close(CLOSE.invalidMessage, message);
    this.send(JSON.stringify({ type: 'connection_error', payload: message }));
  }

  private async onMessage(text: string): Promise<void> {
    let m: ClientMessage;
    try {
      m = decodeClientMessage(this.protocol, text);
    } catch (e) {
      if (e instanceof ApiError) return this.invalid(e.message);
      throw e;
    }
    switch (m.kind) {
      case 'init': {
        // Inits run one after the other; a start waits for the last one sent before it. Each one
        // queued holds a session resolution (an auth webhook call, say): past MAX_PENDING_INITS at
        // once the client is flooding, and the socket is closed rather than the queue grown.
        if (this.pendingInits >= MAX_PENDING_INITS) return this.close(CLOSE.tooManyInits, 'Too many initialisation requests');
        this.pendingInits++;
        const previous = this.initialising;
        const run = (previous ?? Promise.resolve()).catch(() => undefined).then(() => this.init(m.payload));
        const current: Promise<void> = run.finally(() => {
          this.pendingInits--;
          if (this.initialising === current) this.initialising = null;
        });
        this.initialising = current;
        return current;
      }
      case 'ping': return this.send(m.payload === undefined ? '{"type":"pong"}' : JSON.stringify({ type: 'pong', payload: m.payload }));
      case 'pong': return;
      case 'terminate': return this.close(CLOSE.normal, 'Normal Closure');
      case 'stop': {
        const op = this.operations.get(m.id);
        if (op) {
          this.stopOperation(op);
          this.operations.delete(m.id);
          this.wsLog?.stopped(this.session, m.id);
        }
        return;
      }
      case 'start':
        // A client may pipeline `subscribe` right behind `connection_init`: it waits for the session.
        if (this.initialising) await this.initialising;
        return this.start(m.id, m.request);
    }
  }

  /**
   * `connection_init`. The first resolves the session from the payload's headers over the upgrade
   * request's; a later one, in either protocol, resolves it again from the payload's headers
   * alone and replaces it for the operations started after it, answering `connection_ack` (and a
   * keep-alive) each time, as Hasura does (Transport/WebSocket.hs onConnInit).
   */
  private async init(payload: unknown): Promise<void> {
    if (this.phase === 'closed') return;
    const first = this.phase === 'waiting';
    this.phase = 'initialising';
    if (this.initTimer) clearTimeout(this.initTimer);
    this.initTimer = null;
    // The init payload's headers; the first init adds those of the HTTP upgrade request (a cookie,
    // say) under them, as Hasura's onConnInit does (mkHeaders: payload headers, then the client's).
    const given = initHeaders(payload) ?? {};
    const headers = first ? { ...handshakeHeaders(this.handshake, given), ...given } : given;
    let session: Session;
    try {
      session = await resolveSession(headers, this.ctx.auth);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.wsLog?.rejected(e);
      if (this.protocol === 'transport') return this.close(CLOSE.forbidden, `Forbidden: ${e.message}`);
      this.send(JSON.stringify({ type: 'connection_error', payload: e.message }));
      return this.close(CLOSE.normal, e.message);
    }
    if (this.phase !== 'initialising') return;
    this.phase = 'ready';
    this.session = session;
    this.wsLog?.accepted(session);
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    this.closeAtExpiry(session);
    this.send(this.messages.ack());
    if (this.protocol === 'legacy') this.send(this.messages.keepAlive());
    this.keepAlive ??= setInterval(() => this.send(this.messages.keepAlive()), this.ctx.settings.keepAliveMs);
  }

  /** A session that expires (JWT `exp`, webhook Expires) ends the connection then (reference/auth.md). */
  private closeAtExpiry(session: Session): void {
    const at = sessionExpiresAt(session);
    if (at === null) return;
    const message = 'Could not verify JWT: JWTExpired';
    const end = (): void => {
      if (this.protocol === 'transport') return this.close(CLOSE.forbidden, `Forbidden: ${message}`);
      this.send(JSON.stringify({ type: 'connection_error', payload: message }));
      this.close(CLOSE.normal, message);
    };
    // setTimeout holds at most ~24.8 days; a later expiry is checked again then.
    const wait = Math.min(Math.max(at - Date.now(), 0), 2 ** 31 - 1);
    this.expiryTimer = setTimeout(() => (Date.now() >= at ? end() : this.closeAtExpiry(session)), wait);
    this.expiryTimer.unref?.();
  }

  private async start(id: string, request: GraphQLRequest): Promise<void> {
    if (this.phase !== 'ready' || !this.session) {
      if (this.protocol === 'transport') return this.close(CLOSE.unauthorized, 'Unauthorized');
      return this.refuseStart(id, 'start received before the connection is initialised');
    }
    if (this.operations.has(id)) {
      if (this.protocol === 'transport') return this.close(CLOSE.duplicateId, `Subscriber for ${id} already exists`);
      return this.refuseStart(id, `an operation already exists with this id: ${id}`);
    }
    // Each running operation holds a subscriber (and its cohort's share of a poll): a socket's are bounded.
    if (this.operations.size >= MAX_OPERATIONS) {
      this.send(this.messages.error(id, new ApiError('start-failed', `too many operations running on this connection (at most ${MAX_OPERATIONS}); stop one or open another connection`)));
      return this.send(this.messages.complete(id));
    }
    // Every start counts toward the role's rate limit (a replan after a metadata change does not).
    const requestId = this.wsLog?.started(this.session, id, request) ?? null;
    try {
      this.ctx.engine().admitRequest?.(this.session, { ip: this.ctx.clientIp ?? null }, 1);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.wsLog?.failed(this.session, id, request, requestId, e);
      this.send(this.messages.error(id, e));
      return this.send(this.messages.complete(id));
    }
    const state: OperationState = { running: null, stopped: false, lastSent: undefined, requestId };
    this.operations.set(id, state);
    await this.run(id, request, state);
  }

  private async run(id: string, request: GraphQLRequest, state: OperationState): Promise<void> {
    const session = this.session!;
    const live = (): boolean => !state.stopped && this.operations.get(id) === state;
    const finish = (): void => {
      if (this.operations.get(id) === state) this.operations.delete(id);
    };
    let running: RunningOperation;
    try {
      running = await startOperation({ engine: this.ctx.engine, multiplexer: this.ctx.multiplexer, session, relay: this.ctx.relay === true }, request, {
        next: (payload) => {
          if (!live()) return;
          state.lastSent = payload;
          this.send(this.messages.data(id, payload));
        },
        error: (e) => {
          if (!live()) return;
          finish();
          this.wsLog?.failed(session, id, request, state.requestId, e);
          this.send(this.messages.error(id, e));
          this.send(this.messages.complete(id));
        },
        failed: (e) => {
          if (!live()) return;
          this.wsLog?.failed(session, id, request, state.requestId, e);
          this.send(this.messages.failed(id, e));
        },
        complete: () => {
          if (!live()) return;
          finish();
          this.wsLog?.completed(session, id, state.requestId);
          this.send(this.messages.complete(id));
        },
        replan: () => {
          if (!live()) return;
          state.running?.stop();
          state.running = null;
          void this.run(id, request, state);
        },
      }, state.lastSent);
    } catch (e) {
      this.ctx.log(`kiln: websocket operation failed: ${e instanceof Error ? e.stack : String(e)}`);
      if (live()) {
        finish();
        const err = new ApiError('unexpected', 'unexpected error', 500, [], e);
        this.wsLog?.failed(session, id, request, state.requestId, err);
        this.send(this.protocol === 'transport'
          ? this.messages.error(id, err)
          : this.messages.data(id, JSON.stringify({ errors: [graphqlErrorBody(err)] })));
      }
      return;
    }
    // The operation may have been stopped (or the socket closed) while it was being planned.
    if (live()) state.running = running;
    else running.stop();
  }

  /** A start the connection refuses (Hasura's sendStartErr): the error alone, then complete. */
  private refuseStart(id: string, message: string): void {
    this.send(this.messages.startError(id, new ApiError('start-failed', message)));
    this.send(this.messages.complete(id));
  }

  private stopOperation(op: OperationState): void {
    op.stopped = true;
    op.running?.stop();
    op.running = null;
  }
}

// The upgrade request's headers a session may be resolved from: not the WebSocket handshake's own,
// nor one the init payload also names (in any letter case).
const HANDSHAKE_ONLY = new Set(['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol', 'upgrade', 'connection']);
function handshakeHeaders(handshake: IncomingHttpHeaders, given: Record<string, string>): Record<string, string> {
  const named = new Set(Object.keys(given).map((k) => k.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(handshake)) {
    if (typeof v !== 'string' || HANDSHAKE_ONLY.has(k) || named.has(k)) continue;
    out[k] = v;
  }
  return out;
}
