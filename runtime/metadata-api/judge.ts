// What an edit did to the rest of the metadata. After every edit the document is compiled again;
// objects that are inconsistent now and were not before are the edit's doing, and how they are
// treated depends on the edit (contract.ts, `Effect`): a create whose object does not fit fails
// with the object's reasons, a drop lists its dependents (or, with cascade, drops them too), and
// run_sql drops what vanished from the database and treats what hung off it as dependents.

import type { Json } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { hashMapOrder } from '../graphql/index.js';
import type { Compiled, Effect, InconsistentObject, MetadataCompiler } from './contract.js';

/** An edit's effect, or run_sql's (objects whose table or function vanished are dropped). */
export type Judgement = Effect | { readonly kind: 'sql'; readonly cascade: boolean };

const key = (o: Pick<InconsistentObject, 'type' | 'name'>): string => `${o.type}\u0000${o.name}`;

const INHERITED = 'inherited role permission inconsistency';

const ROLE_SCHEMA_FAILED = 'validation for the given role-based schema failed';

/** Types whose inconsistency means the database object itself is gone (run_sql drops them silently). */
const VANISHED = new Set(['table', 'function']);

/** Dependents Hasura's dependency tracker knows: they block a drop unless it cascades. */
const TRACKED_DEPENDENTS = new Set(['object_relation', 'array_relation', 'select_permission', 'insert_permission',
  'update_permission', 'delete_permission', 'computed_field', 'remote_relationship', 'remote_schema_remote_relationship', 'event_trigger', 'function']);

// Cascades can uncover more dependents (a permission on a relationship of a dropped table);
// a handful of rounds reaches the end for any real document.
const MAX_ROUNDS = 8;

/**
 * The error of clashing root fields. Hasura's schema build stops at the first selection set (root
 * type of a role) with duplicate fields and names them all in one message, in the order of its
 * HashSet of names (safeSelectionSet): one message for that root, not one per field.
 */
function clashMessage(clashes: readonly InconsistentObject[]): string {
  const rootOf = (o: InconsistentObject): { readonly root: string; readonly field: string } => {
    const at = o.reason.lastIndexOf(': ');
    // A clash of the subscription root's own fields (`<t>_stream`) is in another selection set.
    const d = o.type !== INHERITED && typeof o.definition === 'object' && o.definition !== null && !Array.isArray(o.definition) ? o.definition : {};
    return { root: `${String(d['role'] ?? '')} ${String(d['root'] ?? '')}\u0000${o.reason.slice(0, at)}`, field: o.reason.slice(at + 2) };
  };
  const first = rootOf(clashes[0]!).root;
  const fields = [...new Set(clashes.map(rootOf).filter((c) => c.root === first).map((c) => c.field))];
  return `${first.slice(first.indexOf('\u0000') + 1)}: ${hashMapOrder(fields).join(', ')}`;
}

/** Hasura's `withNewInconsistentObjsCheck` refusal, the new objects in `internal`. */
function newlyFound(objects: readonly InconsistentObject[]): ApiError {
  return new ApiError('unexpected', 'cannot continue due to newly found inconsistent metadata', 500, ['args'], objects as unknown as Json);
}

/** Checks an edited document; returns it (cascades applied) compiled, or throws the edit's error. */
export async function judgeEdit(compiler: Pick<MetadataCompiler, 'dropObjects' | 'describe'>, before: readonly InconsistentObject[],
  metadata: Json, effect: Judgement, compile: (md: Json) => Compiled | Promise<Compiled>): Promise<{ metadata: Json; compiled: Compiled }> {
  const known = new Set(before.map(key));
  let md = metadata;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const compiled = await compile(md);
    // An inherited role's permission its parents disagree on is listed, never blocking (Hasura).
    const fresh = compiled.inconsistencies.filter((o) => !known.has(key(o)) && o.type !== INHERITED);
    if (fresh.length === 0) return { metadata: md, compiled };
    switch (effect.kind) {
      case 'create':
      case 'other': {
        const target = effect.kind === 'create' && effect.object ? fresh.filter((o) => key(o) === key(effect.object!)) : [];
        if (target.length > 0) {
          // Hasura checks a role's remote schema document in the operation itself
          // (resolveRoleBasedRemoteSchema): its own code, no inconsistent object in `internal`.
          if (target.length === 1 && target[0]!.type === 'remote_schema_permission' && target[0]!.reason.startsWith(ROLE_SCHEMA_FAILED)) {
            throw new ApiError('invalid-role-based-remote-schema', target[0]!.reason, 400, ['args']);
          }
          throw new ApiError('invalid-configuration', target.map((o) => o.reason).join(', '), 400, ['args'], target as unknown as Json);
        }
        if (fresh.every((o) => o.type === 'root_field')) {
          // Hasura finds clashing root fields while building the schema, not as inconsistent objects.
          throw new ApiError('unexpected', clashMessage(fresh), 500, ['args']);
        }
        throw new ApiError('unexpected', 'cannot continue due to new inconsistent metadata', 400, ['args'], fresh as unknown as Json);
      }
      case 'rebuild':
        // Hasura's withNewInconsistentObjsCheck around buildSchemaCache (RQL/DDL/QueryCollection.hs).
        throw newlyFound(fresh);
      case 'drop':
      case 'sql': {
        // Objects the dependency tracker knows block a drop (or go with it under cascade); any
        // other object the drop broke (a query collection's query, say) stops it.
        const vanished = effect.kind === 'sql' ? fresh.filter((o) => VANISHED.has(o.type) && /no such (table|function)/.test(o.reason)) : [];
        const dependents = fresh.filter((o) => !vanished.includes(o) && TRACKED_DEPENDENTS.has(o.type));
        const others = fresh.filter((o) => !vanished.includes(o) && !dependents.includes(o));
        if (dependents.length > 0 && !effect.cascade) {
          // Listed sorted by their text, as Hasura's `reportSchemaObjs` lists them.
          const names = [...new Set(dependents.map((o) => compiler.describe(o)))].sort();
          throw new ApiError('dependency-error', `cannot drop due to the following dependent objects : ${names.join(', ')}`, 400, ['args']);
        }
        if (others.length > 0) throw newlyFound(others);
        md = compiler.dropObjects(md, fresh);
        break;
      }
    }
  }
  throw new ApiError('unexpected', 'the metadata did not settle after dropping dependent objects; drop them one by one', 500, ['args']);
}
