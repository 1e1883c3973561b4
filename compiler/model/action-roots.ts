// Actions share the root types with the tables' fields: an action named like a generated root
// field (`insert_user` beside the table `user`) makes the schema invalid, whichever came first.
// Hasura finds it while building the admin schema and refuses the edit with 500 `unexpected`
// "found duplicate fields in selection set for mutation root: insert_user" (corpus:
// schema/duplication). Actions are not served yet, but their names already take these places.

import type { Json, RoleRoots } from '../../runtime/bundle/index.js';
import type { Issues } from './issues.js';

/** Reports every action whose name is a root field of the admin schema in the root type it would join. */
export function reportActionClashes(actions: readonly Json[] | undefined, admin: RoleRoots | undefined, issues: Issues): void {
  if (!actions || !admin) return;
  for (const a of actions) {
    if (a === null || typeof a !== 'object' || Array.isArray(a) || typeof a['name'] !== 'string') continue;
    const name = a['name'];
    const definition = a['definition'];
    const query = definition !== null && typeof definition === 'object' && !Array.isArray(definition) && definition['type'] === 'query';
    const taken = query ? admin.query[name] !== undefined : admin.mutation?.[name] !== undefined;
    if (!taken) continue;
    issues.add({ type: 'root_field', name, definition: { role: 'admin', field: name },
      reason: `found duplicate fields in selection set${query ? '' : ' for mutation root'}: ${name}` });
  }
}
