// The role schemas of the metadata API's compiles, reused from one compile to the next (issue 19).
// A role's schema is a function of what every role shares (tables, relationships, functions,
// sources, actions, options: the model without its per-role parts) and of the role's own schema
// inputs (compiler/schema `schemaInputs`: the same key `buildRoleSchemas` shares schemas by within
// one compile). Both together key the role's SDL text across compiles: a change to one role's
// permissions rebuilds that role's schema alone, and a document compiled again unchanged builds
// none. GraphQL schema objects are built only when read (stored queries need them), never kept.

import type { GraphQLSchema } from 'graphql';
import type { BundleModel } from '../../runtime/bundle/index.js';
import type { RoleSchemas } from '../emit/index.js';
import { buildRoleSchema, printRoleSchema, schemaInputs } from '../schema/index.js';
import { digestText, type CompileReuse } from './reuse.js';

/** Each role's SDL, by schema key, through `reuse`; remembers the keys of the last compile. */
export class SchemaCache {
  /** Each role's schema key in the last compile (the worker sends texts by key). */
  lastKeys: { readonly [role: string]: string } = {};
  /** How many schemas the last compile printed (the others came from earlier compiles). */
  lastPrinted = 0;

  constructor(private readonly reuse: CompileReuse) {}

  /** The `roleSchemas` stage of compileModel (compiler/emit) for `model`. */
  readonly roleSchemas = (model: BundleModel): RoleSchemas => {
    const { reuse } = this;
    const shared = reuse.sharedDigest(model);
    const keys: { [role: string]: string } = {};
    for (const role of model.roles) {
      // The role's schema inputs are a function of its roots, permissions and the actions; while
      // those are the same objects or contents, its key is the one computed before.
      const parts = [model.roots[role] ?? null, model.select[role] ?? {}, model.mutations?.[role] ?? {}, model.actions ?? null].map((p) => reuse.digest(p));
      keys[role] = reuse.memo(`schema-key\u0000${shared}\u0000${role}\u0000${parts.join('\u0000')}`,
        () => digestText(`${shared}\u0000${schemaInputs(model, role)}`));
    }
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
      const out: { [role: string]: string } = {};
      let printed = 0;
      for (const role of model.roles) {
        out[role] = reuse.memo(`sdl\u0000${keys[role]!}`, () => {
          printed++;
          return printRoleSchema(schemaOf(role));
        });
      }
      this.lastKeys = keys;
      this.lastPrinted = printed;
      return out;
    };
    return { schemas, sdl };
  };
}
