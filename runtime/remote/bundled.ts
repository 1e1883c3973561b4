// Remote schemas in a compiled bundle: each remote's schema as `kiln compile` introspected it,
// kept as SDL text (`remote/<file>.graphql`), and read back into snapshots so a served bundle
// stitches the same remotes with no introspection at start. The definitions (URL, headers with
// `value_from_env` names, customization, permissions) are the metadata's `remote_schemas`
// entries; environment values are read when a call is made.

import { buildSchema, introspectionFromSchema, printSchema, type GraphQLSchema } from 'graphql';
import type { Json } from '../bundle/index.js';
import { RemoteIntrospections } from './catalog.js';
import { remoteDefinitions, type RemoteDefinition } from './definition.js';
import type { RemoteSnapshot } from './introspect.js';

/** A remote's schema as the bundle stores it (in the remote's own order, as the catalog-served schema has it). */
export function remoteSdl(schema: GraphQLSchema): string {
  return `${printSchema(schema)}\n`;
}

/** A snapshot from stored SDL (a failed one, with the reason, when the text is missing or not a schema). */
export function snapshotFromSdl(def: RemoteDefinition, sdl: string | undefined): RemoteSnapshot {
  if (sdl === undefined) return { kind: 'failed', def, reason: `no schema of remote schema ${JSON.stringify(def.name)} was read when compiling (the remote did not answer then)` };
  try {
    const schema = buildSchema(sdl);
    if (!schema.getQueryType()) return { kind: 'failed', def, reason: 'invalid remote schema: query root type not found' };
    return { kind: 'ok', def, schema, introspection: introspectionFromSchema(schema) };
  } catch (e) {
    return { kind: 'failed', def, reason: `invalid remote schema in the bundle: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The introspections of a bundle's remotes: `definitions` is the metadata's `remote_schemas`, `sdl` each one's text by name. */
export function bundledIntrospections(definitions: Json, sdl: { readonly [name: string]: string }): RemoteIntrospections {
  const out = new RemoteIntrospections();
  for (const def of remoteDefinitions({ remote_schemas: definitions })) out.put(snapshotFromSdl(def, sdl[def.name]));
  return out;
}
