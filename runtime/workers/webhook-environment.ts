// Hasura resolves a webhook's environment when it builds the schema cache, not when it calls the
// webhook: an action's handler (RQL/DDL/Action.hs `resolveAction` -> `resolveWebhook`), an event
// trigger's webhook (`getWebhookInfoFromConf`) and a cron trigger's webhook and headers
// (`resolveCronTrigger`). A `{{VAR}}` of a URL template that the environment lacks makes the object
// inconsistent ("Value for environment variables not found: A, B", Data/URL/Template.hs
// `renderURLTemplate`), and so does a header's `value_from_env` ("environment variable 'X' not
// set", `getEnv`), so the change that defines it is refused (`invalid-configuration`, as
// `buildSchemaCacheFor` refuses a new inconsistency) and nothing is stored. Only objects the change
// adds or alters are judged: one already stored keeps working as before. One-off scheduled events
// are resolved when they are sent, as Hasura does.

import { urlTemplateVariables, type Json } from '../bundle/index.js';
import { ApiError, unsetVariableReason } from '../errors/index.js';
import type { ApiExtension, SettleContext } from '../metadata-api/index.js';
import type { HeaderConf } from './definitions.js';
import { cronTriggersOf } from './scheduled-definitions.js';

/** Why a webhook URL template cannot be resolved in `env` (every missing variable, in order), or undefined. */
export function templateProblem(url: string, env: NodeJS.ProcessEnv): string | undefined {
  const missing = urlTemplateVariables(url).filter((name) => env[name] === undefined);
  return missing.length === 0 ? undefined : `Value for environment variables not found: ${missing.join(', ')}`;
}

/** Why a header whose value comes from the environment cannot be resolved, or undefined. */
export function headerProblem(headers: readonly HeaderConf[], env: NodeJS.ProcessEnv): string | undefined {
  for (const h of headers) {
    if ('value_from_env' in h && env[h.value_from_env] === undefined) return unsetVariableReason(h.value_from_env);
  }
  return undefined;
}

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function actionsOf(md: Json | null): Map<string, Obj> {
  const list = isObj(md) && Array.isArray(md['actions']) ? md['actions'] : [];
  return new Map(list.filter(isObj).filter((a) => typeof a['name'] === 'string').map((a) => [a['name'] as string, a]));
}

function refuse(type: string, name: string, definition: Json, reason: string): never {
  const message = `Inconsistent object: ${reason}`;
  throw new ApiError('invalid-configuration', message, 400, ['args'], [{ type, name, definition, reason: message }]);
}

function checkActions(before: Json, after: Json, env: NodeJS.ProcessEnv): void {
  const prior = actionsOf(before);
  for (const [name, a] of actionsOf(after)) {
    if (JSON.stringify(prior.get(name)) === JSON.stringify(a)) continue;
    const def = isObj(a['definition']) ? a['definition'] : {};
    const problem = typeof def['handler'] === 'string' ? templateProblem(def['handler'], env) : undefined;
    if (problem !== undefined) refuse('action', `action ${name}`, a, problem);
  }
}

function checkCronTriggers(before: Json, after: Json, env: NodeJS.ProcessEnv): void {
  const prior = new Map(cronTriggersOf(before).map((t) => [t.name, JSON.stringify(t.stored)]));
  for (const t of cronTriggersOf(after)) {
    if (prior.get(t.name) === JSON.stringify(t.stored)) continue;
    const problem = templateProblem(t.webhook, env) ?? headerProblem(t.headers, env);
    if (problem !== undefined) refuse('cron_trigger', `cron_trigger ${t.name}`, t.stored, problem);
  }
}

/**
 * The extension that refuses a change defining an action or cron trigger whose webhook needs an
 * environment variable that is not set (event triggers: event-ops.ts, with their other checks).
 * It answers no operation; it only judges each change before the others settle it.
 */
export function webhookEnvironmentExtension(env: NodeJS.ProcessEnv = process.env): ApiExtension {
  return {
    handles: () => false,
    readOnly: () => false,
    run: async (type) => { throw new ApiError('unexpected', `no such operation here: ${type}`, 500, ['type']); },
    async settle(ctx: SettleContext) {
      if (ctx.before === null) return;
      checkActions(ctx.before, ctx.after, env);
      checkCronTriggers(ctx.before, ctx.after, env);
    },
  };
}
