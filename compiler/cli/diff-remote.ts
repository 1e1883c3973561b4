// `kiln diff`, remote schemas: the remote fields each role may query in each bundle — admin all of
// a remote's schema, another role its permission's subset (what it sees with
// SVC_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS=true; with it off every role sees admin's) — each
// field with its arguments, so a preset taken away (the role may now choose the argument) shows
// as a field that changed, which counts as widening.

import { isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { remoteDefinitions, restricted, snapshotFromSdl } from '../../runtime/remote/index.js';
import type { BundleDir } from './bundle-dir.js';
import type { AccessChange } from './diff-model.js';

/** Role -> `remote: Type.field(args): type` lines the role may use. */
function remoteFields(b: BundleDir): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (role: string, lines: Iterable<string>): void => {
    const set = out.get(role) ?? new Set<string>();
    for (const l of lines) set.add(l);
    out.set(role, set);
  };
  const entries = (b.manifest['remoteSchemas'] ?? {}) as { readonly [name: string]: { readonly file: string } };
  for (const def of remoteDefinitions({ remote_schemas: b.model.remoteSchemas ?? [] })) {
    const file = entries[def.name]?.file;
    const snap = snapshotFromSdl(def, file === undefined ? undefined : b.stored.get(file));
    if (snap.kind !== 'ok') continue;
    add('admin', fieldLines(def.name, snap.schema));
    for (const p of def.permissions) {
      const r = restricted(p.schema, snap.schema);
      if (typeof r !== 'string') add(p.role, fieldLines(def.name, r.schema));
    }
  }
  return out;
}

function fieldLines(remote: string, schema: GraphQLSchema): string[] {
  const out: string[] = [];
  for (const t of Object.values(schema.getTypeMap())) {
    if (t.name.startsWith('__')) continue;
    if (isObjectType(t) || isInterfaceType(t)) {
      for (const f of Object.values(t.getFields())) {
        const args = f.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ');
        out.push(`${remote}: ${t.name}.${f.name}${args ? `(${args})` : ''}: ${String(f.type)}`);
      }
    } else if (isInputObjectType(t)) {
      for (const f of Object.values(t.getFields())) out.push(`${remote}: input ${t.name}.${f.name}: ${String(f.type)}`);
    }
  }
  return out;
}

/** The remote fields each role gains (widened) or loses (narrowed) from the old bundle to the new. */
export function remoteChanges(a: BundleDir, b: BundleDir): AccessChange[] {
  const before = remoteFields(a);
  const after = remoteFields(b);
  const out: AccessChange[] = [];
  for (const role of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const had = before.get(role) ?? new Set<string>();
    const has = after.get(role) ?? new Set<string>();
    for (const line of [...has].filter((l) => !had.has(l)).sort()) {
      out.push({ role, table: null, operation: null, aspect: 'remote field', verdict: 'widened', detail: `remote schema ${line} added` });
    }
    for (const line of [...had].filter((l) => !has.has(l)).sort()) {
      out.push({ role, table: null, operation: null, aspect: 'remote field', verdict: 'narrowed', detail: `remote schema ${line} removed` });
    }
  }
  return out;
}
