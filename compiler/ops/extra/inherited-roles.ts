// Inherited roles: `add_inherited_role {role_name, role_set}` / `drop_inherited_role {role_name}`
// (Hasura.RQL.DDL.InheritedRoles). Stored as `{role_name, role_set}`.

import { ApiError, ArgsReader, asName, asNonEmpty } from '../../../runtime/errors/index.js';
import { roleCycleError } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { created, dropped, findBy, listOf, removeBy, withList } from './document.js';

const q = JSON.stringify;

/** AddInheritedRole: `{role_name, role_set}`, the set a non-empty list of role names. */
export function readInheritedRole(r: ArgsReader): { roleName: string; roleSet: string[] } {
  const roleName = r.name('role_name');
  const roleSet = asNonEmpty(r.required('role_set'), r.at('role_set')).map((x, i) => asName(x, [...r.at('role_set'), i]));
  return { roleName, roleSet };
}

export const addInheritedRole: OpHandler = (input) => {
  const { roleName, roleSet } = readInheritedRole(ArgsReader.args(input));
  if (roleSet.includes(roleName)) {
    throw new ApiError('invalid-params', 'an inherited role name cannot be in the role combination', 400, ['args']);
  }
  // Hasura inserts into the map of inherited roles: a role of that name is replaced where it stands.
  const list = listOf(input.metadata, 'inherited_roles');
  const role = { role_name: roleName, role_set: [...new Set(roleSet)] };
  const replaced = findBy(list, 'role_name', roleName) !== undefined;
  const roles = replaced ? list.map((r) => (r['role_name'] === roleName ? role : r)) : [...list, role];
  const cycle = roleCycleError(roles);
  if (cycle) throw cycle;
  const md = withList(input.metadata, 'inherited_roles', roles);
  return created(md, 'inherited_role', `inherited_role ${roleName}`);
};

export const dropInheritedRole: OpHandler = (input) => {
  const roleName = ArgsReader.args(input).name('role_name');
  const list = listOf(input.metadata, 'inherited_roles');
  if (findBy(list, 'role_name', roleName) === undefined) {
    throw new ApiError('not-exists', `${q(roleName)} inherited role doesn't exist`, 400, ['args']);
  }
  return dropped(withList(input.metadata, 'inherited_roles', removeBy(list, 'role_name', roleName)), false);
};
