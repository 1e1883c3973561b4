// Runs operations that select actions (reference/actions.md): each action field calls its handler
// with `{action, input, session_variables, request_query}`, maps the answer (2xx checked and cut
// to the selection, 4xx the handler's error, anything else `unexpected`), then reads the output's
// relationships to tables in one statement. Root fields that are not actions run through the
// engine as usual and are merged in the operation's order.

import { getArgumentValues, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import type { ActionModel, BundleModel, CustomObjectModel, Json, Session } from '../bundle/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import { collectFields, type ActionHook, type ActionRequest, type FieldSel, type PlanContext, type Prepared } from '../graphql/index.js';
import { ActionFailure } from './failure.js';
import { callHandler, handlerHeaders, handlerUrl, HttpFailure, parseBody, type Environment } from './handler.js';
import { shapeOutput, type PendingRelationship } from './output.js';
import { fillRelationships } from './relationships.js';

export interface ActionExecutorOptions {
  readonly model: BundleModel;
  readonly env?: Environment;
  readonly stringifyNumeric?: boolean;
}

type RootKind = OperationDefinitionNode['operation'];

/** The action executor the engine calls for operations with action fields. */
export class ActionExecutor implements ActionHook {
  private readonly actions: ReadonlyMap<string, ActionModel>;
  private readonly objects: ReadonlyMap<string, CustomObjectModel>;
  private readonly env: Environment;

  constructor(private readonly opts: ActionExecutorOptions) {
    this.actions = new Map((opts.model.actions?.actions ?? []).map((a) => [a.name, a]));
    this.objects = new Map((opts.model.actions?.objects ?? []).map((o) => [o.name, o]));
    this.env = opts.env ?? process.env;
  }

  /** The action a root field of this kind of operation is, for the role (undefined: not an action). */
  actionAt(kind: RootKind, name: string, role: string): ActionModel | undefined {
    const a = this.actions.get(name);
    if (!a || (role !== 'admin' && !a.roles.includes(role))) return undefined;
    if (a.kind === 'asynchronous') return kind === 'mutation' || kind === 'query' || kind === 'subscription' ? a : undefined;
    return a.type === kind ? a : undefined;
  }

  claims(prepared: Prepared, role: string): boolean {
    if (this.actions.size === 0) return false;
    const fragments = fragmentsOf(prepared);
    const kind = prepared.operation.operation;
    const seen = new Set<string>();
    const walk = (sels: FieldNode['selectionSet']): boolean => (sels?.selections ?? []).some((s) => {
      if (s.kind === Kind.FIELD) return this.actionAt(kind, s.name.value, role) !== undefined;
      if (s.kind === Kind.INLINE_FRAGMENT) return walk(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return walk(fragments.get(s.name.value)?.selectionSet);
    });
    return walk(prepared.operation.selectionSet);
  }

  async run(req: ActionRequest): Promise<string> {
    const { prepared, session } = req;
    const kind = prepared.operation.operation;
    const rootType = kind === 'mutation' ? 'mutation_root' : kind === 'subscription' ? 'subscription_root' : 'query_root';
    const ctx: PlanContext = { model: this.opts.model, role: session.role, dialect: req.dialect, stringifyNumeric: this.opts.stringifyNumeric ?? false,
      fragments: fragmentsOf(prepared), hints: { valueSensitive: false }, variables: req.variables, structural: new Set() };
    const fields = collectFields(prepared.operation.selectionSet, rootType, ctx);
    const values = new Map<string, Json>();
    const others = fields.filter((f) => f.name !== '__typename' && !this.actionAt(kind, f.name, session.role));
    try {
      if (others.length > 0) {
        const rest = JSON.parse(await req.runOthers(onlyFields(prepared, others))) as { data?: { [k: string]: Json }; errors?: Json };
        if (rest.errors !== undefined) return JSON.stringify(rest);
        for (const f of others) values.set(f.key, rest.data?.[f.key] ?? null);
      }
      const rootObject = req.schema.getRootType(kind) as GraphQLObjectType;
      for (const f of fields) {
        if (f.name === '__typename') { values.set(f.key, rootType); continue; }
        const action = this.actionAt(kind, f.name, session.role);
        if (!action) continue;
        values.set(f.key, await this.callSync(action, f, rootObject, ctx, req));
      }
    } catch (e) {
      if (e instanceof ActionFailure) return JSON.stringify({ errors: [e.body(session.role === 'admin')] });
      if (e instanceof ApiError) return JSON.stringify({ errors: [graphqlErrorBody(e)] });
      throw e;
    }
    return JSON.stringify({ data: Object.fromEntries(fields.map((f) => [f.key, values.get(f.key) ?? null])) });
  }

  /** One synchronous action field: the handler's answer, shaped, with its relationships read. */
  private async callSync(action: ActionModel, f: FieldSel, root: GraphQLObjectType, ctx: PlanContext, req: ActionRequest): Promise<Json> {
    const def = root.getFields()[f.name];
    if (!def) throw new ApiError('validation-failed', `field "${f.name}" not found in type: '${root.name}'`, 400, ['selectionSet', f.name]);
    const input = getArgumentValues(def, f.node, req.variables as Record<string, unknown>) as Json;
    const payload = { action: { name: action.name }, input, session_variables: sessionVariables(req.session), request_query: req.request.query };
    const configured = action.headers.map((h) => ({ name: h.name, value: h.kind === 'value' ? h.value : this.env[h.env] ?? '' }));
    const requestInfo: Json = { body: payload, url: action.handler, headers: configured, transformed_request: null };
    const url = handlerUrl(action.handler, this.env);
    const headers: [string, string][] = [['content-type', 'application/json'], ...handlerHeaders(action, this.env, req.headers)];
    let res;
    try {
      res = await callHandler({ url, method: 'POST', headers, body: JSON.stringify(payload) }, action.timeout);
    } catch (e) {
      if (!(e instanceof HttpFailure)) throw e;
      throw new ActionFailure('http exception when calling webhook', 'unexpected', { type: e.kind, message: e.message, request: requestInfo });
    }
    const body = parseBody(res.text);
    const responseInfo: Json = { status: res.status, body: body === undefined ? res.text : body, headers: res.headers.map(([name, value]) => ({ name, value })) };
    const internal: Json = { error: 'unexpected response', response: responseInfo, request: requestInfo };
    if (body === undefined) throw new ActionFailure('not a valid json response from webhook', 'unexpected', internal);
    if (res.status >= 200 && res.status < 300) {
      const pending: PendingRelationship[] = [];
      const out = shapeOutput(body, action.outputType, f, { objects: this.objects, plan: ctx, internal, pending });
      await fillRelationships(pending, ctx, req.session, req.readerFor);
      return out;
    }
    if (res.status >= 400 && res.status < 500) throw clientError(body, internal);
    throw new ActionFailure('internal error', 'unexpected', { error: `expecting 2xx or 4xx status code, but found ${res.status}`, request: requestInfo, response: responseInfo });
  }
}

/** A 4xx answer `{message, code?, extensions?}` as the client's error (Hasura's ActionWebhookErrorResponse). */
function clientError(body: Json, internal: Json): ActionFailure {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body['message'] !== 'string') {
    return new ActionFailure('the error response of the action webhook is not an object with a "message"', 'unexpected', internal);
  }
  const code = typeof body['code'] === 'string' ? body['code'] : 'unexpected';
  const extensions = body['extensions'];
  return new ActionFailure(body['message'], code, undefined, extensions !== undefined && extensions !== null ? extensions : undefined);
}

/** The session as handlers receive it: lower-case names, the role included. */
export function sessionVariables(session: Session): { [k: string]: string } {
  const out: { [k: string]: string } = {};
  for (const [k, v] of Object.entries(session.variables)) out[k.toLowerCase()] = v;
  out['x-svc-role'] ??= session.role;
  return out;
}

function fragmentsOf(p: Prepared): Map<string, FragmentDefinitionNode> {
  const m = new Map<string, FragmentDefinitionNode>();
  for (const d of p.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) m.set(d.name.value, d);
  return m;
}

// The operation with only these root fields (already collected: fragments at the root expanded).
function onlyFields(p: Prepared, fields: readonly FieldSel[]): Prepared {
  const operation = { ...p.operation, selectionSet: { kind: Kind.SELECTION_SET, selections: fields.map((f) => f.node) } } as OperationDefinitionNode;
  const document = { ...p.document, definitions: p.document.definitions.map((d) => (d === p.operation ? operation : d)) };
  return { ...p, document, operation, plans: new Map() };
}
