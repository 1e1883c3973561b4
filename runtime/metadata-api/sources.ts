// The source databases of the document: connecting them, reading their catalogs, compiling the
// document against those catalogs, and finding the runner an operation on a source uses.

import type { Json } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import { ApiError } from '../errors/index.js';
import { RemoteIntrospections, serveRemotes } from '../remote/index.js';
import type { Compiled, InconsistentObject, SourceInfo } from './contract.js';
import type { Connections, MetadataApiOptions, Runner, ServedState, Work } from './state.js';

/** Connections, catalogs and compiles, for the served state and for changes in progress. */
export class Sources {
  /** Remote schema introspections, fetched once per definition (and again on reload). */
  readonly remotes = new RemoteIntrospections();
  /** What the document last said of each source (its kind picks the catalog reader). */
  private readonly infos = new Map<string, SourceInfo>();
  /** Why a source could not be connected, where the connection refused it in Hasura's words (an unset variable). */
  private readonly refused = new Map<string, string>();
  /** The settings each source's driver was opened with: a source given others is connected again. */
  private readonly openedWith = new Map<string, { readonly driver: Driver; readonly settings: string }>();

  constructor(private readonly opts: MetadataApiOptions) {}

  /**
   * Compiles the document (in the compiler's worker thread when it has one, so the event loop keeps
   * serving), then stitches the remote schemas in (their inconsistencies added).
   */
  async compile(metadata: Json, introspection: { readonly [source: string]: Json | null }): Promise<Compiled> {
    const { compiler, stringifyNumeric, inferFunctionPermissions } = this.opts;
    const opts = { stringifyNumeric, ...(inferFunctionPermissions === false ? { inferFunctionPermissions } : {}) };
    const compiled = compiler.compileAsync ? await compiler.compileAsync(metadata, introspection, opts) : compiler.compile(metadata, introspection, opts);
    const adminSdl = compiled.sdl['admin'] ?? 'type query_root { no_queries_available: String! } schema { query: query_root }';
    const { serving, inconsistencies } = serveRemotes(metadata, this.remotes, adminSdl, compiled.model, this.opts.remoteSchemaPermissions ?? false);
    const own = compiled.inconsistencies.map((i) => this.withRefusal(i));
    return { ...compiled, remote: serving, inconsistencies: [...own, ...inconsistencies] };
  }

  /** A source without a catalog because its connection was refused: the refusal is its reason (Hasura: resolveSourceConfig). */
  private withRefusal(i: InconsistentObject): InconsistentObject {
    const name = i.type === 'source' ? (i.definition as { name?: unknown } | null)?.name : undefined;
    const why = typeof name === 'string' ? this.refused.get(name) : undefined;
    return why === undefined ? i : { ...i, reason: `Inconsistent object: ${why}` };
  }

  /** Builds a served state for a stored document: connect, read every catalog, compile. */
  async load(metadata: Json, resourceVersion: number, drivers: Map<string, Driver>): Promise<ServedState> {
    const introspection: Record<string, Json | null> = {};
    const work: Connections = { introspection, drivers };
    await this.connectSources(work, metadata);
    for (const s of this.opts.compiler.sources(metadata)) await this.introspectSource(work, s.name);
    await this.remotes.refresh(metadata);
    const compiled = await this.compile(metadata, introspection);
    for (const i of compiled.inconsistencies) this.opts.log?.(`warning: inconsistent ${i.name}: ${i.reason}`);
    return { metadata, resourceVersion, introspection, compiled, drivers };
  }

  async reintrospectAll(work: Work): Promise<void> {
    await this.connectSources(work, work.metadata);
    for (const s of this.opts.compiler.sources(work.metadata)) await this.introspectSource(work, s.name);
  }

  async introspectSource(work: Connections, name: string): Promise<void> {
    const driver = work.drivers.get(name);
    if (!driver) {
      work.introspection[name] = null;
      return;
    }
    try {
      // The catalog's own database is read inside the open transaction: it sees the change's DDL,
      // and PGlite's single connection is not waited on twice.
      const runner = driver === this.opts.catalog && work.tx ? work.tx : driver;
      work.introspection[name] = await this.opts.compiler.introspect(runner, this.infos.get(name));
    } catch (e) {
      this.opts.log?.(`warning: cannot read the catalog of source "${name}": ${e instanceof Error ? e.message : String(e)}`);
      work.introspection[name] = null;
    }
  }

  /** Opens a driver for every source of the document that has none yet, and reads its catalog. */
  async connectSources(work: Connections, metadata: Json): Promise<void> {
    for (const s of this.opts.compiler.sources(metadata)) {
      this.infos.set(s.name, s);
      const settings = JSON.stringify([s.kind, s.location, s.pool ?? null]);
      const current = work.drivers.get(s.name);
      // pg_update_source with another database (or variable) reconnects, as Hasura resolves the source again.
      const opened = this.openedWith.get(s.name);
      if (current && (opened?.driver !== current || opened.settings === settings)) continue;
      work.drivers.delete(s.name);
      try {
        const driver = await this.opts.connect(s);
        this.openedWith.set(s.name, { driver, settings });
        work.drivers.set(s.name, driver);
        this.refused.delete(s.name);
      } catch (e) {
        if (e instanceof ApiError) this.refused.set(s.name, e.message);
        else this.refused.delete(s.name);
        this.opts.log?.(`warning: cannot connect source "${s.name}": ${e instanceof Error ? e.message : String(e)}`);
        work.introspection[s.name] = null;
        continue;
      }
      await this.introspectSource(work, s.name);
    }
  }

  async dropUnusedSources(work: Work): Promise<void> {
    const names = new Set(this.opts.compiler.sources(work.metadata).map((s) => s.name));
    for (const name of [...work.drivers.keys()]) {
      if (!names.has(name)) {
        const driver = work.drivers.get(name)!;
        work.drivers.delete(name);
        delete work.introspection[name];
        if (driver !== this.opts.catalog && ![...work.drivers.values()].includes(driver)) await this.retire(name, driver);
      }
    }
  }

  // A database that cannot be reached is dropped from the document all the same (it may be gone).
  private async retire(name: string, driver: Driver): Promise<void> {
    for (const x of this.opts.extensions ?? []) {
      try {
        await x.retire?.(driver);
      } catch (e) {
        this.opts.log?.(`warning: could not clean the database of dropped source "${name}": ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  driverOf(drivers: ReadonlyMap<string, Driver>, source: string): Driver {
    const d = drivers.get(source);
    if (!d) throw new ApiError('not-exists', `source with name ${JSON.stringify(source)} does not exist`, 400, ['args', 'source']);
    return d;
  }

  runnerOf(work: Work, source: string): Runner {
    const d = this.driverOf(work.drivers, source);
    return d === this.opts.catalog ? work.tx : d;
  }
}

/** A renamed source keeps its connection and catalog snapshot under the new name. */
export function renameSource(work: Work, args: Json): void {
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

/** The `source` argument of an operation (`default` when absent). */
export function sourceOfArgs(args: Json): string {
  const s = (args as { source?: unknown } | null)?.source;
  return typeof s === 'string' ? s : 'default';
}
