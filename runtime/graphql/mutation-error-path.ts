// Where Hasura reports a database error of an insert (Backends/Postgres/Execute/Insert.hs): under
// `$.selectionSet.<field>.args.objects` (`.object` for insert_<t>_one); when the objects insert
// through relationships each object is run alone, so the path names it (`objects[0]`) and the
// nested insert that failed (`objects[0].articles.data`). Kiln runs the whole insert as one
// statement, so the failing insert is found by the table PostgreSQL names in its error.
// Updates and deletes report at `$`, as Hasura does.

import type { TableModel } from '../bundle/index.js';
import { tableOf, type PlanContext } from './context.js';
import { astToJs, type Input } from './input.js';

type Path = readonly (string | number)[];

/** The paths of an insert's database errors: by default, and per table written (`schema.name`). */
export interface InsertErrorPaths {
  readonly root: Path;
  readonly byTable: ReadonlyMap<string, Path>;
}

/** The error paths of one insert root field whose objects are `objects`. */
export function insertErrorPaths(t: TableModel, field: string, objects: Input | undefined, one: boolean, ctx: PlanContext): InsertErrorPaths {
  const base = ['selectionSet', field, 'args', one ? 'object' : 'objects'];
  const byTable = new Map<string, Path>();
  const value = objects === undefined ? null : objects.kind === 'js' ? objects.value : astToJs(objects.node, ctx, false);
  const root = walkObjects(t, one ? [value] : listOf(value), base, !one, byTable, ctx);
  return { root, byTable };
}

// Read without marking variables structural: the paths only name where an error is reported.
function listOf(v: unknown): unknown[] {
  return v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function entriesOfValue(v: unknown): [string, unknown][] {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : [];
}

// Records the path of each table's insert under `path` (first one wins); answers the path of the
// objects' own insert.
function walkObjects(t: TableModel, items: readonly unknown[], path: Path, indexed: boolean, byTable: Map<string, Path>, ctx: PlanContext): Path {
  const rels = items.map((item) => entriesOfValue(item).filter(([k]) => t.relationships.some((r) => r.name === k)));
  // With relationships, each object is inserted alone (Hasura's indexedForM): its index is in the path.
  const own = indexed && rels.some((r) => r.length > 0) ? [...path, 0] : path;
  if (!byTable.has(key(t))) byTable.set(key(t), own);
  rels.forEach((entries, i) => {
    const objectPath = indexed ? [...path, i] : path;
    for (const [name, value] of entries) {
      const rel = t.relationships.find((r) => r.name === name)!;
      const data = new Map(entriesOfValue(value)).get('data');
      if (data === undefined || data === null) continue;
      const target = tableOf(ctx, rel.target);
      const nested = rel.kind === 'array' ? listOf(data) : [data];
      walkObjects(target, nested, [...objectPath, name, 'data'], rel.kind === 'array', byTable, ctx);
    }
  });
  return own;
}

function key(t: TableModel): string {
  return `${t.schema}.${t.name}`;
}

/** The path for a database error on `schema.table` (null when PostgreSQL named none). */
export function errorPathFor(paths: InsertErrorPaths, schema: string | null, table: string | null): Path {
  return (schema && table ? paths.byTable.get(`${schema}.${table}`) : undefined) ?? paths.root;
}
