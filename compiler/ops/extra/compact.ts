// Building the stored form of an object: keys left undefined by the reader are not written.

import type { Json } from '../../metadata/index.js';

/** A copy without the keys whose value is undefined. */
export function compact(o: { readonly [k: string]: Json | undefined }): { readonly [k: string]: Json } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { readonly [k: string]: Json };
}
