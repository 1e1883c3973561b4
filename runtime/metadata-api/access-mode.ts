// The transaction access mode a `/v1/query` call needs, as Hasura's getQueryAccessMode works it
// out (Server/API/Query.hs): `select` and `count` take any mode, a `run_sql` the one its
// `read_only` asks for, every other operation READ WRITE; a `bulk` reconciles its elements in
// order and refuses one that forces another mode than the elements before it agreed on.

import type { Json } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';

export type AccessMode = 'READ ONLY' | 'READ WRITE';

/** The mode an operation forces (`null`: any), throwing Hasura's bad-request for a bulk that mixes modes. */
export function accessModeOf(type: unknown, args: Json | undefined): AccessMode | null {
  switch (type) {
    case 'select': case 'count':
      return null;
    case 'run_sql':
      return isObject(args) && args['read_only'] === true ? 'READ ONLY' : 'READ WRITE';
    case 'bulk':
      return Array.isArray(args) ? reconcile(args) : 'READ WRITE';
    default:
      return 'READ WRITE';
  }
}

function reconcile(elements: readonly Json[]): AccessMode | null {
  let agreed: AccessMode | null = null;
  elements.forEach((element, i) => {
    const o = isObject(element) ? element : {};
    const mode = accessModeOf(o['type'], o['args'] as Json | undefined);
    if (mode === null || agreed === null || mode === agreed) {
      agreed ??= mode;
      return;
    }
    throw new ApiError('bad-request', 'incompatible access mode requirements in bulk query, '
      + `expected access mode: ${agreed} but $.args[${i}] forces ${mode}`, 400, []);
  });
  return agreed;
}

function isObject(v: unknown): v is Readonly<Record<string, Json>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
