// A run_sql's catalog change carried into the metadata document, as Hasura v2 carries it: renamed
// tables and columns are renamed wherever the document names them (reconcile-detect.ts says how a
// rename is recognised without oids), and a change that overloads a tracked function or makes it
// VOLATILE is refused (a computed field's function too), and so is a new type for a column a permission compares with a literal. What vanished is left to the dependency judge of the metadata API.

import type { Introspection } from '../introspect/index.js';
import type { Metadata, Source } from '../metadata/index.js';
import { detectRenames, hasRenames } from './reconcile-detect.js';
import { checkComputedFieldFunctions, checkTrackedFunctions, dropReplacedComputedFields } from './reconcile-functions.js';
import { checkColumnTypes } from './reconcile-types.js';
import { renameRemoteRelationship } from './reconcile-remote.js';
import { makeRenamer, type Renamer } from './reconcile-renamer.js';
import { renameTableEntry } from './reconcile-tables.js';

/** Another source's tables: only remote relationships into the renamed source change. */
function renameRemoteTargets(s: Source, r: Renamer): Source {
  return {
    ...s,
    tables: s.tables.map((e) => (e.remote_relationships
      ? { ...e, remote_relationships: e.remote_relationships.map((rr) => renameRemoteRelationship(rr, { source: s.name, table: e.table }, r)) }
      : e)),
  };
}

/** The document after a catalog change of `source` from `before` to `after`; the same object when nothing changes. */
export function reconcileCatalog(metadata: Metadata, source: string, before: Introspection | null, after: Introspection, cascade = false): Metadata {
  const found = metadata.sources.find((s) => s.name === source);
  if (!found) return metadata;
  checkTrackedFunctions(found, before, after);
  checkComputedFieldFunctions(found, before, after);
  const own = dropReplacedComputedFields(found, before, after, cascade);
  if (own !== found) metadata = { ...metadata, sources: metadata.sources.map((s) => (s === found ? own : s)) };
  checkColumnTypes(own, before, after);
  const renames = detectRenames(before, after);
  if (!before || !hasRenames(renames)) return metadata;
  const r = makeRenamer(own, renames, before);
  let changed = false;
  const sources = metadata.sources.map((s) => {
    const next = s === own ? { ...s, tables: s.tables.map((e) => renameTableEntry(e, r)) } : renameRemoteTargets(s, r);
    // A rename of an untracked table or column leaves the document as it was.
    if (JSON.stringify(next) === JSON.stringify(s)) return s;
    changed = true;
    return next;
  });
  return changed ? { ...metadata, sources } : metadata;
}
