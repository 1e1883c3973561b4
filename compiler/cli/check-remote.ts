// `kiln check --remote`: each remote schema of a bundle introspected again and compared with the
// schema the bundle was compiled with. What the bundle serves and the remote no longer has (a
// field, type, argument or enum value gone, a type changed, an argument made required), a remote
// relationship whose path is gone, and a role permission that is no longer a subset are drift: the
// served bundle would send calls the remote refuses. New fields are noted (a recompile serves them).

import { buildSchema, findBreakingChanges, findDangerousChanges, isObjectType, type GraphQLSchema } from 'graphql';
import {
  introspectRemote, remoteDefinitions, remoteRelationshipProblem, remoteView, restricted, type RemoteDefinition,
} from '../../runtime/remote/index.js';
import { tableLabel } from '../emit/index.js';
import type { BundleDir } from './bundle-dir.js';
import { remoteWhere } from './remote-schemas.js';

/** What comparing a bundle's remote schemas with the live servers found; problems fail the check. */
export interface RemoteCheck {
  /** Remote schemas compared with their live server. */
  readonly checked: number;
  readonly problems: readonly string[];
  /** Changes that do not break the bundle (fields added, defaults changed...). */
  readonly notes: readonly string[];
}

/** The remote schemas of a bundle against their servers now (URLs and headers from this environment). */
export async function checkRemotes(b: BundleDir): Promise<RemoteCheck> {
  const entries = (b.manifest['remoteSchemas'] ?? {}) as { readonly [name: string]: { readonly file: string } };
  const defs = remoteDefinitions({ remote_schemas: b.model.remoteSchemas ?? [] });
  const results = await Promise.all(defs.map((def) => checkOne(b, def, entries[def.name]?.file)));
  return {
    checked: results.filter((r) => r.compared).length,
    problems: results.flatMap((r) => r.problems),
    notes: results.flatMap((r) => r.notes),
  };
}

async function checkOne(b: BundleDir, def: RemoteDefinition, file: string | undefined): Promise<{ compared: boolean; problems: string[]; notes: string[] }> {
  const label = `remote schema "${def.name}"`;
  const text = file === undefined ? undefined : b.stored.get(file);
  if (text === undefined) {
    return { compared: false, notes: [], problems: [`${label}: the bundle holds no schema for it (${file ?? 'not in manifest.json remoteSchemas'}); it is not served — recompile with the remote server up`] };
  }
  let bundled: GraphQLSchema;
  try {
    bundled = buildSchema(text);
  } catch (e) {
    return { compared: false, notes: [], problems: [`${label}: ${file} is not a schema: ${(e as Error).message}`] };
  }
  const live = await introspectRemote(def);
  if (live.kind === 'failed') return { compared: false, notes: [], problems: [`${label} (${remoteWhere(def)}): cannot introspect it: ${live.reason}`] };
  const problems = findBreakingChanges(bundled, live.schema).map((c) => `${label}: ${c.description} (the bundle serves it)`);
  const notes = findDangerousChanges(bundled, live.schema).map((c) => `${label}: ${c.description}`);
  notes.push(...addedFields(bundled, live.schema).map((f) => `${label}: ${f} is new in the remote (not served until recompiled)`));
  // What the bundle itself depends on, named: its relationships' paths and each role's permission.
  const view = remoteView(def, live.schema);
  for (const t of Object.values(b.model.tables)) {
    for (const rel of t.remoteRelationships ?? []) {
      if (rel.kind !== 'remote_schema' || rel.remoteSchema !== def.name) continue;
      const problem = remoteRelationshipProblem(rel, view, t);
      if (problem !== null) problems.push(`${label}: remote relationship ${rel.name} of table ${tableLabel(b.model, t.id)}: ${problem}`);
    }
  }
  for (const p of def.permissions) {
    const r = restricted(p.schema, live.schema);
    if (typeof r === 'string') problems.push(`${label}: the permission of role ${p.role} no longer fits: ${r}`);
  }
  return { compared: true, problems, notes };
}

// Fields of object types the bundle's schema has, that the live schema has more of (and new object types).
function addedFields(bundled: GraphQLSchema, live: GraphQLSchema): string[] {
  const out: string[] = [];
  for (const t of Object.values(live.getTypeMap())) {
    if (t.name.startsWith('__') || !isObjectType(t)) continue;
    const old = bundled.getType(t.name);
    if (!old) { out.push(`type ${t.name}`); continue; }
    if (!isObjectType(old)) continue;
    for (const f of Object.keys(t.getFields())) if (!(f in old.getFields())) out.push(`${t.name}.${f}`);
  }
  return out;
}
