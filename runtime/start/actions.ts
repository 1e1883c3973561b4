// The action executor of an engine (issue 18): present when the model has actions.

import { ActionExecutor } from '../actions/index.js';
import type { BundleModel } from '../bundle/index.js';
import type { EngineOptions } from '../graphql/index.js';

/** The engine option that runs a model's actions (none when it has no action). */
export function actionsOf(model: BundleModel, stringifyNumeric: boolean | undefined): Pick<EngineOptions, 'actions'> {
  return model.actions && model.actions.actions.length > 0 ? { actions: new ActionExecutor({ model, stringifyNumeric: stringifyNumeric ?? false }) } : {};
}
