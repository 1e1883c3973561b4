// Removing inconsistent objects from the document (drop_inconsistent_metadata, and the dependents
// of a cascading drop), and printing them the way Hasura's dependency-error lists them.

import type { InconsistentObject } from '../../runtime/metadata-api/index.js';
import type { Json, Metadata, QualifiedTable } from '../metadata/index.js';
import { qualifiedText } from '../model/index.js';
import { replaceFunctions, replaceSource, replaceTable, sameName } from './document.js';

type Def = { readonly [k: string]: Json };

function asObject(v: Json | undefined): Def {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

function qualifiedOf(v: Json | undefined): QualifiedTable | null {
  const o = asObject(v);
  return typeof o['name'] === 'string' ? { schema: typeof o['schema'] === 'string' ? o['schema'] : 'public', name: o['name'] } : null;
}

/** The source an object lives in: its definition's `source`, else the name's `... in source X`. */
function sourceOf(o: InconsistentObject): string {
  const s = asObject(o.definition)['source'];
  if (typeof s === 'string') return s;
  const m = / in source (.+)$/.exec(o.name);
  return m ? m[1]! : 'default';
}

/** What a table-level object is: its table, and its own name (a relationship's, a role). */
function partOf(o: InconsistentObject): { source: string; table: QualifiedTable; name: string } | null {
  const def = asObject(o.definition);
  const table = qualifiedOf(def['table']);
  const name = typeof def['name'] === 'string' ? def['name'] : typeof def['role'] === 'string' ? def['role'] : null;
  return table && name !== null ? { source: sourceOf(o), table, name } : null;
}

function dropOne(md: Metadata, o: InconsistentObject): Metadata {
  switch (o.type) {
    case 'source': {
      const name = o.name.startsWith('source ') ? o.name.slice('source '.length) : o.name;
      return replaceSource(md, name, () => null);
    }
    case 'table': {
      const table = qualifiedOf(o.definition);
      return table ? replaceTable(md, sourceOf(o), table, () => null) : md;
    }
    case 'function': {
      const fn = qualifiedOf(o.definition) ?? qualifiedOf(asObject(o.definition)['function']);
      return fn ? replaceFunctions(md, sourceOf(o), (fs) => fs.filter((f) => !sameName(f.function, fn))) : md;
    }
    case 'object_relation': case 'array_relation': {
      const p = partOf(o);
      const key = o.type === 'object_relation' ? 'object_relationships' : 'array_relationships';
      return p ? replaceTable(md, p.source, p.table, (t) => ({ ...t, [key]: (t[key] ?? []).filter((r) => r.name !== p.name) })) : md;
    }
    case 'remote_relationship': {
      const p = partOf(o);
      return p ? replaceTable(md, p.source, p.table, ({ remote_relationships: list, ...t }) => {
        const kept = (list ?? []).filter((e) => asObject(e)['name'] !== p.name);
        return kept.length > 0 ? { ...t, remote_relationships: kept } : t;
      }) : md;
    }
    case 'computed_field': {
      const p = partOf(o);
      return p ? replaceTable(md, p.source, p.table, (t) => ({ ...t, computed_fields: (t.computed_fields ?? []).filter((c) => c.name !== p.name) })) : md;
    }
    case 'event_trigger': {
      const p = partOf(o);
      return p ? replaceTable(md, p.source, p.table, ({ event_triggers: list, ...t }) => {
        const kept = (list ?? []).filter((e) => asObject(e)['name'] !== p.name);
        return kept.length > 0 ? { ...t, event_triggers: kept } : t;
      }) : md;
    }
    case 'select_permission': case 'insert_permission': case 'update_permission': case 'delete_permission': {
      const p = partOf(o);
      const key = `${o.type.slice(0, -'_permission'.length)}_permissions` as 'select_permissions';
      return p ? replaceTable(md, p.source, p.table, (t) => ({ ...t, [key]: (t[key] ?? []).filter((x) => x.role !== p.name) })) : md;
    }
    case 'remote_schema_remote_relationship': {
      // `{remote_schema, type_name, name}`: the relationship leaves its type's group (an empty group goes too).
      const d = asObject(o.definition);
      if (!md.remote_schemas) return md;
      return { ...md, remote_schemas: md.remote_schemas.map((rs) => {
        const r = asObject(rs);
        if (r['name'] !== d['remote_schema'] || !Array.isArray(r['remote_relationships'])) return rs;
        const groups = r['remote_relationships'].map((g) => {
          const go = asObject(g);
          if (go['type_name'] !== d['type_name']) return g;
          return { ...go, relationships: (Array.isArray(go['relationships']) ? go['relationships'] : []).filter((x) => asObject(x)['name'] !== d['name']) };
        }).filter((g) => !Array.isArray(asObject(g)['relationships']) || (asObject(g)['relationships'] as Json[]).length > 0);
        const { remote_relationships: _drop, ...rest } = r;
        return groups.length > 0 ? { ...rest, remote_relationships: groups } : rest;
      }) };
    }
    case 'query_collections': {
      // `query_collections <query> in <collection>`: the query leaves its collection.
      const m = /^query_collections (.+) in (.+)$/.exec(o.name);
      if (!m || !md.query_collections) return md;
      const [, query, collection] = m;
      return { ...md, query_collections: md.query_collections.map((c) => {
        const co = asObject(c);
        if (co['name'] !== collection) return c;
        const def = asObject(co['definition']);
        const queries = Array.isArray(def['queries']) ? def['queries'].filter((q) => asObject(q)['name'] !== query) : [];
        return { ...co, definition: { ...def, queries } };
      }) };
    }
    case 'rest_endpoint': {
      // `rest_endpoint <name>`: the endpoint leaves the document.
      const name = o.name.slice('rest_endpoint '.length);
      if (!md.rest_endpoints) return md;
      const kept = md.rest_endpoints.filter((e) => asObject(e)['name'] !== name);
      const { rest_endpoints: _all, ...rest } = md;
      return kept.length > 0 ? { ...rest, rest_endpoints: kept } : rest as Metadata;
    }
    default:
      return md;
  }
}

/** The document without these objects (and so without what is inside them). */
export function dropObjects(md: Metadata, objects: readonly InconsistentObject[]): Metadata {
  return objects.reduce(dropOne, md);
}

/**
 * An object as `cannot drop due to the following dependent objects : ...` lists it:
 * `permission author.user.select in source "default"`, `relationship article.author in source "default"`.
 */
export function dependentLabel(o: InconsistentObject): string {
  const inSource = ` in source ${JSON.stringify(sourceOf(o))}`;
  const p = partOf(o);
  switch (o.type) {
    case 'source': return o.name;
    case 'table': {
      const t = qualifiedOf(o.definition);
      return t ? `table ${qualifiedText(t)}${inSource}` : o.name;
    }
    case 'function': {
      const f = qualifiedOf(o.definition);
      return f ? `function ${qualifiedText(f)}${inSource}` : o.name;
    }
    case 'object_relation': case 'array_relation':
      return p ? `relationship ${qualifiedText(p.table)}.${p.name}${inSource}` : o.name;
    case 'remote_relationship':
      return p ? `remote_relationship ${p.name} on table ${qualifiedText(p.table)}${inSource}` : o.name;
    case 'computed_field':
      return p ? `computed field ${qualifiedText(p.table)}.${p.name}${inSource}` : o.name;
    case 'select_permission': case 'insert_permission': case 'update_permission': case 'delete_permission':
      return p ? `permission ${qualifiedText(p.table)}.${p.name}.${o.type.slice(0, -'_permission'.length)}${inSource}` : o.name;
    default:
      return o.name;
  }
}
