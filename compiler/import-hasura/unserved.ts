// Parts of a Hasura project that Kiln stores and checks but does not serve yet (README, "Not
// built yet"): the import carries them, and says so, rather than letting a user find out from a
// missing field.

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** One line per kind of thing in `doc` (a renamed metadata document) that Kiln does not serve yet. */
export function unservedParts(doc: Obj): string[] {
  const lines: string[] = [];
  const sources = Array.isArray(doc['sources']) ? doc['sources'].filter(isObj) : [{ kind: 'postgres', tables: doc['tables'] }];
  for (const s of sources) {
    if (s['kind'] === 'mssql' || s['kind'] === 'bigquery') lines.push(`source "${String(s['name'])}" is ${s['kind']}: Kiln serves PostgreSQL sources only`);
  }
  const tables = sources.flatMap((s) => (Array.isArray(s['tables']) ? s['tables'].filter(isObj) : []));
  const remoteRels = tables.reduce((n, t) => n + count(t['remote_relationships']), 0);
  if (remoteRels > 0) lines.push(`${remoteRels} remote relationship(s): carried, not served (remote relationships are not built yet)`);
  if (count(doc['remote_schemas']) > 0) lines.push(`${count(doc['remote_schemas'])} remote schema(s): carried and checked, not served at run time yet`);
  return lines;
}
