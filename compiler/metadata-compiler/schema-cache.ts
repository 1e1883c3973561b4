// The role schemas of the metadata API's compiles, reused from one compile to the next (issue 19).
// A role's schema is a function of what every role shares (tables, relationships, functions,
// sources, actions, options: the model without its per-role parts) and of the role's own schema
// inputs (compiler/schema `schemaInputs`: the same key `buildRoleSchemas` shares schemas by within
// one compile). Both together key the role's SDL text across compiles: a change to one role's
// permissions rebuilds that role's schema alone, and a document compiled again unchanged builds
// none. GraphQL schema objects are built only when read (stored queries need them), never kept.

import { createHash } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import type { BundleModel } from '../../runtime/bundle/index.js';
import type { RoleSchemas } from '../emit/index.js';
import { buildRoleSchema, printRoleSchema, schemaInputs } from '../schema/index.js';

/** The model's per-role parts: what `schemaInputs` covers for one role (and `roles`, the list of them). */
const PER_ROLE: ReadonlySet<string> = new Set(['roles', 'roots', 'select', 'mutations', 'templates']);

/** A digest of a text (keys and content hashes of the compile's parts). */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** The key of what every role's schema is built from besides its own inputs. */
export function sharedInputsKey(model: BundleModel): string {
  const shared = Object.fromEntries(Object.entries(model).filter(([k]) => !PER_ROLE.has(k)));
  return digest(JSON.stringify(shared));
}

/**
 * SDL texts by schema key, from the last two compiles: a compile whose edit fails (and is not
 * served) does not throw away what the served one built. Bounded: a generation holds at most one
 * text per role of its compile.
 */
export class SchemaCache {
  private current = new Map<string, string>();
  private older = new Map<string, string>();
  /** Each role's schema key in the last compile (the worker sends texts by key). */
  lastKeys: { readonly [role: string]: string } = {};
  /** How many schemas the last compile printed (the others came from earlier compiles). */
  lastPrinted = 0;

  /** The `roleSchemas` stage of compileModel (compiler/emit) for `model`. */
  readonly roleSchemas = (model: BundleModel): RoleSchemas => {
    const shared = sharedInputsKey(model);
    const keys: { [role: string]: string } = {};
    for (const role of model.roles) keys[role] = digest(`${shared}\u0000${schemaInputs(model, role)}`);
    const built = new Map<string, GraphQLSchema>();
    const schemaOf = (role: string): GraphQLSchema => {
      const key = keys[role]!;
      let s = built.get(key);
      if (!s) built.set(key, (s = buildRoleSchema(model, role)));
      return s;
    };
    const schemas: { [role: string]: GraphQLSchema } = {};
    for (const role of model.roles) Object.defineProperty(schemas, role, { enumerable: true, get: () => schemaOf(role) });
    const sdl = (): { [role: string]: string } => {
      const next = new Map<string, string>();
      const out: { [role: string]: string } = {};
      let printed = 0;
      for (const role of model.roles) {
        const key = keys[role]!;
        let text = next.get(key) ?? this.current.get(key) ?? this.older.get(key);
        if (text === undefined) {
          text = printRoleSchema(schemaOf(role));
          printed++;
        }
        next.set(key, text);
        out[role] = text;
      }
      this.older = this.current;
      this.current = next;
      this.lastKeys = keys;
      this.lastPrinted = printed;
      return out;
    };
    return { schemas, sdl };
  };
}
