// The schema a role shows a trusted backend (Hasura v2, Note [Backend only permissions]): a
// `backend_only` permission's mutation fields exist only when the request is trusted (it carries
// the admin secret, or none is configured) and sends `x-svc-use-backend-only-permissions: true`;
// every other permission is the same in both schemas. Hasura builds a frontend and a backend
// context per role (GraphQL/Schema.hs `buildRoleContext`) and picks one per request
// (`BOFAAllowed -> fromMaybe frontend backend`).

import type { BundleModel, TableMutationPermissions } from './model.js';

/** True when the role holds a `backend_only` insert, update or delete permission. */
export function hasBackendOnly(perms: { readonly [id: string]: TableMutationPermissions } | undefined): boolean {
  return Object.values(perms ?? {}).some((p) => p.insert?.backendOnly === true || p.update?.backendOnly === true || p.delete?.backendOnly === true);
}

/** The role's permissions as a trusted backend request uses them: none of them backend only. */
export function trustedPermissions(perms: { readonly [id: string]: TableMutationPermissions }): { [id: string]: TableMutationPermissions } {
  return Object.fromEntries(Object.entries(perms).map(([id, p]) => [id, {
    ...(p.insert ? { insert: { ...p.insert, backendOnly: false } } : {}),
    ...(p.update ? { update: { ...p.update, backendOnly: false } } : {}),
    ...(p.delete ? { delete: { ...p.delete, backendOnly: false } } : {}),
  }]));
}

/**
 * The model as a trusted backend request of `role` is planned and its schema built: the role's
 * mutation_root is `backendOnlyMutation` and its permissions are all usable; null when the role
 * has no backend_only permission (its one schema serves both kinds of request).
 */
export function backendOnlyModel(model: BundleModel, role: string): BundleModel | null {
  const roots = model.roots[role];
  if (!roots?.backendOnlyMutation) return null;
  // The variant has no variant of its own: its root is the trusted one.
  const { backendOnlyMutation, ...rest } = roots;
  return {
    ...model,
    roots: { ...model.roots, [role]: { ...rest, mutation: backendOnlyMutation } },
    mutations: { ...model.mutations, [role]: trustedPermissions(model.mutations?.[role] ?? {}) },
  };
}
