import type { Json } from '../../runtime/bundle/index.js';
import { inconsistent } from './names.js';

/** An inconsistent object in the shape `get_inconsistent_metadata` reports. */
export interface InconsistentObject {
  readonly type: 'query_collections' | 'table' | 'object_relation' | 'array_relation' | 'select_permission' | 'insert_permission' | 'update_permission'
    | 'delete_permission' | 'computed_field' | 'function' | 'source' | 'root_field' | 'event_trigger';
  readonly name: string;
  readonly definition: Json;
  readonly reason: string;
}

/** Collects inconsistencies while resolving; stages report, they don't throw. */
export class Issues {
  private readonly items: InconsistentObject[] = [];
  /** Adds an object; the reasons of metadata objects get Hasura's `Inconsistent object: ` prefix. */
  add(item: InconsistentObject): void {
    const prefixed = item.type !== 'root_field' && item.type !== 'source';
    this.items.push(prefixed ? { ...item, reason: inconsistent(item.reason) } : item);
  }
  list(): readonly InconsistentObject[] {
    return [...this.items];
  }
}
