// Where a source's database is: `connection_info.database_url` as a string, `{from_env: NAME}`, or
// connection parameters (reference/metadata-ops.md, "Sources"). Parameters become a literal URL.

import { Issues, has, optional, readName, readObject, readString, required, type Obj, type Read } from './reader.js';
import type { DatabaseUrl } from './types.js';

/** The database URL of a source: written in the metadata, or the environment variable holding it. */
export type ResolvedDatabaseUrl = { readonly kind: 'literal'; readonly url: string } | { readonly kind: 'env'; readonly name: string };

const readPort: Read<string> = (v, path, is) => {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 65536) return String(v);
  if (typeof v === 'string' && /^\d{1,5}$/.test(v)) return v;
  return is.fail(path, 'expected a port number');
};

/** `{host, port, username, password?, database}` as a `postgres://` URL with every part escaped. */
const connectionParameters: Read<string> = (v, path, is) => {
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  const host = required(o, 'host', path, is, readName);
  const port = required(o, 'port', path, is, readPort);
  const username = required(o, 'username', path, is, readName);
  const password = optional(o, 'password', path, is, readString);
  const database = required(o, 'database', path, is, readName);
  if (host === undefined || port === undefined || username === undefined || database === undefined) return undefined;
  const auth = encodeURIComponent(username) + (password === undefined ? '' : `:${encodeURIComponent(password)}`);
  const h = host.includes(':') ? `[${host}]` : host;
  return `postgres://${auth}@${h}:${port}/${encodeURIComponent(database)}`;
};

/** A `database_url` (or MSSQL `connection_string`) as written in a source's `connection_info`. */
export const readDatabaseUrl: Read<DatabaseUrl> = (v, path, is) => {
  if (typeof v === 'string') return readName(v, path, is);
  const o = readObject(v, path, is);
  if (o === undefined) return undefined;
  if (has(o, 'from_env')) {
    const name = required(o, 'from_env', path, is, readName);
    return name === undefined ? undefined : { from_env: name };
  }
  if (has(o, 'connection_parameters')) return required(o, 'connection_parameters', path, is, connectionParameters);
  if (has(o, 'host')) return connectionParameters(o, path, is);
  return is.fail(path, 'expected a URL string, {"from_env": NAME} or connection parameters');
};

function asObject(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function own(o: Obj | undefined, key: string): unknown {
  return o !== undefined && Object.hasOwn(o, key) ? o[key] : undefined;
}

function resolve(v: unknown): ResolvedDatabaseUrl | null {
  if (v === undefined || v === null) return null;
  const url = readDatabaseUrl(v, [], new Issues());
  if (url === undefined) return null;
  return typeof url === 'string' ? { kind: 'literal', url } : { kind: 'env', name: url.from_env };
}

/**
 * The URL of a source's database, or null when the metadata gives none (the CLI's
 * `--database-url` then serves the `default` source). Looks at `configuration.connection_info`
 * (`database_url`, MSSQL's `connection_string`), then the older `configuration.database_url` and
 * a `connection_info` placed beside `configuration`. Never throws, whatever the shape.
 */
export function databaseUrl(source: { readonly configuration?: unknown }): ResolvedDatabaseUrl | null {
  const cfg = asObject(own(asObject(source), 'configuration'));
  const info = asObject(own(cfg, 'connection_info')) ?? asObject(own(asObject(source), 'connection_info'));
  for (const candidate of [own(info, 'database_url'), own(info, 'connection_string'), own(cfg, 'database_url')]) {
    const r = resolve(candidate);
    if (r !== null) return r;
  }
  return null;
}
