// Remote schema permissions (part A 2.7; SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS): a role's
// schema text is a subset of the remote schema; the role sees that subset only. A permission that
// names a type, field, argument or value the remote does not have is inconsistent.

import {
  buildASTSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType, isUnionType,
  parse, type DocumentNode, type GraphQLNamedType, type GraphQLSchema,
} from 'graphql';
import type { Json } from '../bundle/index.js';
import type { RemoteInconsistency } from './definition.js';
import { takePresets, type Presets } from './presets.js';
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
  const { doc, presets } = takePresets(parsed);
  let schema: GraphQLSchema;
  try {
    schema = buildASTSchema(doc);
  } catch (e) {
    return `invalid permission schema: ${e instanceof Error ? e.message : String(e)}`;
  }
  const problems: string[] = [];
  for (const t of Object.values(schema.getTypeMap())) {
    if (t.name.startsWith('__') || ['Int', 'Float', 'String', 'Boolean', 'ID'].includes(t.name)) continue;
    const r = remote.getType(t.name);
    if (!r) { problems.push(`type ${JSON.stringify(t.name)} does not exist in the remote schema`); continue; }
    problems.push(...subsetProblems(t, r));
  }
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

function subsetProblems(t: GraphQLNamedType, r: GraphQLNamedType): string[] {
  const kindOf = (x: GraphQLNamedType): string => (isObjectType(x) ? 'object' : isInterfaceType(x) ? 'interface' : isUnionType(x) ? 'union'
    : isEnumType(x) ? 'enum' : isInputObjectType(x) ? 'input object' : 'scalar');
  if (kindOf(t) !== kindOf(r)) return [`type ${JSON.stringify(t.name)} is a ${kindOf(t)} here but a ${kindOf(r)} in the remote schema`];
  if (isScalarType(t)) return [];
  if (isEnumType(t) && isEnumType(r)) {
    return t.getValues().filter((v) => !r.getValue(v.name)).map((v) => `enum value ${JSON.stringify(v.name)} of ${JSON.stringify(t.name)} does not exist in the remote schema`);
  }
  if (isUnionType(t) && isUnionType(r)) {
    const have = new Set(r.getTypes().map((x) => x.name));
    return t.getTypes().filter((x) => !have.has(x.name)).map((x) => `type ${JSON.stringify(x.name)} is not a member of union ${JSON.stringify(t.name)} in the remote schema`);
  }
  if ((isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)) && (isObjectType(r) || isInterfaceType(r) || isInputObjectType(r))) {
    const theirs = r.getFields() as Record<string, { type: unknown; args?: readonly { name: string; type: unknown }[] }>;
    const out: string[] = [];
    for (const [name, f] of Object.entries(t.getFields())) {
      const rf = theirs[name];
      if (!rf) { out.push(`field ${JSON.stringify(name)} of ${JSON.stringify(t.name)} does not exist in the remote schema`); continue; }
      if (String(f.type) !== String(rf.type)) out.push(`field ${JSON.stringify(name)} of ${JSON.stringify(t.name)} has type ${String(f.type)}, the remote schema ${String(rf.type)}`);
      for (const a of 'args' in f ? f.args : []) {
        const ra = rf.args?.find((x) => x.name === a.name);
        if (!ra) out.push(`argument ${JSON.stringify(a.name)} of field ${JSON.stringify(name)} of ${JSON.stringify(t.name)} does not exist in the remote schema`);
        else if (String(a.type) !== String(ra.type)) out.push(`argument ${JSON.stringify(a.name)} of field ${JSON.stringify(name)} has type ${String(a.type)}, the remote schema ${String(ra.type)}`);
      }
    }
    return out;
  }
  return [];
}
