// The remote schemas of a document made servable: each remote's introspection (fetched once per
// definition, again on reload), and the RemoteServing built from them, with the remotes that are
// down or clash reported as inconsistent objects in Hasura's shape.

import { getNamedType, isLeafType, isObjectType } from 'graphql';
import type { BundleModel, Json } from '../bundle/index.js';
import type { SchemaJoin } from './schema-joins.js';
import { remoteRelationshipProblem } from './relationship-fields.js';
import { remoteDefinitions, type RemoteDefinition, type RemoteInconsistency } from './definition.js';
import { introspectRemote, type RemoteSnapshot } from './introspect.js';
import { RemoteServing } from './serving.js';
import { stitchSdl } from './stitch.js';
import { remoteView, type RemoteView } from './view.js';
import { roleViews } from './permissions.js';


/** Introspections by remote name, kept across compiles: a definition is fetched once until reloaded. */
export class RemoteIntrospections {
  private readonly cache = new Map<string, RemoteSnapshot>();

  /**
   * Introspects the remotes of `metadata` that have no snapshot for their current definition, and
   * those in `force` (true: all). Answers the snapshots of the remotes fetched now.
   */
  async refresh(metadata: Json, force: boolean | ReadonlySet<string> = false): Promise<Map<string, RemoteSnapshot>> {
    const fetched = new Map<string, RemoteSnapshot>();
    const defs = remoteDefinitions(metadata);
    for (const name of [...this.cache.keys()]) if (!defs.some((d) => d.name === name)) this.cache.delete(name);
    await Promise.all(defs.map(async (def) => {
      const have = this.cache.get(def.name);
      const forced = force === true || (force !== false && force.has(def.name));
      if (have && have.def.key === def.key && !forced) return;
      const snap = await introspectRemote(def);
      this.cache.set(def.name, snap);
      fetched.set(def.name, snap);
    }));
    return fetched;
  }

  /** Keeps a snapshot made elsewhere (a bundle's, read from its file) as this remote's introspection. */
  put(snap: RemoteSnapshot): void {
    this.cache.set(snap.def.name, snap);
  }

  /** The snapshot for this definition (undefined: not fetched for it). */
  get(def: RemoteDefinition): RemoteSnapshot | undefined {
    const s = this.cache.get(def.name);
    return s && s.def.key === def.key ? s : undefined;
  }
}

function rawEntry(metadata: Json, name: string): Json {
  const list = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata['remote_schemas'] : null;
  return (Array.isArray(list) ? list : []).find((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && x['name'] === name) ?? null;
}

/**
 * The remotes of `metadata` against the admin's schema text: what serves, and what is inconsistent
 * (down, invalid, or clashing with a table's root field or type, or with another remote).
 */
export function serveRemotes(metadata: Json, snapshots: RemoteIntrospections, adminSdl: string, model: BundleModel, permissionsEnabled: boolean):
  { serving: RemoteServing; inconsistencies: RemoteInconsistency[] } {
  const inconsistencies: RemoteInconsistency[] = [];
  const views: RemoteView[] = [];
  const bad = (def: RemoteDefinition, reason: string): void => {
    // Hasura's imReason: an inconsistent object's reason starts `Inconsistent object: `.
    inconsistencies.push({ type: 'remote_schema', name: `remote_schema ${def.name}`, definition: rawEntry(metadata, def.name), reason: `Inconsistent object: ${reason}` });
  };
  for (const def of remoteDefinitions(metadata)) {
    const snap = snapshots.get(def);
    if (!snap) { bad(def, `remote schema ${JSON.stringify(def.name)} has not been introspected`); continue; }
    if (snap.kind === 'failed') { bad(def, snap.reason); continue; }
    let view: RemoteView;
    try {
      view = remoteView(def, snap.schema);
    } catch (e) {
      bad(def, `invalid remote schema: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const { conflicts } = stitchSdl(adminSdl, [...views, view]);
    const mine = conflicts.find((c) => c.remote === def.name);
    if (mine?.kind === 'type') { bad(def, mine.reason); continue; }
    if (mine?.kind === 'root') {
      for (const f of mine.fields) {
        inconsistencies.push({ type: 'root_field', name: f.name, definition: { role: 'admin', field: f.name },
          reason: `found duplicate fields in selection set${f.mutation ? ' for mutation root' : ''}: ${f.name}` });
      }
      continue;
    }
    views.push(view);
  }
  for (const t of Object.values(model.tables)) {
    for (const rel of t.remoteRelationships ?? []) {
      const problem = remoteRelationshipProblem(rel, rel.kind === 'remote_schema' ? views.find((v) => v.def.name === rel.remoteSchema) : undefined, t);
      if (problem === null) continue;
      inconsistencies.push({ type: 'remote_relationship', name: `remote_relationship ${rel.name} in table ${t.schema === 'public' ? t.name : `${t.schema}.${t.name}`} in source ${t.source}`,
        definition: { name: rel.name, source: t.source, table: { schema: t.schema, name: t.name } }, reason: `Inconsistent object: ${problem}` });
    }
  }
  const joins = schemaJoins(metadata, views, model, inconsistencies);
  const perRole = permissionsEnabled ? roleViews(views, inconsistencies) : null;
  return { serving: new RemoteServing(views, perRole, model, joins), inconsistencies };
}

// The relationships from the remotes' types that fit: the type is an object type of the remote
// with every join field, a scalar each, and the name is free; a table target is tracked with every
// mapped column; a remote target serves, has the field path, and its `$field` arguments name join fields.
function schemaJoins(metadata: Json, views: readonly RemoteView[], model: BundleModel, inconsistencies: RemoteInconsistency[]): SchemaJoin[] {
  const out: SchemaJoin[] = [];
  for (const def of remoteDefinitions(metadata)) {
    const view = views.find((v) => v.def.name === def.name);
    for (const rel of def.relationships) {
      const bad = (reason: string): void => {
        inconsistencies.push({ type: 'remote_schema_remote_relationship', name: `remote_schema_remote_relationship ${rel.name} on type ${rel.typeName} in remote schema ${def.name}`,
          definition: { remote_schema: def.name, type_name: rel.typeName, name: rel.name } as Json, reason: `Inconsistent object: ${reason}` });
      };
      if (!view) { bad(`remote schema ${JSON.stringify(def.name)} is not consistent`); continue; }
      const type = view.schema.getType(rel.typeName);
      if (!type || !isObjectType(type)) { bad(`object type ${JSON.stringify(rel.typeName)} does not exist in remote schema ${JSON.stringify(def.name)}`); continue; }
      const fields = type.getFields();
      if (rel.name in fields) { bad(`field with name ${JSON.stringify(rel.name)} already exists in type ${JSON.stringify(rel.typeName)}`); continue; }
      const joinFields = rel.kind === 'source' ? rel.mapping.map(([f]) => f) : rel.lhsFields;
      const missing = joinFields.find((f) => !(f in fields));
      if (missing !== undefined) { bad(`field ${JSON.stringify(missing)} does not exist in type ${JSON.stringify(rel.typeName)}`); continue; }
      const nonScalar = joinFields.find((f) => !isLeafType(getNamedType(fields[f]!.type)));
      if (nonScalar !== undefined) { bad(`field ${JSON.stringify(nonScalar)} of type ${JSON.stringify(rel.typeName)} is not a scalar`); continue; }
      if (rel.kind === 'remote_schema') {
        const problem = remoteTargetProblem(rel.remoteSchema, rel.remoteField, rel.lhsFields, views.find((v) => v.def.name === rel.remoteSchema));
        if (problem !== null) { bad(problem); continue; }
        out.push({ kind: 'remote_schema', remote: def.name, typeName: rel.typeName, name: rel.name, remoteSchema: rel.remoteSchema,
          lhsFields: rel.lhsFields, remoteField: rel.remoteField });
        continue;
      }
      const table = Object.values(model.tables).find((t) => t.source === rel.source && t.schema === rel.table.schema && t.name === rel.table.name);
      if (!table) { bad(`table ${JSON.stringify(rel.table.name)} is not tracked in source ${JSON.stringify(rel.source)}`); continue; }
      const col = rel.mapping.find(([, c]) => !table.columns.some((x) => x.name === c));
      if (col) { bad(`column ${JSON.stringify(col[1])} does not exist in table ${JSON.stringify(table.name)}`); continue; }
      out.push({ kind: 'source', remote: def.name, typeName: rel.typeName, name: rel.name, target: table.id, cardinality: rel.cardinality, mapping: rel.mapping });
    }
  }
  return out;
}

// Why a call of another remote cannot be served: the remote is missing or down, the field path is
// not in it, or an argument names a `$field` that is not among the join fields.
function remoteTargetProblem(remoteSchema: string, remoteField: Json, lhsFields: readonly string[], target: RemoteView | undefined): string | null {
  const problem = remoteRelationshipProblem({ kind: 'remote_schema', name: '', remoteSchema, lhsColumns: lhsFields, remoteField }, target);
  if (problem !== null) return problem;
  const unknown = fieldReferences(remoteField).find((f) => !lhsFields.includes(f));
  return unknown === undefined ? null : `the argument value ${JSON.stringify(`$${unknown}`)} names a field that is not in lhs_fields`;
}

// The `$field` strings in the arguments of a `remote_field` tree.
function fieldReferences(v: Json): string[] {
  if (typeof v === 'string') return v.startsWith('$') ? [v.slice(1)] : [];
  if (Array.isArray(v)) return v.flatMap(fieldReferences);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(fieldReferences);
  return [];
}
