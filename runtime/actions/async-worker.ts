// Delivers asynchronous action calls (reference/actions.md §4): every fetch interval it claims the
// oldest `created` calls (SKIP LOCKED: runtimes sharing the catalog never take the same call),
// calls each handler as a synchronous call would be made, and stores the answer or the error. At
// start, calls left `processing` by a runtime that stopped are made again, as Hasura does.

import type { ActionsModel, CustomObjectModel } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { claimCalls, completeCall, ensureActionLog, failCall, requeueProcessing, type LoggedCall } from './async-log.js';
import { ActionFailure } from './failure.js';
import type { Environment } from './handler.js';
import { invokeAction } from './invoke.js';
import { checkAnswer } from './output.js';

export interface ActionWorkerOptions {
  readonly catalog: Pick<Driver, 'query' | 'transaction'>;
  /** The actions served now (they change with the metadata). */
  readonly actions: () => ActionsModel | undefined;
  /** SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL: milliseconds between fetches (default 1000; 0: no worker). */
  readonly intervalMs: number;
  /** Calls claimed per fetch (and so in flight at most). */
  readonly batchSize?: number;
  readonly env?: Environment;
  /** The User-Agent of handler calls (`svc-graphql-engine/<version>`). */
  readonly userAgent?: string;
  readonly log: (line: string) => void;
}

/** The fetch interval from the environment (Hasura's default 1000 ms; 0 disables delivery). */
export function asyncActionsInterval(env: Environment): number {
  const v = Number(env['SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL'] ?? 1000);
  return Number.isFinite(v) && v >= 0 ? v : 1000;
}

/** Starts the worker; `stop` ends the loop after the calls in flight are stored. */
export async function startActionWorker(o: ActionWorkerOptions): Promise<{ stop(): Promise<void> }> {
  await ensureActionLog(o.catalog);
  if (o.intervalMs === 0) return { stop: async () => {} };
  const requeued = await requeueProcessing(o.catalog);
  if (requeued > 0) o.log(`async actions: ${requeued} call(s) left processing are delivered again`);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const tick = async (): Promise<void> => {
    // No query while nothing served is asynchronous (the log keeps pending calls until one is again).
    if (!o.actions()?.actions.some((a) => a.kind === 'asynchronous')) return;
    try {
      const calls = await claimCalls(o.catalog, o.batchSize ?? 100);
      await Promise.all(calls.map((c) => deliver(c, o)));
    } catch (e) {
      o.log(`async actions: fetch failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => { running = tick().finally(schedule); }, o.intervalMs);
  };
  running = tick().finally(schedule);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

async function deliver(call: LoggedCall, o: ActionWorkerOptions): Promise<void> {
  const action = o.actions()?.actions.find((a) => a.name === call.action && a.kind === 'asynchronous');
  try {
    if (!action) throw new ActionFailure(`action "${call.action}" is not an asynchronous action any more`, 'not-exists');
    const answer = await invokeAction(action, { action: { name: action.name }, input: call.input, session_variables: call.sessionVariables, request_query: null },
      action.forwardClientHeaders ? call.requestHeaders : {}, o.env ?? process.env, o.userAgent);
    // An answer that does not fit the output type is the call's error, as Hasura stores it.
    checkAnswer(answer.body, action.outputType, action.name, { ...typesOf(o.actions()), internal: answer.internal });
    await completeCall(o.catalog, call.id, answer.body);
  } catch (e) {
    // What the creator reads: Hasura's QErr JSON, with `internal` when admin made the call.
    const admin = call.sessionVariables['x-svc-role'] === 'admin';
    const body = e instanceof ActionFailure ? e.stored(admin) : { path: '$', error: e instanceof Error ? e.message : String(e), code: 'unexpected' };
    await failCall(o.catalog, call.id, body).catch((err: unknown) => o.log(`async actions: cannot store the error of ${call.id}: ${String(err)}`));
  }
}

/** The custom object and enum types the output check reads. */
function typesOf(m: ActionsModel | undefined): { objects: ReadonlyMap<string, CustomObjectModel>; enums: ReadonlyMap<string, ReadonlySet<string>> } {
  return {
    objects: new Map((m?.objects ?? []).map((x) => [x.name, x])),
    enums: new Map((m?.enums ?? []).map((e) => [e.name, new Set(e.values.map((v) => v.value))])),
  };
}
