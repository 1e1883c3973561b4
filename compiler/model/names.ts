// How Hasura names and defines inconsistent objects (get_inconsistent_metadata): the name is
// `<type> <name> [in table <table>] in source <source>`, the definition the object as the
// operation that created it would take it (with `source` and `table` for the parts of a table).

import type { Json } from '../../runtime/bundle/index.js';
import type { ComputedField, Permission, QualifiedTable, Relationship } from '../metadata/index.js';

/** `author`, or `schema.name` outside `public`, as Hasura prints a table or function. */
export function qualifiedText(q: QualifiedTable): string {
  return q.schema === 'public' ? q.name : `${q.schema}.${q.name}`;
}

export function tableObjectName(source: string, table: QualifiedTable): string {
  return `table ${qualifiedText(table)} in source ${source}`;
}

export function functionObjectName(source: string, fn: QualifiedTable): string {
  return `function ${qualifiedText(fn)} in source ${source}`;
}

export function sourceObjectName(source: string): string {
  return `source ${source}`;
}

/** A part of a table: `object_relation author in table article in source default`. */
export function tableChildName(type: string, name: string, source: string, table: QualifiedTable): string {
  return `${type} ${name} in table ${qualifiedText(table)} in source ${source}`;
}

export type PermissionKind = 'select' | 'insert' | 'update' | 'delete';

export function permissionObjectName(kind: PermissionKind, role: string, source: string, table: QualifiedTable): string {
  return tableChildName(`${kind}_permission`, role, source, table);
}

export function relationshipDefinition(source: string, table: QualifiedTable, rel: Relationship): Json {
  return { using: rel.using as unknown as Json, name: rel.name, source, comment: rel.comment ?? null, table: { ...table } };
}

export function computedFieldDefinition(source: string, table: QualifiedTable, cf: ComputedField): Json {
  return { definition: cf.definition as unknown as Json, name: cf.name, source, comment: cf.comment ?? null, table: { ...table } };
}

/** A select permission shows its defaults (`allow_aggregations: false`, `computed_fields: []`, `filter: {}`). */
export function permissionDefinition(kind: PermissionKind, source: string, table: QualifiedTable, p: Permission<unknown>): Json {
  let permission = p.permission as { [k: string]: Json };
  if (kind === 'select') {
    permission = { allow_aggregations: false, computed_fields: [], ...permission, filter: permission['filter'] ?? {} };
  }
  return { role: p.role, source, comment: p.comment ?? null, permission, table: { ...table } };
}

/** Every reason starts with `Inconsistent object: `. */
export function inconsistent(reason: string): string {
  return reason.startsWith('Inconsistent object: ') ? reason : `Inconsistent object: ${reason}`;
}
