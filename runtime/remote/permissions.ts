// Remote schema permissions (part A 2.7; SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS): a role's
// schema text is a subset of the remote schema; the role sees that subset only. A permission that
// names a type, field, argument or value the remote does not have is inconsistent.

import { buildASTSchema, isInputObjectType, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Json } from '../bundle/index.js';
import type { RemoteInconsistency } from './definition.js';
import { takePresets, type Presets } from './presets.js';
import { roleSchemaMessage, roleSchemaReasons } from './role-schema-check.js';
import { remoteView, type RemoteView } from './view.js';

const PRESET_DIRECTIVE = 'directive @preset(value: String, static: Boolean) on INPUT_FIELD_DEFINITION | ARGUMENT_DEFINITION';

/** Each role's views of the remotes it has a permission on (roles without one see none). */
export function roleViews(views: readonly RemoteView[], inconsistencies: RemoteInconsistency[]): Map<string, RemoteView[]> {
  const out = new Map<string, RemoteView[]>();
  for (const v of views) {
    for (const p of v.def.permissions) {
      const problem = restricted(p.schema, v.schema);
      if (typeof problem === 'string') {
        inconsistencies.push({ type: 'remote_schema_permission', name: `remote_schema_permission ${p.role} permission in remote schema ${v.def.name}`,
          definition: { remote_schema: v.def.name, role: p.role, definition: { schema: p.schema } } as Json, reason: problem });
        continue;
      }
      out.set(p.role, [...(out.get(p.role) ?? []), remoteView(v.def, problem.schema, problem.presets)]);
    }
  }
  return out;
}

/** The role's schema, checked against the remote's; a string is the first problem found. */
export function restricted(text: string, remote: GraphQLSchema): { schema: GraphQLSchema; presets: Presets } | string {
  let parsed: DocumentNode;
  try {
    parsed = parse(`${PRESET_DIRECTIVE}\n${text}`, { noLocation: true });
  } catch (e) {
    return `invalid permission schema: ${e instanceof Error ? e.message : String(e)}`;
  }
  // Hasura's subset rules and words first (role-schema-check.ts); then the role's schema is built.
  const reasons = roleSchemaReasons(parsed, remote);
  if (reasons.length > 0) return roleSchemaMessage(reasons);
  const { doc, presets } = takePresets(parsed);
  let schema: GraphQLSchema;
  try {
    schema = buildASTSchema(doc);
  } catch (e) {
    return `invalid permission schema: ${e instanceof Error ? e.message : String(e)}`;
  }
  const problems: string[] = [];
  const roots = [['query', schema.getQueryType(), remote.getQueryType()], ['mutation', schema.getMutationType(), remote.getMutationType()]] as const;
  for (const [op, mine, theirs] of roots) {
    if (mine && theirs && mine.name !== theirs.name) problems.push(`the ${op} root ${JSON.stringify(mine.name)} is not the remote schema's ${JSON.stringify(theirs.name)}`);
  }
  for (const [key, args] of presets.args) {
    const [type, field] = key.split('.') as [string, string];
    const f = (remote.getType(type) as { getFields?: () => Record<string, { args?: readonly { name: string }[] }> } | undefined)?.getFields?.()[field];
    for (const a of args.keys()) if (!f?.args?.some((x) => x.name === a)) problems.push(`argument ${JSON.stringify(a)} of field ${JSON.stringify(field)} of ${JSON.stringify(type)} does not exist in the remote schema`);
  }
  for (const [type, fields] of presets.inputFields) {
    const t = remote.getType(type);
    for (const f of fields.keys()) if (!t || !isInputObjectType(t) || !t.getFields()[f]) problems.push(`input field ${JSON.stringify(f)} of ${JSON.stringify(type)} does not exist in the remote schema`);
  }
  return problems.length > 0 ? problems.join(', ') : { schema, presets };
}
