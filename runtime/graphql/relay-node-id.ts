// A Relay node id read as Hasura v2 reads it (GraphQL/Schema/Relay.hs, `nodeField` and the
// `NodeId` FromJSON instance): base64 of a JSON array `[1, schema, table, pk...]`, version 1 being
// the only one (Hasura's later `[2, source, ...]` form is refused, as Hasura v2.x before it did). Each way an id can be wrong has Hasura's words: a decoding
// or shape problem is "the node id is invalid: Error in $: ..." (aeson's words) at the `id`
// argument, a table the role does not read is named there too, a key with too few or too many
// values is refused at the field, and a key value of the wrong JSON kind is `parse-failed` there.

import type { TableModel } from '../bundle/index.js';
import { ApiError, jsonKind } from '../errors/index.js';
import { scientificText } from '../sql/index.js';

type Path = readonly (string | number)[];

/** The table and primary key values a node id names, among `tables` (those the role reads, with a key). */
export interface NodeTarget {
  readonly table: TableModel;
  readonly pk: readonly unknown[];
}

// Column types whose values are JSON strings in a node id (Hasura parses them as Text).
const TEXT_TYPES = new Set(['text', 'varchar', 'character varying', 'bpchar', 'char', 'character', 'citext', 'name']);

/** The target of the node id `id` of the `node` field at `field`; throws Hasura's error for a bad one. */
export function readNodeId(id: string, tables: readonly TableModel[], field: Path): NodeTarget {
  const invalid = (message: string, path: Path = [...field, 'args', 'id']): ApiError =>
    new ApiError('validation-failed', `the node id is invalid: ${message}`, 400, path);
  const bytes = Buffer.from(id, 'base64');
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    // aeson shows the input it could not read, byte by byte.
    throw invalid(`Error in $: Failed reading: not a valid json value at '${bytes.toString('latin1')}'`);
  }
  if (!Array.isArray(v)) throw invalid(`Error in $: parsing [] failed, expected Array, but encountered ${jsonKind(v)}`);
  if (v.length === 0) throw invalid('Error in $: unexpected GUID format, found empty list');
  const version = v[0];
  if (typeof version !== 'number') throw invalid('Error in $: unexpected GUID format, needs to start with a version number');
  if (version !== 1) throw invalid(`Error in $: unsupported GUID version: ${String(scientificText(version))}`);
  if (v.length < 4) throw invalid('Error in $: GUID version 1: expecting schema name, table name and at least one column value');
  const [schema, name] = v.slice(1, 3);
  const notText = [schema, name].find((x) => typeof x !== 'string');
  if (notText !== undefined) throw invalid(`Error in $: parsing Text failed, expected String, but encountered ${jsonKind(notText)}`);
  const pk = v.slice(3);
  const table = tables.find((t) => t.schema === schema && t.name === name);
  if (!table) throw invalid(`the table ${JSON.stringify(id)}`);
  const keys = table.primaryKey;
  if (pk.length < keys.length) {
    throw invalid(`primary key columns ${keys.slice(pk.length).map((k) => JSON.stringify(k)).join(', ')} are missing`, field);
  }
  if (pk.length > keys.length) throw invalid(`unexpected column values ${JSON.stringify(pk.slice(keys.length))}`, field);
  keys.forEach((k, i) => {
    const type = table.columns.find((c) => c.name === k)?.type.split('.').pop() ?? '';
    if (TEXT_TYPES.has(type) && typeof pk[i] !== 'string') {
      throw new ApiError('parse-failed', `value of column '${k}' in node id: parsing Text failed, expected String, but encountered ${jsonKind(pk[i])}`, 400, field);
    }
  });
  return { table, pk };
}
