import type { Json } from '../../runtime/bundle/index.js';

/** An inconsistent object in the shape `get_inconsistent_metadata` reports. */
export interface InconsistentObject {
  readonly type: 'table' | 'object_relation' | 'array_relation' | 'select_permission' | 'computed_field' | 'function' | 'source' | 'root_field';
  readonly name: string;
  readonly definition: Json;
  readonly reason: string;
}

/** Collects inconsistencies while resolving; stages report, they don't throw. */
export class Issues {
  private readonly items: InconsistentObject[] = [];
  add(item: InconsistentObject): void {
    this.items.push(item);
  }
  list(): readonly InconsistentObject[] {
    return [...this.items];
  }
}
