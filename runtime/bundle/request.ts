/** A GraphQL request body (one element of a batch). */
export interface GraphQLRequest {
  readonly query: string;
  readonly variables?: { readonly [k: string]: unknown } | null;
  readonly operationName?: string | null;
}

/** Who is asking: the resolved role and the `x-svc-*` session variables (keys lower-case). */
export interface Session {
  readonly role: string;
  readonly variables: { readonly [k: string]: string };
  /** True when the request carried a valid admin secret (or none is configured). */
  readonly isAdmin: boolean;
  /**
   * True when a trusted request (admin secret sent, or none configured) sent
   * `x-svc-use-backend-only-permissions: true`: the role's backend_only permissions apply.
   */
  readonly backendOnly?: boolean;
}
