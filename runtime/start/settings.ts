// What starting a server takes: the settings `kiln serve` and `kiln-runtime` read from their flags
// and the SVC_GRAPHQL_* environment, and what a started server hands back.

import type { AuthFlags } from './auth-config.js';
import type { WorkerFlags } from './serve-workers.js';

/** The settings of a served instance (flags, or their SVC_GRAPHQL_* variables). */
export interface ServeSettings extends AuthFlags, WorkerFlags {
  readonly databaseUrl?: string;
  /** The embedded database's folder, used when no database URL is given. */
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly adminSecret?: string;
  readonly unauthorizedRole?: string;
  readonly enabledApis?: string;
  readonly pgConnections: number;
  readonly stringifyNumericTypes: boolean;
  readonly console: boolean;
  /** SVC_GRAPHQL_ENABLE_ALLOWLIST: non-admin roles run only allow-listed queries. */
  readonly enableAllowlist?: boolean;
}

/** A listening server. */
export interface RunningServer {
  readonly port: number;
  /** Stops HTTP, the workers, and closes every database it opened. */
  close(): Promise<void>;
}

/** Where start-up progress and warnings go. */
export type Log = (line: string) => void;

/** Progress on stderr, as the command lines print it. */
export const stderrLog: Log = (line) => { process.stderr.write(`${line}\n`); };

/** The API groups of --enabled-apis, or undefined for the default. */
export function enabledApiList(value: string | undefined): string[] | undefined {
  return value ? value.split(',').map((s) => s.trim()) : undefined;
}

/** The address printed in the start-up line (0.0.0.0 is reached on 127.0.0.1). */
export function baseUrl(host: string, port: number): string {
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}
