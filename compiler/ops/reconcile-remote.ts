// Remote relationships after a rename. Their join columns on the table that owns them
// (`hasura_fields`, `to_remote_schema.lhs_fields`, the keys of `to_source.field_mapping`) follow a
// rename in the owner's source; the target side (`to_source.table` and the mapping's values)
// follows a rename in the target's source, which may be another source than the owner's.
// A renamed join column's variables inside `remote_field` arguments (`$column`) are renamed with it,
// as Hasura's RQL/DDL/Schema/Rename.hs does.

import type { Json, QualifiedTable } from '../metadata/index.js';
import { asObject, renameColumnList, type Renamer } from './reconcile-renamer.js';

/** Where a remote relationship is defined. */
export interface Owner {
  readonly source: string;
  readonly table: QualifiedTable;
}

function qualified(v: Json | undefined): QualifiedTable | null {
  if (typeof v === 'string') return { schema: 'public', name: v };
  const o = asObject(v);
  if (!o || typeof o['name'] !== 'string') return null;
  return { schema: typeof o['schema'] === 'string' ? o['schema'] : 'public', name: o['name'] };
}

function renameToSource(spec: { readonly [k: string]: Json }, owner: Owner, r: Renamer): Json {
  const local = owner.source === r.source;
  const target = qualified(spec['table']);
  const remote = target !== null && spec['source'] === r.source;
  const mapping = asObject(spec['field_mapping']);
  const out: { [k: string]: Json } = { ...spec };
  if (remote) {
    const now = r.table(target);
    if (now !== target) out['table'] = { schema: now.schema, name: now.name };
  }
  if (mapping) {
    out['field_mapping'] = Object.fromEntries(Object.entries(mapping).map(([from, to]) => [
      local ? r.column(owner.table, from) : from,
      remote && typeof to === 'string' ? r.column(target, to) : to,
    ]));
  }
  return out;
}

/** A remote relationship of `owner` with the renames of `r.source` applied. */
export function renameRemoteRelationship(rr: Json, owner: Owner, r: Renamer): Json {
  const o = asObject(rr);
  const definition = asObject(o?.['definition']);
  if (!o || !definition) return rr;
  const local = owner.source === r.source;
  const out: { [k: string]: Json } = { ...definition };
  const renamed = (fields: Json | undefined): Map<string, string> => new Map(local && Array.isArray(fields)
    ? fields.flatMap((f) => (typeof f === 'string' && r.column(owner.table, f) !== f ? [[f, r.column(owner.table, f)] as const] : [])) : []);
  if (local && 'hasura_fields' in definition) {
    const vars = renamed(definition['hasura_fields']);
    out['hasura_fields'] = renameColumnList(definition['hasura_fields'], owner.table, r);
    if (vars.size > 0 && 'remote_field' in definition) out['remote_field'] = renameVariables(definition['remote_field'] ?? null, vars);
  }
  const toSchema = asObject(definition['to_remote_schema']);
  if (local && toSchema && 'lhs_fields' in toSchema) {
    const vars = renamed(toSchema['lhs_fields']);
    out['to_remote_schema'] = { ...toSchema, lhs_fields: renameColumnList(toSchema['lhs_fields'], owner.table, r),
      ...(vars.size > 0 && 'remote_field' in toSchema ? { remote_field: renameVariables(toSchema['remote_field'] ?? null, vars) } : {}) };
  }
  const toSource = asObject(definition['to_source']);
  if (toSource) out['to_source'] = renameToSource(toSource, owner, r);
  return { ...o, definition: out };
}

// A `remote_field` tree with the `$old` argument values of `vars` written `$new`.
function renameVariables(tree: Json, vars: ReadonlyMap<string, string>): Json {
  const values = (v: Json): Json => {
    if (typeof v === 'string') return v.startsWith('$') && vars.has(v.slice(1)) ? `$${vars.get(v.slice(1))}` : v;
    if (Array.isArray(v)) return v.map(values);
    const o = asObject(v);
    return o ? Object.fromEntries(Object.entries(o).map(([k, x]) => [k, values(x)])) : v;
  };
  const o = asObject(tree);
  if (!o) return tree;
  return Object.fromEntries(Object.entries(o).map(([name, step]) => {
    const body = asObject(step);
    if (!body) return [name, step];
    return [name, { ...body, ...('arguments' in body ? { arguments: values(body['arguments'] ?? null) } : {}),
      ...('field' in body ? { field: renameVariables(body['field'] ?? null, vars) } : {}) }];
  }));
}
