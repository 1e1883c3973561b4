// A run_sql's catalog change carried into the metadata document, as Hasura v2 carries it: renamed
// tables and columns are renamed wherever the document names them (reconcile-detect.ts says how a
// rename is recognised without oids), and a change that overloads a tracked function or makes it
// VOLATILE is refused (a computed field's function too), and so is a new type for a column a permission compares with a literal. What vanished is left to the dependency judge of the metadata API.

import type { Introspection } from '../introspect/index.js';
import type { Metadata, Source } from '../metadata/index.js';
import { detectRenames, hasRenames, type CatalogRenames } from './reconcile-detect.js';
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
  if (!before) return metadata;
  if (!hasRenames(renames)) return dropConfigOfDroppedColumns(metadata, source, before, after, renames);
  const r = makeRenamer(own, renames, before);
  let changed = false;
  const sources = metadata.sources.map((s) => {
    const next = s === own ? { ...s, tables: s.tables.map((e) => renameTableEntry(e, r)) } : renameRemoteTargets(s, r);
    // A rename of an untracked table or column leaves the document as it was.
    if (JSON.stringify(next) === JSON.stringify(s)) return s;
    changed = true;
    return next;
  });
  return dropConfigOfDroppedColumns(changed ? { ...metadata, sources } : metadata, source, before, after, renames);
}

/**
 * The configuration of a dropped column (its custom name, its column_config) leaves the table's
 * configuration, as Hasura's run_sql drops it (possiblyDropCustomColumnNames): what stays would
 * name a column the table no longer has. Tables are found by their names after the change.
 */
function dropConfigOfDroppedColumns(metadata: Metadata, source: string, before: Introspection, after: Introspection, renames: CatalogRenames): Metadata {
  const key = (schema: string, name: string): string => `${schema}.${name}`;
  const oldName = new Map([...renames.tables].map(([old, now]) => [key(now.schema, now.name), old]));
  let changed = false;
  const sources = metadata.sources.map((s) => {
    if (s.name !== source) return s;
    const tables = s.tables.map((e) => {
      const cfg = e.configuration;
      if (!cfg || (!cfg.custom_column_names && !cfg.column_config)) return e;
      const now = after.tables.find((t) => t.schema === e.table.schema && t.name === e.table.name);
      const wasKey = oldName.get(key(e.table.schema, e.table.name)) ?? key(e.table.schema, e.table.name);
      const was = before.tables.find((t) => key(t.schema, t.name) === wasKey);
      if (!now || !was) return e;
      const dropped = (c: string): boolean => !now.columns.some((x) => x.name === c) && was.columns.some((x) => x.name === c);
      const keep = <V>(o: { readonly [k: string]: V } | undefined): { [k: string]: V } | undefined =>
        o && Object.fromEntries(Object.entries(o).filter(([c]) => !dropped(c)));
      const next = { ...cfg, ...(cfg.custom_column_names ? { custom_column_names: keep(cfg.custom_column_names)! } : {}),
        ...(cfg.column_config ? { column_config: keep(cfg.column_config)! } : {}) };
      if (JSON.stringify(next) === JSON.stringify(cfg)) return e;
      changed = true;
      return { ...e, configuration: next };
    });
    return changed ? { ...s, tables } : s;
  });
  return changed ? { ...metadata, sources } : metadata;
}
