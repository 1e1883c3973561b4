// Runs operations that select actions (reference/actions.md): each action field calls its handler
// with `{action, input, session_variables, request_query}`, maps the answer (2xx checked and cut
// to the selection, 4xx the handler's error, anything else `unexpected`), then reads the output's
// relationships to tables in one statement. Root fields that are not actions run through the
// engine as usual and are merged in the operation's order.

import { getArgumentValues, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import type { ActionModel, BundleModel, CustomObjectModel, Json, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError, graphqlErrorBody } from '../errors/index.js';
import { collectFields, onlyFields, type ActionHook, type ActionRequest, type FieldSel, type PlanContext, type Prepared } from '../graphql/index.js';
import { ActionFailure } from './failure.js';
import { CallReader, logCall } from './async-log.js';
import { forwardable, type Environment } from './handler.js';
import { invokeAction } from './invoke.js';
import { shapeOutput, type PendingRelationship } from './output.js';
import { describeAction } from './describe.js';
import { fillRelationships } from './relationships.js';

export interface ActionExecutorOptions {
  readonly model: BundleModel;
  readonly env?: Environment;
  readonly stringifyNumeric?: boolean;
  /** The metadata database, where asynchronous calls are logged (absent: asynchronous actions answer not-supported). */
  readonly catalog?: Pick<Driver, 'query'>;
  /** The User-Agent of handler calls (`svc-graphql-engine/<version>`). */
  readonly userAgent?: string;
}

type RootKind = OperationDefinitionNode['operation'];

/** The action executor the engine calls for operations with action fields. */
export class ActionExecutor implements ActionHook {
  private readonly actions: ReadonlyMap<string, ActionModel>;
  private readonly objects: ReadonlyMap<string, CustomObjectModel>;
  private readonly enums: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly env: Environment;
  private readonly reader: CallReader | null;

  constructor(private readonly opts: ActionExecutorOptions) {
    this.reader = opts.catalog ? new CallReader(opts.catalog) : null;
    this.actions = new Map((opts.model.actions?.actions ?? []).map((a) => [a.name, a]));
    this.objects = new Map((opts.model.actions?.objects ?? []).map((o) => [o.name, o]));
    this.enums = new Map((opts.model.actions?.enums ?? []).map((e) => [e.name, new Set(e.values.map((v) => v.value))]));
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
    const ctx = this.planContext(req);
    const fields = collectFields(prepared.operation.selectionSet, rootType, ctx);
    const values = new Map<string, Json>();
    const others = fields.filter((f) => f.name !== '__typename' && !this.actionAt(kind, f.name, session.role));
    // The operation's other root fields, run by the engine: their values, or the response that failed.
    const runOthers = async (selected: readonly FieldSel[]): Promise<string | null> => {
      const rest = JSON.parse(await req.runOthers(onlyFields(prepared, selected))) as { data?: { [k: string]: Json }; errors?: Json };
      if (rest.errors !== undefined) return JSON.stringify(rest);
      for (const f of selected) values.set(f.key, rest.data?.[f.key] ?? null);
      return null;
    };
    try {
      const rootObject = req.schema.getRootType(kind) as GraphQLObjectType;
      const valueOf = (action: ActionModel, f: FieldSel): Promise<Json> => (action.kind === 'synchronous' ? this.callSync(action, f, rootObject, ctx, req)
        : kind === 'mutation' ? this.callAsync(action, f, rootObject, req) : this.readAsync(action, f, rootObject, ctx, req));
      const calls = fields.flatMap((f) => {
        const action = f.name === '__typename' ? undefined : this.actionAt(kind, f.name, session.role);
        return action ? [{ f, action }] : [];
      });
      if (fields.some((f) => f.name === '__typename')) for (const f of fields) if (f.name === '__typename') values.set(f.key, rootType);
      if (kind === 'mutation') {
        // As Hasura v2 runs a mutation that mixes actions with table fields: every root field in
        // the operation's order, each table field in a transaction of its own (the action is not
        // inside one: it may see, and act on, what the fields before it wrote), stopping at the
        // first error, which is the whole answer (what ran before it stays done).
        for (const f of fields) {
          if (f.name === '__typename') continue;
          const action = this.actionAt(kind, f.name, session.role);
          if (action) { values.set(f.key, await valueOf(action, f)); continue; }
          const failed = await runOthers([f]);
          if (failed !== null) return failed;
        }
      } else {
        // A query's table fields run together, its actions at once.
        if (others.length > 0) {
          const failed = await runOthers(others);
          if (failed !== null) return failed;
        }
        (await Promise.all(calls.map((c) => valueOf(c.action, c.f)))).forEach((v, i) => values.set(calls[i]!.f.key, v));
      }
    } catch (e) {
      if (e instanceof ActionFailure) return JSON.stringify({ errors: [e.body(session.role === 'admin')] });
      if (e instanceof ApiError) return JSON.stringify({ errors: [graphqlErrorBody(e)] });
      throw e;
    }
    return JSON.stringify({ data: Object.fromEntries(fields.map((f) => [f.key, values.get(f.key) ?? null])) });
  }

  describe(req: Omit<ActionRequest, 'runOthers' | 'readerFor' | 'headers'>): string {
    const { prepared, session } = req;
    const kind = prepared.operation.operation;
    const rootType = kind === 'mutation' ? 'mutation_root' : kind === 'subscription' ? 'subscription_root' : 'query_root';
    const ctx = this.planContext(req);
    const out: string[] = [];
    for (const f of collectFields(prepared.operation.selectionSet, rootType, ctx)) {
      const action = this.actionAt(kind, f.name, session.role);
      if (!action) continue;
      out.push(...describeAction(action, kind, f, ctx, this.objects));
    }
    return out.join('\n');
  }

  private planContext(req: Pick<ActionRequest, 'prepared' | 'session' | 'dialect' | 'variables'>): PlanContext {
    return { model: this.opts.model, role: req.session.role, dialect: req.dialect, stringifyNumeric: this.opts.stringifyNumeric ?? false,
      fragments: fragmentsOf(req.prepared), hints: { valueSensitive: false }, variables: req.variables, structural: new Set() };
  }

  /** One synchronous action field: the handler's answer, shaped, with its relationships read. */
  private async callSync(action: ActionModel, f: FieldSel, root: GraphQLObjectType, ctx: PlanContext, req: ActionRequest): Promise<Json> {
    const payload = { action: { name: action.name }, input: inputOf(f, root, req), session_variables: sessionVariables(req.session), request_query: req.request.query };
    const answer = await invokeAction(action, payload, req.headers, this.env, this.opts.userAgent);
    // Hasura sends a synchronous handler's Set-Cookie on to the client (mkSetCookieHeaders, issue 4021).
    if (answer.cookies.length > 0) req.responseCookies?.push(...answer.cookies);
    return this.shaped(answer.body, action.outputType, f, ctx, answer.internal, req);
  }

  // An output cut to the field's selection, its relationships read under the role's permission.
  private async shaped(body: Json, type: string, f: FieldSel, ctx: PlanContext, internal: Json, req: ActionRequest, missingAsNull = false): Promise<Json> {
    const pending: PendingRelationship[] = [];
    const out = shapeOutput(body, type, f, { objects: this.objects, enums: this.enums, plan: ctx, internal, pending, missingAsNull });
    await fillRelationships(pending, ctx, req.session, req.readerFor);
    return out;
  }

  /** An asynchronous action's mutation: the call is logged and its id answered at once. */
  private async callAsync(action: ActionModel, f: FieldSel, root: GraphQLObjectType, req: ActionRequest): Promise<Json> {
    const catalog = this.requireCatalog();
    return logCall(catalog, action.name, inputOf(f, root, req), sessionVariables(req.session), action.forwardClientHeaders ? forwardable(req.headers) : {});
  }

  /**
   * `<action>(id:)`: the logged call, to the session that made it (same role and session variables)
   * or to admin; anyone else reads null, as for an unknown id.
   */
  private async readAsync(action: ActionModel, f: FieldSel, root: GraphQLObjectType, ctx: PlanContext, req: ActionRequest): Promise<Json> {
    const id = inputOf(f, root, req)['id'];
    if (typeof id !== 'string' || !UUID.test(id)) throw new ApiError('validation-failed', `invalid uuid: ${JSON.stringify(id)}`, 400, ['selectionSet', f.key, 'args', 'id']);
    this.requireCatalog();
    const call = await this.reader!.read(action.name, id);
    if (!call || (req.session.role !== 'admin' && !sameSession(call.sessionVariables, sessionVariables(req.session)))) return null;
    const out: { [k: string]: Json } = {};
    for (const sub of collectFields(f.node.selectionSet, action.name, ctx)) {
      switch (sub.name) {
        case '__typename': out[sub.key] = action.name; break;
        case 'id': out[sub.key] = call.id; break;
        case 'created_at': out[sub.key] = call.createdAt; break;
        case 'errors': out[sub.key] = call.errors; break;
        case 'output': out[sub.key] = call.status === 'completed' ? await this.shaped(call.output, action.outputType, sub, ctx, { webhook_response: call.output }, req, this.hasRelationships(action.outputType)) : null; break;
        default: throw new ApiError('validation-failed', `field "${sub.name}" not found in type: '${action.name}'`, 400, ['selectionSet', f.key, sub.key]);
      }
    }
    return out;
  }

  // Whether an output type's object has relationships to tables (Hasura then reads an asynchronous output with SQL).
  private hasRelationships(type: string): boolean {
    return (this.objects.get(type.replace(/[[\]!]/g, ''))?.relationships.length ?? 0) > 0;
  }

  private requireCatalog(): Pick<Driver, 'query'> {
    if (!this.opts.catalog) throw new ApiError('not-supported', 'asynchronous actions need the metadata database (svc_catalog)', 400, []);
    return this.opts.catalog;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The action's arguments as the handler receives them (variables substituted, enums as names).
function inputOf(f: FieldSel, root: GraphQLObjectType, req: ActionRequest): { [k: string]: Json } {
  const def = root.getFields()[f.name];
  if (!def) throw new ApiError('validation-failed', `field "${f.name}" not found in type: '${root.name}'`, 400, ['selectionSet', f.name]);
  return getArgumentValues(def, f.node, req.variables as Record<string, unknown>) as { [k: string]: Json };
}

function sameSession(a: { readonly [k: string]: string }, b: { readonly [k: string]: string }): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
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

