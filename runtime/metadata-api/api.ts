// POST /v1/metadata, /v1/query and /v2/query. Every change runs the same way: lock the catalog
// row (so writers on every instance take turns), apply the operations to a copy of the document,
// recompile after each one and judge what it made inconsistent, write the new document, commit,
// and only then swap what is served. A failure anywhere rolls the transaction back and leaves the
// served state untouched: no half-applied metadata.

import type { Json, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError, formatPath, type JsonPath } from '../errors/index.js';
import { lockCatalog, openCatalog, readCatalog, readVersion, writeCatalog } from './catalog.js';
import type { ApiExtension, ApiKind, Compiled, ExtensionContext, InconsistentObject, MetadataCompiler, OperationRequest, SettleContext, SourceInfo } from './contract.js';
import { judgeEdit } from './judge.js';
import { parseEnvelope, type Envelope } from './envelope.js';
import { looksLikeDdl, parseRunSqlArgs, runSql, type RunSqlArgs } from './run-sql.js';
import { runV1Data } from './v1-data.js';
import { testWebhookTransform } from './webhook-transform.js';

type Runner = Parameters<Parameters<Driver['transaction']>[0]>[0];

/** What is served: one consistent snapshot, replaced whole. */
export interface ServedState {
  readonly metadata: Json;
  readonly resourceVersion: number;
  readonly introspection: { readonly [source: string]: Json | null };
  readonly compiled: Compiled;
  readonly drivers: ReadonlyMap<string, Driver>;
}

export interface MetadataApiOptions {
  readonly compiler: MetadataCompiler;
  /** The database that holds svc_catalog. */
  readonly catalog: Driver;
  /** Opens a source's database (the catalog's own driver for the default source, usually). */
  readonly connect: (source: SourceInfo) => Promise<Driver>;
  readonly stringifyNumeric: boolean;
  /** Called with every new state after it is committed (and once at start): swap the engine. */
  readonly serve: (state: ServedState) => void;
  /** The document a fresh catalog starts with (default: the compiler's empty metadata). */
  readonly initial?: () => Json;
  /** Names this instance in change notifications. */
  readonly instance: string;
  readonly log?: (line: string) => void;
  /** Operations answered beside the compiler's edits, and what follows a change in the databases. */
  readonly extensions?: readonly ApiExtension[];
}

/** One management call. */
export interface ManagementCall {
  readonly path: '/v1/metadata' | '/v1/query' | '/v2/query';
  readonly body: unknown;
  readonly session: Session;
}

/** Operations the runtime runs itself; everything else is a compiler edit. */
const READ_ONLY = new Set(['export_metadata', 'get_inconsistent_metadata', 'select', 'count', 'test_webhook_transform']);
const V1_DATA = new Set(['insert', 'select', 'count', 'update', 'delete']);
const V2_QUERY = new Set(['run_sql', 'bulk']);

const SUCCESS: Json = { message: 'success' };

/** Operations of later work, by what they need: a clear refusal instead of "unknown command". */
const LATER: readonly (readonly [RegExp, string])[] = [
  [/^(?:[a-z]+_)?(?:create|update|delete)_remote_relationship$|^(?:create|update|delete)_remote_schema_remote_relationship$|^introspect_remote_schema$/,
    'remote relationships and remote schema introspection are not supported yet (they come with remote schemas)'],
  [/^get_event_invocations$/,
    'this older operation is not supported; use get_scheduled_event_invocations'],
  [/^(?:pause_event_trigger_cleanups|resume_event_trigger_cleanups)$/,
    'scheduled cleanups of event logs are not supported yet; run cleanup_event_trigger_logs to clear old events'],
];

/** The open sources and their catalog snapshots; `tx` while a change holds the catalog transaction. */
interface Connections {
  readonly drivers: Map<string, Driver>;
  introspection: Record<string, Json | null>;
  readonly tx?: Runner;
}

/** A change in progress: the state it started from, and what it has done so far. */
interface Work {
  metadata: Json;
  introspection: Record<string, Json | null>;
  compiled: Compiled;
  drivers: Map<string, Driver>;
  changed: boolean;
  /** The catalog transaction (sources on the catalog's driver run their SQL in it). */
  readonly tx: Runner;
  readonly api: ApiKind;
  /** Who asks (the v1 data operations run under its role). */
  readonly session: Session;
  /** reload_metadata asked to recreate the database triggers of event triggers. */
  recreateEventTriggers: boolean;
}

export class MetadataApi {
  private state: ServedState;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(private readonly opts: MetadataApiOptions, state: ServedState) {
    this.state = state;
  }

  /** Opens (or creates) the catalog, connects and reads every source, compiles, serves. */
  static async start(opts: MetadataApiOptions): Promise<MetadataApi> {
    const stored = await openCatalog(opts.catalog, opts.initial ?? (() => opts.compiler.empty()));
    const api = new MetadataApi(opts, undefined as unknown as ServedState);
    api.state = await api.load(stored.metadata, stored.resourceVersion, new Map());
    await api.settleAtStart();
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
      const next = await this.load(stored.metadata, stored.resourceVersion, new Map(this.state.drivers));
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
      // A role may run the v1 data operations (under its permissions); the rest is admin only.
      const roleMayRun = call.path === '/v1/query' && V1_DATA.has(env.type);
      if (call.session.role !== 'admin' && !roleMayRun) throw new ApiError('access-denied', 'restricted access : admin only', 400, ['args']);
      if (call.path === '/v2/query' && !V2_QUERY.has(env.type)) {
        throw new ApiError('parse-failed', `unknown /v2/query operation "${env.type}" (it takes run_sql and bulk)`, 400, ['type']);
      }
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

  // --- running operations ---

  private async run(env: Envelope, session: Session): Promise<Json> {
    if (this.isReadOnly(env)) return this.read(env, session);
    return this.exclusive(async () => {
      let next: ServedState | null = null;
      const result = await this.opts.catalog.transaction(async (tx) => {
        const stored = await lockCatalog(tx);
        let base = this.state;
        if (stored.resourceVersion !== base.resourceVersion) {
          // Another instance wrote first and its notification has not arrived yet.
          base = await this.load(stored.metadata, stored.resourceVersion, new Map(base.drivers));
        }
        if (env.resourceVersion !== undefined && env.resourceVersion !== base.resourceVersion) {
          throw new ApiError('conflict', `metadata resource version referenced (${env.resourceVersion}) did not match current version`, 409, []);
        }
        const work: Work = {
          metadata: base.metadata, introspection: { ...base.introspection }, compiled: base.compiled,
          drivers: new Map(base.drivers), changed: false, tx, api: env.api, session, recreateEventTriggers: false,
        };
        if (this.changesMetadata(env)) await this.reintrospectAll(work);
        const answer = await this.apply(env, work, []);
        if (work.changed || work.recreateEventTriggers) await this.settle(work, base.metadata);
        let version = base.resourceVersion;
        if (work.changed) version = await writeCatalog(tx, work.metadata, this.opts.instance);
        next = { metadata: work.metadata, resourceVersion: version, introspection: work.introspection, compiled: work.compiled, drivers: work.drivers };
        return answer;
      });
      if (next) this.swap(next);
      return result;
    });
  }

  private isReadOnly(env: Envelope): boolean {
    if (READ_ONLY.has(env.type)) return true;
    const ext = this.extensionFor(env.type, env.api);
    if (ext) return ext.readOnly(env.type);
    if (env.type === 'run_sql') {
      const args = env.args as { read_only?: unknown } | null;
      return typeof args === 'object' && args !== null && args.read_only === true;
    }
    return false;
  }

  /** True when the operation edits the document (so the catalogs are read again first). */
  private changesMetadata(env: Envelope): boolean {
    const edits = (t: string): boolean => t !== 'run_sql' && !V1_DATA.has(t) && !READ_ONLY.has(t) && !this.extensionFor(t, env.api);
    if (env.type === 'bulk') return Array.isArray(env.args) && env.args.some((a) => {
      const t = (a as { type?: unknown } | null)?.type;
      return typeof t === 'string' && edits(t);
    });
    return edits(env.type);
  }

  private extensionFor(type: string, api: ApiKind): ApiExtension | undefined {
    return this.opts.extensions?.find((x) => x.handles(type, api));
  }

  /** Every extension brings the databases in line with the changed document, inside the change. */
  private async settle(work: Work, before: Json): Promise<void> {
    const ctx: SettleContext = {
      before, after: work.metadata, compiled: work.compiled, catalog: work.tx,
      runnerOf: (source) => this.runnerOf(work, source), recreateEventTriggers: work.recreateEventTriggers,
    };
    for (const x of this.opts.extensions ?? []) await x.settle?.(ctx);
  }

  /** At start: what the stored document asks for (database triggers, cron events) is checked once. */
  private async settleAtStart(): Promise<void> {
    const xs = (this.opts.extensions ?? []).filter((x) => x.settle);
    if (xs.length === 0) return;
    const s = this.state;
    try {
      await this.opts.catalog.transaction(async (tx) => {
        const ctx: SettleContext = {
          before: null, after: s.metadata, compiled: s.compiled, catalog: tx, recreateEventTriggers: false,
          runnerOf: (source) => {
            const d = this.driverOf(s.drivers, source);
            return d === this.opts.catalog ? tx : d;
          },
        };
        for (const x of xs) await x.settle!(ctx);
      });
    } catch (e) {
      this.opts.log?.(`warning: could not bring the databases in line with the metadata at start: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async read(env: Envelope, session: Session): Promise<Json> {
    const s = this.state;
    const answer = readAnswer(this.opts.compiler, env, s.metadata, s.resourceVersion, s.compiled);
    if (answer !== undefined) return answer;
    const ext = this.extensionFor(env.type, env.api);
    if (ext) {
      const ctx: ExtensionContext = {
        metadata: s.metadata, compiled: s.compiled, catalog: this.opts.catalog, api: env.api, session,
        runnerOf: (source) => this.driverOf(s.drivers, source),
      };
      return ext.run(env.type, env.args, ctx);
    }
    switch (env.type) {
      case 'run_sql': {
        const args = parseRunSqlArgs(env.args, ['args']);
        const driver = this.driverOf(s.drivers, args.source);
        return driver.transaction((tx) => runSql(tx, args), { readOnly: true });
      }
      default: {
        const source = sourceOfArgs(env.args);
        const driver = this.driverOf(s.drivers, source);
        return runV1Data(env.type, env.args, ['args'], { model: s.compiled.model, runner: driver, source, session });
      }
    }
  }

  private async apply(env: Envelope, work: Work, at: JsonPath): Promise<Json> {
    try {
      return await this.applyOne(env, work);
    } catch (e) {
      throw e instanceof ApiError ? e.at(...at) : e;
    }
  }

  private async applyOne(env: Envelope, work: Work): Promise<Json> {
    const { compiler } = this.opts;
    switch (env.type) {
      case 'bulk': {
        if (!Array.isArray(env.args)) throw new ApiError('parse-failed', `parsing array failed, expected Array, but encountered ${kind(env.args)}`, 400, ['args']);
        const out: Json[] = [];
        for (let i = 0; i < env.args.length; i++) {
          let inner: Envelope;
          try {
            inner = parseEnvelope(env.args[i], work.api);
          } catch (e) {
            throw e instanceof ApiError ? e.at('args', i) : e;
          }
          out.push(await this.apply(inner, work, ['args', i]));
        }
        return out;
      }
      case 'run_sql':
        return this.runSqlIn(work, parseRunSqlArgs(env.args, ['args']));
      case 'insert': case 'select': case 'count': case 'update': case 'delete': {
        const source = sourceOfArgs(env.args);
        // A write whose check fails must leave nothing: on another source it runs in a transaction of its own.
        const runner = this.runnerOf(work, source);
        const run = (r: Runner): Promise<Json> => runV1Data(env.type, env.args, ['args'], { model: work.compiled.model, runner: r, source, session: work.session });
        return runner === work.tx ? run(runner) : this.driverOf(work.drivers, source).transaction(run);
      }
      case 'export_metadata': case 'get_inconsistent_metadata': case 'test_webhook_transform':
        return readAnswer(this.opts.compiler, env, work.metadata, this.state.resourceVersion, work.compiled)!;
      case 'replace_metadata':
        return this.replace(env, work);
      case 'reload_metadata':
        return this.reload(env, work);
      case 'drop_inconsistent_metadata': {
        if (work.compiled.inconsistencies.length === 0) return SUCCESS;
        await this.commitDocument(work, compiler.dropObjects(work.metadata, work.compiled.inconsistencies));
        return SUCCESS;
      }
      default: {
        const ext = this.extensionFor(env.type, work.api);
        if (ext) {
          const ctx: ExtensionContext = {
            metadata: work.metadata, compiled: work.compiled, catalog: work.tx, api: work.api, session: work.session,
            runnerOf: (source) => this.runnerOf(work, source),
          };
          return ext.run(env.type, env.args, ctx);
        }
        const later = LATER.find(([re]) => re.test(env.type));
        if (later) throw new ApiError('not-supported', `${env.type}: ${later[1]}`, 400, ['type']);
        if (!compiler.knows(env.type, work.api)) {
          throw new ApiError('parse-failed', unknownOperation(env.type, work.api), 400, ['type']);
        }
        const op: OperationRequest = { type: env.type, args: env.args, api: work.api, ...(env.version !== undefined ? { version: env.version } : {}) };
        const applied = compiler.apply(work.metadata, op, { introspection: work.introspection });
        if (applied.metadata === null) return applied.result;
        if (env.type === 'rename_source') renameSource(work, env.args);
        await this.connectSources(work, applied.metadata);
        const judged = judgeEdit(compiler, work.compiled.inconsistencies, applied.metadata, applied.effect,
          (md) => this.compile(md, work.introspection));
        work.metadata = judged.metadata;
        work.compiled = judged.compiled;
        work.changed = true;
        await this.dropUnusedSources(work);
        return applied.result;
      }
    }
  }

  /** run_sql inside the change: statement, then (after DDL) the catalog read again and the metadata judged. */
  private async runSqlIn(work: Work, args: RunSqlArgs): Promise<Json> {
    const driver = this.driverOf(work.drivers, args.source);
    const onCatalog = driver === this.opts.catalog;
    const body = async (runner: Runner): Promise<Json> => {
      const result = await runSql(runner, args);
      // Hasura's rule: the catalog is read again after DDL (or when asked to check), and the
      // metadata checked against it unless check_metadata_consistency is false.
      const ddl = args.checkMetadataConsistency === true || args.cascade || looksLikeDdl(args.sql);
      if (!ddl) return result;
      const before = work.introspection[args.source] ?? null;
      const after = await this.opts.compiler.introspect(runner);
      work.introspection = { ...work.introspection, [args.source]: after };
      const reconciled = this.opts.compiler.reconcile(work.metadata, args.source, before, after);
      if (reconciled !== work.metadata) {
        work.metadata = reconciled;
        work.changed = true;
      }
      if (args.checkMetadataConsistency === false) {
        work.compiled = this.compile(work.metadata, work.introspection);
        return result;
      }
      const judged = judgeEdit(this.opts.compiler, work.compiled.inconsistencies, work.metadata,
        { kind: 'sql', cascade: args.cascade }, (md) => this.compile(md, work.introspection));
      if (judged.metadata !== work.metadata) work.changed = true;
      work.metadata = judged.metadata;
      work.compiled = judged.compiled;
      return result;
    };
    if (onCatalog) return body(work.tx);
    // Another database: its own transaction, committed once the metadata fits it.
    return driver.transaction(body);
  }

  private async replace(env: Envelope, work: Work): Promise<Json> {
    const { compiler } = this.opts;
    const args = env.args;
    const o = typeof args === 'object' && args !== null && !Array.isArray(args) ? args as Record<string, Json> : null;
    const wrapped = env.version === 2 || (env.version === undefined && o !== null && 'metadata' in o && !('sources' in o) && !('tables' in o) && !('version' in o));
    const allowInconsistent = wrapped && o?.['allow_inconsistent_metadata'] === true;
    const raw = wrapped ? o?.['metadata'] : args;
    const parsed = compiler.parse(raw);
    if (parsed.value === null) {
      const first = parsed.errors[0] ?? new ApiError('parse-failed', 'the metadata could not be read');
      throw first.at(...(wrapped ? ['args', 'metadata'] : ['args']));
    }
    await this.connectSources(work, parsed.value);
    for (const s of compiler.sources(parsed.value)) {
      if (!(s.name in work.introspection) || work.introspection[s.name] === null) await this.introspectSource(work, s.name);
    }
    const compiled = this.compile(parsed.value, work.introspection);
    // An inherited role's disagreeing parents are listed, never blocking (judge.ts).
    if (compiled.inconsistencies.some((o) => o.type !== 'inherited role permission inconsistency') && !allowInconsistent) {
      throw new ApiError('unexpected', 'cannot continue due to inconsistent metadata', 400, ['args'], compiled.inconsistencies);
    }
    work.metadata = compiler.keptOnReplace(work.metadata, parsed.value);
    work.compiled = work.metadata === parsed.value ? compiled : this.compile(work.metadata, work.introspection);
    work.changed = true;
    await this.dropUnusedSources(work);
    if (!wrapped) return SUCCESS;
    return { is_consistent: compiled.inconsistencies.length === 0, inconsistent_objects: compiled.inconsistencies as unknown as Json };
  }

  private async reload(env: Envelope, work: Work): Promise<Json> {
    const args = (typeof env.args === 'object' && env.args !== null && !Array.isArray(env.args) ? env.args : {}) as Record<string, Json>;
    const which = args['reload_sources'];
    const names = this.opts.compiler.sources(work.metadata).map((s) => s.name)
      .filter((n) => which === undefined || which === true || (Array.isArray(which) && which.includes(n)));
    await this.connectSources(work, work.metadata);
    for (const name of names) await this.introspectSource(work, name);
    work.compiled = this.compile(work.metadata, work.introspection);
    if (args['recreate_event_triggers'] === true) work.recreateEventTriggers = true;
    const inconsistent = work.compiled.inconsistencies;
    if (inconsistent.length === 0) return { is_consistent: true, message: 'success' };
    return { is_consistent: false, message: 'success', inconsistent_objects: inconsistent as unknown as Json };
  }

  /** Replaces the document with `metadata` (already judged), compiling it. */
  private async commitDocument(work: Work, metadata: Json): Promise<void> {
    work.metadata = metadata;
    work.compiled = this.compile(metadata, work.introspection);
    work.changed = true;
    await this.dropUnusedSources(work);
  }

  // --- sources and catalogs ---

  private compile(metadata: Json, introspection: { readonly [source: string]: Json | null }): Compiled {
    return this.opts.compiler.compile(metadata, introspection, { stringifyNumeric: this.opts.stringifyNumeric });
  }

  /** Builds a served state for a stored document: connect, read every catalog, compile. */
  private async load(metadata: Json, resourceVersion: number, drivers: Map<string, Driver>): Promise<ServedState> {
    const introspection: Record<string, Json | null> = {};
    const work: Connections = { introspection, drivers };
    await this.connectSources(work, metadata);
    for (const s of this.opts.compiler.sources(metadata)) await this.introspectSource(work, s.name);
    const compiled = this.compile(metadata, introspection);
    for (const i of compiled.inconsistencies) this.opts.log?.(`warning: inconsistent ${i.name}: ${i.reason}`);
    return { metadata, resourceVersion, introspection, compiled, drivers };
  }

  private async reintrospectAll(work: Work): Promise<void> {
    await this.connectSources(work, work.metadata);
    for (const s of this.opts.compiler.sources(work.metadata)) await this.introspectSource(work, s.name);
  }

  private async introspectSource(work: Connections, name: string): Promise<void> {
    const driver = work.drivers.get(name);
    if (!driver) {
      work.introspection[name] = null;
      return;
    }
    try {
      // The catalog's own database is read inside the open transaction: it sees the change's DDL,
      // and PGlite's single connection is not waited on twice.
      const runner = driver === this.opts.catalog && work.tx ? work.tx : driver;
      work.introspection[name] = await this.opts.compiler.introspect(runner);
    } catch (e) {
      this.opts.log?.(`warning: cannot read the catalog of source "${name}": ${e instanceof Error ? e.message : String(e)}`);
      work.introspection[name] = null;
    }
  }

  /** Opens a driver for every source of the document that has none yet, and reads its catalog. */
  private async connectSources(work: Connections, metadata: Json): Promise<void> {
    for (const s of this.opts.compiler.sources(metadata)) {
      if (work.drivers.has(s.name)) continue;
      try {
        work.drivers.set(s.name, await this.opts.connect(s));
      } catch (e) {
        this.opts.log?.(`warning: cannot connect source "${s.name}": ${e instanceof Error ? e.message : String(e)}`);
        work.introspection[s.name] = null;
        continue;
      }
      await this.introspectSource(work, s.name);
    }
  }

  private async dropUnusedSources(work: Work): Promise<void> {
    const names = new Set(this.opts.compiler.sources(work.metadata).map((s) => s.name));
    for (const name of [...work.drivers.keys()]) {
      if (!names.has(name)) {
        work.drivers.delete(name);
        delete work.introspection[name];
      }
    }
  }

  private driverOf(drivers: ReadonlyMap<string, Driver>, source: string): Driver {
    const d = drivers.get(source);
    if (!d) throw new ApiError('not-exists', `source with name ${JSON.stringify(source)} does not exist`, 400, ['args', 'source']);
    return d;
  }

  private runnerOf(work: Work, source: string): Runner {
    const d = this.driverOf(work.drivers, source);
    return d === this.opts.catalog ? work.tx : d;
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

/** A renamed source keeps its connection and catalog snapshot under the new name. */
function renameSource(work: Work, args: Json): void {
  const a = args as { name?: unknown; new_name?: unknown } | null;
  if (typeof a?.name !== 'string' || typeof a.new_name !== 'string') return;
  const d = work.drivers.get(a.name);
  if (d) {
    work.drivers.set(a.new_name, d);
    work.drivers.delete(a.name);
  }
  if (a.name in work.introspection) {
    work.introspection[a.new_name] = work.introspection[a.name] ?? null;
    delete work.introspection[a.name];
  }
}

/** The answers of the operations that only read the document (in a bulk: as edited so far); undefined for others. */
function readAnswer(compiler: MetadataCompiler, env: Envelope, metadata: Json, resourceVersion: number, compiled: Compiled): Json | undefined {
  switch (env.type) {
    case 'export_metadata': {
      const shown = compiler.exported(metadata);
      return env.version === 2 ? { resource_version: resourceVersion, metadata: shown } : shown;
    }
    case 'get_inconsistent_metadata': {
      const objects = compiled.inconsistencies as unknown as Json;
      return env.api === 'query' ? objects : { is_consistent: compiled.inconsistencies.length === 0, inconsistent_objects: objects };
    }
    case 'test_webhook_transform':
      return testWebhookTransform(env.args, ['args'], process.env);
    default:
      return undefined;
  }
}

function sourceOfArgs(args: Json): string {
  const s = (args as { source?: unknown } | null)?.source;
  return typeof s === 'string' ? s : 'default';
}

function kind(v: unknown): string {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  return ({ object: 'Object', string: 'String', number: 'Number', boolean: 'Boolean' } as Record<string, string>)[typeof v] ?? 'Object';
}

function unknownOperation(type: string, api: ApiKind): string {
  return api === 'metadata' ? `unknown metadata command "${type}"` : `unknown query type "${type}"`;
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
