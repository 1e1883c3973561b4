// One operation of a socket: a query or mutation runs once (one result, then complete); a
// subscription is planned with its parameters as columns of the multiplexing relation and
// registered with the shared pollers.

import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { BundleModel, GraphQLRequest, Session } from '../bundle/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import { bindParams, type StreamCursor, type SubscriptionPlan } from '../graphql/index.js';
import { relationsRead, type MultiplexedSql } from '../sql/index.js';
import type { Multiplexer, Registration, SubscriberSink } from './multiplexer.js';
import { CURSOR_VARIABLE, streamQuery } from './stream.js';
import { pollActionResult } from './action-poll.js';
import { checkCohortValues } from './cohort-values.js';

/** What the WebSocket service needs of the GraphQL engine (runtime/graphql's Engine has it all). */
export interface SubscriptionEngine {
  /** Runs a query or mutation; answers the whole response text. */
  execute(req: GraphQLRequest, session: Session): Promise<string>;
  /** Runs a query or mutation; a request that fails as a whole throws its ApiError. Optional. */
  executeOrThrow?(req: GraphQLRequest, session: Session): Promise<string>;
  /**
   * Plans a subscription as a multiplexed live query (a stream: with its `cursor`); null for other
   * operations. `admitted`: the allow-list already judged the document the client sent (this one may be its rewrite).
   */
  planSubscription(req: GraphQLRequest, session: Session, admitted?: boolean, cursor?: StreamCursor | null): SubscriptionPlan | null;
  /** Throws the allow-list's refusal for a document the session may not run. */
  checkAllowed(req: GraphQLRequest, session: Session): void;
  schemaFor(role: string): import('graphql').GraphQLSchema;
  readonly model: BundleModel;
  /** Counts an operation start against the session's rate limit; throws the refusal. Optional. */
  admitRequest?(session: Session, client: { readonly ip: string | null }, operations: number): void;
  /** Throws when the document is over the server's caps or the role's API limits. Optional. */
  checkLimits?(req: GraphQLRequest, session: Session): void;
  /** Throws when a variable's value does not fit the document the client sent (before a stream is rewritten). Optional. */
  checkVariables?(req: GraphQLRequest, session: Session): void;
  /** True for a subscription to an asynchronous action's result: polled, not multiplexed. Optional. */
  pollsSubscription?(req: GraphQLRequest, session: Session): boolean;
  /** Runs a query or mutation of the Relay API; answers the whole response text. Optional: without it a Relay socket runs nothing. */
  executeRelay?(req: GraphQLRequest, session: Session): Promise<string>;
  /** The same, a request that fails as a whole throwing its ApiError. Optional. */
  executeRelayOrThrow?(req: GraphQLRequest, session: Session): Promise<string>;
  /**
   * A Relay subscription as one on the engine that runs it, and how each of its results is
   * reshaped for the Relay API; throws its refusal. Optional.
   */
  relaySubscription?(req: GraphQLRequest, session: Session): { readonly engine: SubscriptionEngine; readonly request: GraphQLRequest; readonly reshape: (text: string) => string };
}

/** Where an operation's messages go. */
export interface OperationSink {
  /** A result text for the client (`{"data":...}` / `{"errors":[...]}`). */
  next(payload: string): void;
  /** The operation was refused before it ran. */
  error(e: ApiError): void;
  /** The operation failed while it ran (the database refused it); `complete` follows. */
  failed(e: ApiError): void;
  complete(): void;
  /** Plan again with the current engine (the metadata changed). */
  replan(): void;
}

/** What an operation runs with: the engine now served (looked up again on every poll), the pollers, the socket's session. */
export interface OperationContext {
  readonly engine: () => SubscriptionEngine;
  readonly multiplexer: Multiplexer;
  readonly session: Session;
  /** The operation is on the Relay API (a socket on /v1beta1/relay). */
  readonly relay?: boolean;
}

/** A started operation: `stop` ends its subscription (no-op for queries). */
export interface RunningOperation {
  stop(): void;
}

const DONE: RunningOperation = { stop: () => undefined };

// The codes of errors a database raises while a statement runs (drivers/database-error.ts):
// Hasura reports them as a failed execution, the others as refusals before it.
const DATABASE_FAILURES: ReadonlySet<string> = new Set(['constraint-violation', 'constraint-error', 'data-exception', 'postgres-error']);

/** Starts an operation for a session; refusals go to `sink.error`. `lastSent` avoids a repeat after a replan. */
export async function startOperation(ctx: OperationContext, req: GraphQLRequest, sink: OperationSink,
  lastSent?: string): Promise<RunningOperation> {
  const { multiplexer, session } = ctx;
  const engine = ctx.engine();
  const op = operationOf(req);
  if (ctx.relay) return startRelayOperation(ctx, engine, req, op, sink, lastSent);
  if (op && op.operation.operation !== 'subscription') {
    if (!engine.executeOrThrow) {
      sink.next(await engine.execute(req, session));
      sink.complete();
      return DONE;
    }
    return answerOnce(sink, () => engine.executeOrThrow!(req, session));
  }
  try {
    // The allow-list and the limits judge the document the client sent; a stream runs a rewrite of it.
    engine.checkAllowed(req, session);
    engine.checkLimits?.(req, session);
    if (engine.pollsSubscription?.(req, session)) return pollActionResult(ctx, req, sink, lastSent);
    const stream = op ? streamQuery(req, op.document, op.operation, engine.model, session.role, engine.schemaFor(session.role)) : null;
    // A stream's rewrite reads its cursor's variables itself: their values are checked against the
    // document as sent, as the variables of any other operation are (a null `ordering`, say).
    if (stream) engine.checkVariables?.(req, session);
    const planned = engine.planSubscription(stream?.request ?? req, session, true, stream?.cursor ?? null);
    if (!planned) throw new Error('assertion failed: a subscription is never a mutation');
    const plan = planned.plan;
    if (plan.kind === 'static') {
      if (lastSent !== plan.body) sink.next(plan.body);
      return DONE;
    }
    if (plan.kind === 'multi') throw new ApiError('not-supported', 'all fields of a subscription must be from the same source', 400, []);
    const driver = planned.driverFor(plan.source);
    if (!driver.dialect.can.multiplexing) throw new ApiError('not-supported', `subscriptions on a ${driver.dialect.name} source are not supported`, 400, []);
    const subscriber: SubscriberSink = { push: (payload) => sink.next(payload), replan: () => sink.replan() };
    const bind = (variables: { readonly [k: string]: unknown }): (string | null)[] =>
      bindParams(plan.statement.slots, variables, session).map((v) => driver.dialect.cohortValue(v));
    const withCursor = (cursor: unknown): (string | null)[] => bind({ ...planned.variables, [CURSOR_VARIABLE]: cursor });
    const values = stream ? withCursor(stream.initialCursor) : bind(planned.variables);
    await checkCohortValues(driver, plan.statement, values, session);
    const relations = relationsRead(plan.query);
    const reg: Registration = {
      source: plan.source,
      statement: plan.statement,
      driver: () => planned.driverFor(plan.source),
      role: session.role,
      isStale: () => ctx.engine() !== engine,
      tables: relations.opaque || readsClock(plan.statement, values) ? null : relations.tables,
    };
    if (stream) return { stop: multiplexer.stream(reg, withCursor, stream.initialCursor, subscriber) };
    return { stop: multiplexer.live(reg, values, subscriber, lastSent) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    sink.error(e);
    return DONE;
  }
}

// An operation on the Relay API: a query or mutation runs once there; a subscription runs as its
// rewrite onto the ordinary schema (runtime/graphql/relay.ts) does, each result reshaped. The
// engine served now is looked up on every poll: when it changes, the rewrite is stale and replanned.
async function startRelayOperation(ctx: OperationContext, engine: SubscriptionEngine, req: GraphQLRequest,
  op: { document: DocumentNode; operation: OperationDefinitionNode } | null, sink: OperationSink, lastSent?: string): Promise<RunningOperation> {
  if (!engine.executeRelay || !engine.relaySubscription) {
    sink.error(new ApiError('not-supported', 'the Relay API is not served', 400, []));
    return DONE;
  }
  if (!op || op.operation.operation !== 'subscription') {
    if (!engine.executeRelayOrThrow) {
      sink.next(await engine.executeRelay(req, ctx.session));
      sink.complete();
      return DONE;
    }
    // As on the ordinary path.
    return answerOnce(sink, () => engine.executeRelayOrThrow!(req, ctx.session));
  }
  let relay: ReturnType<NonNullable<SubscriptionEngine['relaySubscription']>>;
  try {
    relay = engine.relaySubscription(req, ctx.session);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    sink.error(e);
    return DONE;
  }
  const inner: OperationContext = { multiplexer: ctx.multiplexer, session: ctx.session, engine: () => (ctx.engine() === engine ? relay.engine : ctx.engine()) };
  // (`lastSent` is the reshaped text: the rewrite's own results are not compared with it.)
  void lastSent;
  // A result the reshape refuses (a cursor scan past its bound, relay.ts) is sent as that error's result.
  const reshaped = (payload: string): string => {
    try {
      return relay.reshape(payload);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return JSON.stringify({ errors: [graphqlErrorBody(e)] });
    }
  };
  return startOperation(inner, relay.request, { ...sink, next: (payload) => sink.next(reshaped(payload)) });
}

// PostgreSQL reads these words as a date/time value relative to the clock ('now()' as a
// permission's value, Hasura's idiom, among them): a result using one changes with no commit.
const CLOCK_WORDS = /^\s*(now(\(\))?|today|tomorrow|yesterday|current_(date|time|timestamp))\s*$/i;

// True when a value bound to a date/time slot is relative to the clock.
/**
 * A query or mutation sent on a socket, as Hasura's onStart answers it: its result, then
 * `complete`; a refusal before the run an `error` message; a database failure of the run a result
 * with `data` null, then `complete`.
 */
async function answerOnce(sink: OperationSink, run: () => Promise<Parameters<OperationSink['next']>[0]>): Promise<RunningOperation> {
  try {
    sink.next(await run());
    sink.complete();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (DATABASE_FAILURES.has(e.code)) {
      sink.failed(e);
      sink.complete();
    } else sink.error(e);
  }
  return DONE;
}

function readsClock(statement: MultiplexedSql, values: readonly (string | null)[]): boolean {
  return statement.slots.some((slot, i) => {
    const v = values[i];
    return v !== null && v !== undefined && (slot.type === null || /date|time/i.test(slot.type)) && CLOCK_WORDS.test(v);
  });
}

// The operation a request names, when its text parses; otherwise the engine reports the problem.
function operationOf(req: GraphQLRequest): { document: DocumentNode; operation: OperationDefinitionNode } | null {
  let document: DocumentNode;
  try {
    document = parse(req.query);
  } catch {
    return null;
  }
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = req.operationName ? ops.find((o) => o.name?.value === req.operationName) : ops.length === 1 ? ops[0] : undefined;
  return operation ? { document, operation } : null;
}
