// The shapes the metadata API's parts share: what is served, the options it starts with, and a
// change in progress (the document being edited inside the catalog transaction).

import type { Json, Session } from '../bundle/index.js';
import type { Driver } from '../drivers/index.js';
import type { ApiExtension, ApiKind, Compiled, MetadataCompiler, SourceInfo } from './contract.js';

/** A statement runner inside a driver's transaction. */
export type Runner = Parameters<Parameters<Driver['transaction']>[0]>[0];

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
  /** SVC_GRAPHQL_INFER_FUNCTION_PERMISSIONS (absent: true). */
  readonly inferFunctionPermissions?: boolean;
  /** Called with every new state after it is committed (and once at start): swap the engine. */
  readonly serve: (state: ServedState) => void;
  /** The document a fresh catalog starts with (default: the compiler's empty metadata). */
  readonly initial?: () => Json;
  /** Names this instance in change notifications. */
  readonly instance: string;
  readonly log?: (line: string) => void;
  /** SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS: roles see only the remote schemas their permissions give. */
  readonly remoteSchemaPermissions?: boolean;
  /** Operations answered beside the compiler's edits, and what follows a change in the databases. */
  readonly extensions?: readonly ApiExtension[];
}

/** One management call. */
export interface ManagementCall {
  readonly path: '/v1/metadata' | '/v1/query' | '/v2/query';
  readonly body: unknown;
  readonly session: Session;
}

/** The open sources and their catalog snapshots; `tx` while a change holds the catalog transaction. */
export interface Connections {
  readonly drivers: Map<string, Driver>;
  introspection: Record<string, Json | null>;
  readonly tx?: Runner;
}

/** A change in progress: the state it started from, and what it has done so far. */
export interface Work {
  metadata: Json;
  introspection: Record<string, Json | null>;
  compiled: Compiled;
  drivers: Map<string, Driver>;
  changed: boolean;
  /**
   * An operation Hasura counts as modifying the metadata ran (queryModifiesMetadata): the resource
   * version moves on even when the document came out the same (reload_metadata, a no-op edit).
   */
  modified: boolean;
  /** The catalog transaction (sources on the catalog's driver run their SQL in it). */
  readonly tx: Runner;
  readonly api: ApiKind;
  /** Who asks (the v1 data operations run under its role). */
  readonly session: Session;
  /** reload_metadata asked to recreate the database triggers of event triggers. */
  recreateEventTriggers: boolean;
  /** A run_sql changed a source's schema (its catalog was read again), even if the document stayed. */
  schemaChanged?: boolean;
}

/** The answer of most edits. */
export const SUCCESS: Json = { message: 'success' };
