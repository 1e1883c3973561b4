import type { Json } from '../../runtime/bundle/index.js';
import { inconsistent } from './names.js';

/** An inconsistent object in the shape `get_inconsistent_metadata` reports. */
export type InconsistentObject = MetadataInconsistency | InheritedRoleInconsistency;

/** A metadata object that does not fit the database (or the rest of the metadata). */
export interface MetadataInconsistency {
  readonly type: 'query_collections' | 'table' | 'object_relation' | 'array_relation' | 'select_permission' | 'insert_permission' | 'update_permission'
    | 'delete_permission' | 'computed_field' | 'function' | 'source' | 'root_field' | 'event_trigger' | 'remote_relationship' | 'custom_types' | 'action'
    | 'inherited_role' | 'rest_endpoint';
  readonly name: string;
  readonly definition: Json;
  readonly reason: string;
}

/**
 * A permission an inherited role cannot take from its parents (they disagree); Hasura lists it with
 * the entity instead of a definition, and it blocks no edit.
 */
export interface InheritedRoleInconsistency {
  readonly type: 'inherited role permission inconsistency';
  readonly name: string;
  readonly entity: { readonly permission_type: string; readonly source: string; readonly table: string };
  readonly reason: string;
}

/** Collects inconsistencies while resolving; stages report, they don't throw. */
export class Issues {
  private readonly items: InconsistentObject[] = [];
  /** Adds an object; the reasons of metadata objects get Hasura's `Inconsistent object: ` prefix. */
  add(item: InconsistentObject): void {
    const prefixed = item.type !== 'root_field' && item.type !== 'source' && item.type !== 'inherited role permission inconsistency';
    this.items.push(prefixed ? { ...item, reason: inconsistent(item.reason) } : item);
  }
  /** Adds objects another collector listed (already in their final shape). */
  addListed(items: readonly InconsistentObject[]): void {
    this.items.push(...items);
  }
  list(): readonly InconsistentObject[] {
    return [...this.items];
  }
}
