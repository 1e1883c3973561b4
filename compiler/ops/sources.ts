// Sources: add (or replace its configuration), update, drop (with cascade), rename; and the
// document of a fresh catalog and what clear_metadata leaves.

import { ApiError } from '../../runtime/errors/index.js';
import type { Metadata, Source } from '../metadata/index.js';
import { sourceObjectName } from '../model/index.js';
import { argsObject, boolAt, has, nameAt, readSourcePart, type Obj } from './args.js';
import { findSource, replaceSource, requireSource } from './document.js';
import type { OpHandler } from './types.js';

export type SourceKind = Source['kind'];

/** The metadata of a fresh catalog: the `default` postgres source, nothing tracked (Hasura's export of a new server). */
export function emptyMetadata(): Metadata {
  return {
    version: 3,
    sources: [{
      name: 'default', kind: 'postgres', tables: [],
      configuration: {
        connection_info: {
          use_prepared_statements: true,
          database_url: { from_env: 'SVC_GRAPHQL_DATABASE_URL' },
          isolation_level: 'read-committed',
          pool_settings: { connection_lifetime: 600, retries: 1, idle_timeout: 180, max_connections: 50 },
        },
      },
    }],
  };
}

/** clear_metadata keeps the `default` source's connection and nothing else. */
export const clearMetadata: OpHandler = (input) => {
  const d = findSource(input.metadata, 'default');
  const sources: Source[] = d ? [{ name: d.name, kind: d.kind, tables: [], configuration: d.configuration }] : [];
  return { metadata: { version: 3, sources }, effect: { kind: 'other' } };
};

function exists(name: string): ApiError {
  return new ApiError('already-exists', `source with name ${JSON.stringify(name)} already exists`, 400, ['args']);
}

/** Reads `{name, configuration, customization}` of a source of this kind. */
function readSourceArgs(o: Obj, kind: SourceKind, name: string): Source {
  const raw: Obj = {
    name, kind,
    ...(has(o, 'configuration') && o['configuration'] !== null ? { configuration: o['configuration']! } : {}),
    ...(has(o, 'customization') && o['customization'] !== null ? { customization: o['customization']! } : {}),
  };
  return readSourcePart(raw, ['args']);
}

export function addSource(kind: SourceKind): OpHandler {
  return (input) => {
    const o = argsObject(input.args);
    const name = nameAt(o, 'name');
    if (!has(o, 'configuration')) throw new ApiError('parse-failed', "the key 'configuration' was not present", 400, ['args']);
    const read = readSourceArgs(o, kind, name);
    const effect = { kind: 'create' as const, object: { type: 'source', name: sourceObjectName(name) } };
    if (findSource(input.metadata, name)) {
      if (!boolAt(o, 'replace_configuration', false)) throw exists(name);
      const next = replaceSource(input.metadata, name, (s) => {
        const { customization: _c, ...rest } = s;
        return { ...rest, configuration: read.configuration, ...(read.customization ? { customization: read.customization } : {}) };
      });
      return { metadata: next, effect };
    }
    return { metadata: { ...input.metadata, sources: [...input.metadata.sources, read] }, effect };
  };
}

export const updateSource: OpHandler = (input) => {
  const o = argsObject(input.args);
  const name = nameAt(o, 'name');
  const current = requireSource(input.metadata, name);
  const read = readSourceArgs(o, current.kind, name);
  const next = replaceSource(input.metadata, name, (s) => ({
    ...s,
    ...(has(o, 'configuration') && o['configuration'] !== null ? { configuration: read.configuration } : {}),
    ...(read.customization ? { customization: read.customization } : {}),
  }));
  return { metadata: next, effect: { kind: 'create', object: { type: 'source', name: sourceObjectName(name) } } };
};

export const dropSource: OpHandler = (input) => {
  const o = argsObject(input.args);
  const name = nameAt(o, 'name');
  requireSource(input.metadata, name);
  const next = replaceSource(input.metadata, name, () => null);
  return { metadata: next, effect: { kind: 'drop', cascade: boolAt(o, 'cascade', false) } };
};

export const renameSource: OpHandler = (input) => {
  const o = argsObject(input.args);
  const name = nameAt(o, 'name');
  const newName = nameAt(o, 'new_name');
  requireSource(input.metadata, name);
  if (findSource(input.metadata, newName)) throw exists(newName);
  const next = replaceSource(input.metadata, name, (s) => ({ ...s, name: newName }));
  return { metadata: next, effect: { kind: 'other' } };
};
