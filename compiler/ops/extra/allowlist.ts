// The allow-list: collections whose queries non-admin roles may run, each with a scope
// (Hasura.RQL.DDL.QueryCollection and Hasura.RQL.Types.Allowlist). Stored as
// `{collection, scope: {global: true} | {global: false, roles: [...]}}`.

import { ApiError, ArgsReader, asBool, asName, asNonEmpty, type JsonObject } from '../../../runtime/errors/index.js';
import type { Json } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { changed, findBy, listOf, removeBy, upsert, withList } from './document.js';
import { requireCollection } from './query-collections.js';

const q = JSON.stringify;
const GLOBAL: JsonObject = { global: true };

/**
 * AllowlistScope: `{global: true}` or `{global: false, roles: [role, ...]}` (non-empty, no
 * duplicates). Hasura's parser is written by hand with `.:` (RQL/Types/Allowlist.hs), so a missing
 * `global` or `roles` is aeson's `key "global" not found`, not the derived parsers' wording.
 */
export function readScope(r: ArgsReader): JsonObject {
  const global = asBool(r.field('global'), r.at('global'));
  if (global) {
    if (r.has('roles')) r.fail('roles are not allowed when global is true');
    return GLOBAL;
  }
  const roles = asNonEmpty(r.field('roles'), r.at('roles')).map((x, i) => asName(x, [...r.at('roles'), i]));
  if (new Set(roles).size !== roles.length) r.fail('duplicate roles are not allowed');
  return { global: false, roles };
}

export const addCollectionToAllowlist: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const collection = r.name('collection');
  // /v1/query takes only `collection` (spec part-b 4.12); the scope is always global there.
  const scopeReader = input.api === 'metadata' ? r.optObject('scope') : undefined;
  const scope = scopeReader === undefined ? GLOBAL : readScope(scopeReader);
  requireCollection(input.metadata, collection, ['args', 'collection']);
  const list = listOf(input.metadata, 'allowlist');
  if (findBy(list, 'collection', collection) !== undefined) {
    // Listed already: nothing changes whatever the scope (spec part-a section 3).
    return { metadata: null, effect: { kind: 'other' }, result: {
      message: `collection ${q(collection)} already exists in the allowlist, scope ignored;`
        + ' to change scope, use update_scope_of_collection_in_allowlist',
    } };
  }
  const entry: Json = { collection, scope };
  // A rebuild checked for new inconsistencies, as Hasura's runAddCollectionToAllowlist.
  return { metadata: withList(input.metadata, 'allowlist', [...list, entry]), effect: { kind: 'rebuild' } };
};

// Hasura's parser of this operation (later than add's derived one) is written by hand with `.:`:
// a missing `collection` or `scope` is aeson's `key "scope" not found`.
export const updateScopeOfCollectionInAllowlist: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const collection = asName(r.field('collection'), r.at('collection'));
  const scope = readScope(ArgsReader.object(r.field('scope'), r.at('scope')));
  requireCollection(input.metadata, collection, ['args', 'collection']);
  const list = listOf(input.metadata, 'allowlist');
  if (findBy(list, 'collection', collection) === undefined) {
    throw new ApiError('not-found', `collection ${q(collection)} doesn't exist in the allowlist`, 400, ['args']);
  }
  return changed(withList(input.metadata, 'allowlist', upsert(list, 'collection', collection, { collection, scope })));
};

export const dropCollectionFromAllowlist: OpHandler = (input) => {
  const r = ArgsReader.args(input);
  const collection = r.name('collection');
  requireCollection(input.metadata, collection, ['args', 'collection']);
  const list = listOf(input.metadata, 'allowlist');
  if (findBy(list, 'collection', collection) === undefined) {
    throw new ApiError('not-found', `collection ${q(collection)} doesn't exist in the allowlist`, 400, ['args']);
  }
  return { metadata: withList(input.metadata, 'allowlist', removeBy(list, 'collection', collection)), effect: { kind: 'drop', cascade: false } };
};
