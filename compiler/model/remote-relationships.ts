// Remote relationships of tables (part A 2.8, reference/remote.md §4): to a remote schema (its
// join columns must be columns of the table and the remote schema must be in the metadata) or to
// a table of another source (the target must be tracked and the mapped columns must exist). What
// does not fit is an inconsistent `remote_relationship`. The remote schema's own fields are
// checked when it is stitched (runtime/remote), where its introspection is.

import type { Json, RemoteRelationshipModel, TableModel } from '../../runtime/bundle/index.js';
import type { Metadata, QualifiedTable } from '../metadata/index.js';
import type { Issues } from './issues.js';
import { tableChildName, qualifiedText } from './names.js';
import { tableId } from './tables.js';

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function qualified(v: Json | undefined): QualifiedTable | null {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (isObj(v) && typeof v['name'] === 'string') return { schema: typeof v['schema'] === 'string' ? v['schema'] : 'public', name: v['name'] };
  return null;
}

/** The stored definition in its new form: `{to_remote_schema}` or `{to_source}` (the legacy `hasura_fields` form read as the first). */
export function remoteRelationshipTarget(def: Json | undefined): { kind: 'remote_schema'; value: Obj } | { kind: 'source'; value: Obj } | null {
  if (!isObj(def)) return null;
  if (isObj(def['to_source'])) return { kind: 'source', value: def['to_source'] };
  if (isObj(def['to_remote_schema'])) return { kind: 'remote_schema', value: def['to_remote_schema'] };
  if (typeof def['remote_schema'] === 'string') {
    return { kind: 'remote_schema', value: { remote_schema: def['remote_schema'], lhs_fields: def['hasura_fields'] ?? [], remote_field: def['remote_field'] ?? null } };
  }
  return null;
}

/** Adds each table's remote relationships to the model (tables of every source are known by now). */
export function resolveRemoteRelationships(md: Metadata, tables: Map<string, TableModel>, issues: Issues): void {
  const remotes = new Set((md.remote_schemas ?? []).flatMap((r) => (isObj(r) && typeof r['name'] === 'string' ? [r['name']] : [])));
  for (const source of md.sources) {
    for (const entry of source.tables) {
      const t = tables.get(tableId(source.name, entry.table.schema, entry.table.name));
      if (!t || !entry.remote_relationships?.length) continue;
      const out: RemoteRelationshipModel[] = [];
      for (const raw of entry.remote_relationships) {
        if (!isObj(raw) || typeof raw['name'] !== 'string') continue;
        const name = raw['name'];
        const fail = (reason: string): void => issues.add({ type: 'remote_relationship', name: tableChildName('remote_relationship', name, source.name, entry.table),
          definition: { name, source: source.name, table: { ...entry.table }, definition: raw['definition'] ?? null } as Json, reason });
        const r = resolveOne(name, raw['definition'], t, tables, remotes);
        if (typeof r === 'string') fail(r);
        else out.push(r);
      }
      if (out.length > 0) tables.set(t.id, { ...t, remoteRelationships: out });
    }
  }
}

function resolveOne(name: string, def: Json | undefined, t: TableModel, tables: ReadonlyMap<string, TableModel>, remotes: ReadonlySet<string>): RemoteRelationshipModel | string {
  if (t.columns.some((c) => c.field === name) || t.relationships.some((r) => r.name === name) || t.computedFields.some((c) => c.name === name)) {
    return `field with name ${JSON.stringify(name)} already exists in table ${JSON.stringify(qualifiedText(t))}`;
  }
  const target = remoteRelationshipTarget(def);
  if (!target) return 'a remote relationship needs "to_remote_schema" or "to_source"';
  const hasColumn = (c: Json): boolean => typeof c === 'string' && t.columns.some((x) => x.name === c);
  if (target.kind === 'remote_schema') {
    const v = target.value;
    const remote = v['remote_schema'];
    if (typeof remote !== 'string' || !remotes.has(remote)) return `remote schema with name ${JSON.stringify(remote)} does not exist`;
    const lhs = Array.isArray(v['lhs_fields']) ? v['lhs_fields'] : [];
    // Join fields are columns or scalar computed fields taking no argument but the row and the
    // session (Hasura's RQL/DDL/RemoteRelationship/Validate.hs, in its words).
    for (const f of lhs) {
      if (hasColumn(f)) continue;
      const cf = typeof f === 'string' ? t.computedFields.find((c) => c.name === f) : undefined;
      if (!cf) return `field with name ${JSON.stringify(f)} not found in table ${JSON.stringify(qualifiedText(t))}`;
      if (cf.returns.kind !== 'scalar') {
        const target = tables.get(cf.returns.table);
        return `computed field ${JSON.stringify(f)} returns set of ${JSON.stringify(target ? qualifiedText(target) : cf.returns.table)}, is not supported`;
      }
      if (cf.args.length > 0) return `computed field ${JSON.stringify(f)} is associated with SQL function ${JSON.stringify(cf.function.schema === 'public' ? cf.function.name : `${cf.function.schema}.${cf.function.name}`)} has input arguments other than table row type and hasura session`;
    }
    if (!isObj(v['remote_field'])) return 'remote_field must be an object';
    return { kind: 'remote_schema', name, remoteSchema: remote, lhsColumns: lhs as string[], remoteField: v['remote_field'] };
  }
  const v = target.value;
  const source = typeof v['source'] === 'string' ? v['source'] : 'default';
  const table = qualified(v['table']);
  const targetModel = table ? tables.get(tableId(source, table.schema, table.name)) : undefined;
  if (!table || !targetModel) return `table ${JSON.stringify(table?.name ?? null)} is not tracked in source ${JSON.stringify(source)}`;
  const mapping = isObj(v['field_mapping']) ? Object.entries(v['field_mapping']) : [];
  if (mapping.length === 0) return 'field_mapping must map at least one column';
  for (const [from, to] of mapping) {
    if (!hasColumn(from)) return `column ${JSON.stringify(from)} does not exist in table ${JSON.stringify(t.name)}`;
    if (typeof to !== 'string' || !targetModel.columns.some((c) => c.name === to)) return `column ${JSON.stringify(to)} does not exist in table ${JSON.stringify(targetModel.name)}`;
  }
  const cardinality = v['relationship_type'] === 'array' ? 'array' : 'object';
  return { kind: 'source', name, cardinality, target: targetModel.id, mapping: mapping.map(([a, b]) => [a, b as string] as const) };
}
