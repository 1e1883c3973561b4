// A run_sql's catalog change carried into the metadata document (placeholder: returns the
// document unchanged until rename detection lands).

import type { Introspection } from '../introspect/index.js';
import type { Metadata } from '../metadata/index.js';

/** The document after a catalog change of `source` from `before` to `after`; the same object when nothing changes. */
export function reconcileCatalog(metadata: Metadata, _source: string, _before: Introspection | null, _after: Introspection): Metadata {
  return metadata;
}
