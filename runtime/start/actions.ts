// The action executor of an engine (issue 18): present when the model has actions.

import { ActionExecutor, asyncActionsInterval, startActionWorker } from '../actions/index.js';
import type { ActionsModel, BundleModel } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import type { EngineOptions } from '../graphql/index.js';
import { KILN_VERSION } from './version.js';

// How handler calls name the engine, as event deliveries do (Hasura: hasura-graphql-engine/<version>).
const USER_AGENT = `svc-graphql-engine/${KILN_VERSION}`;

/** The engine option that runs a model's actions (none when it has no action); `catalog` logs asynchronous calls. */
export function actionsOf(model: BundleModel, stringifyNumeric: boolean | undefined, catalog?: Driver): Pick<EngineOptions, 'actions'> {
  return model.actions && model.actions.actions.length > 0
    ? { actions: new ActionExecutor({ model, stringifyNumeric: stringifyNumeric ?? false, userAgent: USER_AGENT, ...(catalog ? { catalog } : {}) }) } : {};
}

/** Creates the action log and starts delivering asynchronous calls (SVC_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL). */
export function startAsyncActions(catalog: Driver, actions: () => ActionsModel | undefined, log: (line: string) => void): Promise<{ stop(): Promise<void> }> {
  return startActionWorker({ catalog, actions, intervalMs: asyncActionsInterval(process.env), userAgent: USER_AGENT, log });
}
