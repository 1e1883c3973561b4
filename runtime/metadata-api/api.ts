// POST /v1/metadata, /v1/query and /v2/query. Every change runs the same way: lock the catalog
// row (so writers on every instance take turns), apply the operations to a copy of the document,
// recompile after each one and judge what it made inconsistent, write the new document, commit,
// and only then swap what is served. A failure anywhere rolls the transaction back and leaves the
// served state untouched: no half-applied metadata. The operation families live beside this file:
// read-ops (reads), edit-ops (bulk and compiler edits), document-ops (replace, reload, drop
// inconsistent), run-sql-change, settle (extensions), sources (connections and compiles).

import type { Json, Session } from '../bundle/index.js';
import { ApiError, formatPath, type JsonPath } from '../errors/index.js';
import { lockCatalog, openCatalog, readCatalog, readVersion, writeCatalog } from './catalog.js';
import type { ApiContext } from './context.js';
import type { ApiExtension, ApiKind, InconsistentObject } from './contract.js';
import { accessModeOf } from './access-mode.js';
import { bulkElements } from './bulk-elements.js';
import { applyOperation } from './edit-ops.js';
import { parseEnvelope, type Envelope } from './envelope.js';
import { changesMetadata, isReadOnly, runRead, V1_DATA, V2_QUERY } from './read-ops.js';
import { settleAtStart, settleChange } from './settle.js';
import { Sources } from './sources.js';
import type { ManagementCall, MetadataApiOptions, ServedState, Work } from './state.js';

export type { ManagementCall, MetadataApiOptions, ServedState };

export class MetadataApi {
  private state: ServedState;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly cx: ApiContext;

  private constructor(private readonly opts: MetadataApiOptions, private readonly sources: Sources, state: ServedState) {
    this.state = state;
    this.cx = { opts, sources, served: () => this.state, extensionFor: (type, api) => this.extensionFor(type, api) };
  }

  /** Opens (or creates) the catalog, connects and reads every source, compiles, serves. */
  static async start(opts: MetadataApiOptions): Promise<MetadataApi> {
    const stored = await openCatalog(opts.catalog, opts.initial ?? (() => opts.compiler.empty()));
    const sources = new Sources(opts);
    const api = new MetadataApi(opts, sources, await sources.load(stored.metadata, stored.resourceVersion, new Map()));
    await settleAtStart(api.cx);
    opts.serve(api.state);
    return api;
  }

  /** What is served now. */
  get current(): ServedState {
    return this.state;
  }

  /** 'warn' while some objects are inconsistent. */
  health(): 'ok' | 'warn' {
    return this.state.compiled.inconsistencies.length > 0 ? 'warn' : 'ok';
  }

  /**
   * Another instance changed the metadata (a notification, or a periodic check): load the stored
   * document if it is newer than the served one.
   */
  async refresh(): Promise<boolean> {
    return this.exclusive(async () => {
      if (this.closed) return false;
      const version = await readVersion(this.opts.catalog);
      if (version === this.state.resourceVersion) return false;
      const stored = await readCatalog(this.opts.catalog);
      const next = await this.sources.load(stored.metadata, stored.resourceVersion, new Map(this.state.drivers));
      this.swap(next);
      this.opts.log?.(`metadata: now serving resource_version ${next.resourceVersion} (changed by another instance)`);
      return true;
    });
  }

  /** Answers one call: `{status, body}` with the JSON body as text. */
  async handle(call: ManagementCall): Promise<{ status: number; body: string }> {
    try {
      const api: ApiKind = call.path === '/v1/metadata' ? 'metadata' : 'query';
      const env = parseEnvelope(call.body, api);
      // Hasura parses a /v1/query call whole, then works out its transaction mode before running it:
      // a bulk mixing modes is refused.
      if (call.path === '/v1/query') {
        if (env.type === 'bulk') bulkElements(this.cx, env);
        accessModeOf(env.type, env.args);
      }
      // A role may run the v1 data operations (under its permissions); the rest is admin only.
      const roleMayRun = call.path !== '/v1/metadata' && V1_DATA.has(env.type);
      if (call.session.role !== 'admin' && !roleMayRun) throw new ApiError('access-denied', 'restricted access : admin only', 400, ['args']);
      if (call.path === '/v2/query') checkV2Operation(env.type, env.args, []);
      const result = await this.run(env, call.session);
      return { status: 200, body: JSON.stringify(result) };
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError('unexpected', 'an unexpected error happened', 500, [], { message: e instanceof Error ? e.message : String(e) });
      if (!(e instanceof ApiError)) this.opts.log?.(`metadata API: unexpected error: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return { status: err.status, body: JSON.stringify(errorBody(err)) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.catch(() => undefined);
  }

  // A read runs on what is served; a change takes its turn, holds the catalog row, and is served once committed.
  private async run(env: Envelope, session: Session): Promise<Json> {
    if (isReadOnly(this.cx, env)) return runRead(this.cx, env, session);
    return this.exclusive(async () => {
      let next: ServedState | null = null;
      const result = await this.opts.catalog.transaction(async (tx) => {
        const stored = await lockCatalog(tx, this.state.resourceVersion);
        let base = this.state;
        if (stored.metadata !== null) {
          // Another instance wrote first and its notification has not arrived yet.
          base = await this.sources.load(stored.metadata, stored.resourceVersion, new Map(base.drivers));
        }
        if (env.resourceVersion !== undefined && env.resourceVersion !== base.resourceVersion) {
          throw new ApiError('conflict', `metadata resource version referenced (${env.resourceVersion}) did not match current version`, 409, []);
        }
        const work: Work = {
          metadata: base.metadata, introspection: { ...base.introspection }, compiled: base.compiled,
          drivers: new Map(base.drivers), changed: false, modified: false, tx, api: env.api, session, recreateEventTriggers: false,
        };
        if (changesMetadata(this.cx, env)) await this.sources.reintrospectAll(work);
        const answer = await applyOperation(this.cx, env, work, []);
        if (work.changed || work.recreateEventTriggers || work.schemaChanged) await settleChange(this.cx, work, base.metadata);
        let version = base.resourceVersion;
        if (work.changed || work.modified) version = await writeCatalog(tx, work.metadata, this.opts.instance);
        next = { metadata: work.metadata, resourceVersion: version, introspection: work.introspection, compiled: work.compiled, drivers: work.drivers };
        return answer;
      });
      if (next) this.swap(next);
      return result;
    });
  }

  private extensionFor(type: string, api: ApiKind): ApiExtension | undefined {
    return this.opts.extensions?.find((x) => x.handles(type, api));
  }

  /** Serves `next`, closing the drivers of sources it no longer has. */
  private swap(next: ServedState): void {
    const before = this.state;
    this.state = next;
    this.opts.serve(next);
    const kept = new Set(next.drivers.values());
    for (const d of new Set(before.drivers.values())) {
      if (!kept.has(d) && d !== this.opts.catalog) d.close().catch(() => undefined);
    }
  }

  /** Runs `task` after every earlier change of this instance. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** /v2/query takes the data operations, run_sql and bulk (Hasura: V2Query's RQLQuery), in its bulks too. */
function checkV2Operation(type: unknown, args: unknown, at: JsonPath): void {
  if (typeof type !== 'string') return;
  if (!V2_QUERY.has(type)) {
    throw new ApiError('parse-failed', `unknown /v2/query operation "${type}" (it takes ${[...V2_QUERY].join(', ')})`, 400, [...at, 'type']);
  }
  if (type !== 'bulk' || !Array.isArray(args)) return;
  args.forEach((element: unknown, i) => {
    const o = typeof element === 'object' && element !== null ? element as { type?: unknown; args?: unknown } : {};
    checkV2Operation(o.type, o.args, [...at, 'args', i]);
  });
}

/** The management error body: `{path, error, code}`, plus `internal` where Hasura shows it. */
function errorBody(e: ApiError): Json {
  const body: Record<string, Json> = { path: formatPath(e.path), error: e.message, code: e.code };
  if (e.internal !== undefined && (e.code === 'invalid-configuration' || e.code === 'unexpected' || e.code === 'postgres-error' || e.code === 'dependency-error')) {
    body['internal'] = e.internal as Json;
  }
  return body;
}

export type { InconsistentObject };
