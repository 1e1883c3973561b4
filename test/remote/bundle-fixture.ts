// The remote server and metadata of the bundle tests: a remote with a relationship target, a
// preset-able root field and a header echo, customized names, and a role permission.

export const SDL = `
  type Query { messages(user_id: Int!, limit: Int): [Message!]!  me(id: Int!): Profile  token: String }
  type Message { id: Int!  text: String! }
  type Profile { id: Int!  bio: String }`;
const MESSAGES = [{ id: 1, user_id: 1, text: 'hi' }, { id: 2, user_id: 1, text: 'again' }, { id: 3, user_id: 2, text: 'yo' }];
export const ROOT = {
  messages: ({ user_id, limit }: { user_id: number; limit?: number }) => MESSAGES.filter((m) => m.user_id === user_id).slice(0, limit ?? 100),
  me: ({ id }: { id: number }) => ({ id, bio: `bio of ${id}` }),
  // The configured header, as the remote received it: read from the environment at run time.
  token: (_a: unknown, ctx: { headers: Record<string, string> }) => ctx.headers['x-token'] ?? null,
};
// The role's subset, in the remote's own names: no `token`; `me` answers for the session's user.
export const USER_SCHEMA = `
  type Query { messages(user_id: Int!, limit: Int): [Message!]!  me(id: Int! @preset(value: "x-svc-user-id")): Profile }
  type Message { id: Int!  text: String! }
  type Profile { id: Int!  bio: String }`;

/** The metadata; with `otherSource`, a second source (`KILN_RBUNDLE_OTHER`) whose `badges` the users join (`to_source`). */
export function metadataOf(remoteUrl: string, otherSource = false): Record<string, unknown> {
  const badges = { name: 'badges', definition: { to_source: { relationship_type: 'array', source: 'other', table: { schema: 'public', name: 'badges' },
    field_mapping: { id: 'user_id' } } } };
  const other = {
    name: 'other', kind: 'postgres', configuration: { connection_info: { database_url: { from_env: 'KILN_RBUNDLE_OTHER' } } },
    tables: [{ table: { schema: 'public', name: 'badges' },
      select_permissions: [{ role: 'user', permission: { columns: ['label', 'user_id'], filter: { secret: { _eq: false } } } }] }],
  };
  return {
    version: 3,
    sources: [...(otherSource ? [other] : []), {
      name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: { from_env: 'KILN_RBUNDLE_DB' } } },
      tables: [{
        table: { schema: 'public', name: 'users' },
        select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Svc-User-Id' } } } }],
        remote_relationships: [{ name: 'messages', definition: { to_remote_schema: { remote_schema: 'forum', lhs_fields: ['id'],
          remote_field: { messages: { arguments: { user_id: '$id' } } } } } }, ...(otherSource ? [badges] : [])],
      }],
    }],
    remote_schemas: [{
      name: 'forum',
      definition: {
        url: remoteUrl, timeout_seconds: 10, forward_client_headers: false,
        headers: [{ name: 'x-token', value_from_env: 'KILN_RBUNDLE_TOKEN' }],
        customization: { type_names: { prefix: 'F_', mapping: {} }, field_names: [{ parent_type: 'Message', mapping: { text: 'body' } }] },
      },
      permissions: [{ role: 'user', definition: { schema: USER_SCHEMA } }],
    }],
  };
}
