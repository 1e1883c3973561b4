// What the metadata API's compiles keep from one compile to the next (issue 19): content digests
// of the model's parts, and the per-role results keyed by the digests of what they are built from
// (a role's root fields, its precompiled predicates, its schema). Every reused result is one the
// same inputs built before, so a compile with reuse gives what a compile from nothing gives.

import { createHash } from 'node:crypto';
import type { BundleModel, Json, TemplatesModel } from '../../runtime/bundle/index.js';
import type { ResolveReuse } from '../model/index.js';
import { compileTemplates, type RoleTemplatesMemo } from '../sql/index.js';

/** A digest of a text. */
export function digestText(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * Digests and per-key results of the last two compiles: a compile whose edit fails (and is not
 * served) keeps what the served one made. Bounded: a generation holds what one compile used.
 */
export class CompileReuse implements ResolveReuse {
  // Digests by object: the model is never changed once built, and a part reused from an earlier
  // compile is the same object, so its digest is not computed again.
  private readonly digests = new WeakMap<object, string>();
  private current = new Map<string, unknown>();
  private older = new Map<string, unknown>();

  /** Starts a compile: what the one before the last used is let go. */
  nextCompile(): void {
    this.older = this.current;
    this.current = new Map();
  }

  digest(value: Json | object): string {
    if (typeof value !== 'object' || value === null) return digestText(JSON.stringify(value));
    let d = this.digests.get(value);
    if (d === undefined) this.digests.set(value, (d = digestText(JSON.stringify(value))));
    return d;
  }

  memo<T>(key: string, build: () => T): T {
    let hit = this.current.get(key) as T | undefined;
    if (hit === undefined) {
      hit = (this.older.get(key) as T | undefined) ?? build();
      this.current.set(key, hit);
    }
    return hit;
  }

  /** The digest of what every role shares in `model` (tables, functions, sources, options, actions...): everything but the per-role maps. */
  sharedDigest(model: BundleModel): string {
    let d = this.shared.get(model);
    if (d === undefined) {
      const parts = Object.entries(model).filter(([k]) => !PER_ROLE.has(k))
        .map(([k, v]) => `${k}=${k === 'tables' ? this.entriesDigest(v as object) : this.digest(v as Json)}`);
      this.shared.set(model, (d = digestText(parts.join('\u0000'))));
    }
    return d;
  }

  // Shared digests by model object: a compile asks for its model's once per role and stage.
  private readonly shared = new WeakMap<BundleModel, string>();

  /**
   * The digest of a map from its keys and its entries' digests: a table's entry is the same object
   * in the resolver's map, the model and the answer to the serving thread, so each is serialized
   * once per compile.
   */
  entriesDigest(map: object): string {
    let d = this.digests.get(map);
    if (d === undefined) {
      d = digestText(Object.entries(map).map(([k, v]) => `${JSON.stringify(k)}=${this.digest(v as Json)}`).join('\u0000'));
      this.digests.set(map, d);
    }
    return d;
  }

  /**
   * The root and mutation templates' stage for one role (compileModel's roleTemplates), keyed by
   * all it reads: what every role shares, the role's root fields, select and mutation permissions
   * and precompiled predicates. An unchanged role's part is then the object the last compile sent,
   * whose digest is known: serializing every role's parts to digest them again cost 0.5-0.7 s of
   * each metadata API compile at 1,000 tables x 20 roles.
   */
  readonly roleTemplates: RoleTemplatesMemo = (kind, model, role, build) => {
    const inputs = [model.roots[role] ?? null, model.select[role] ?? {}, model.mutations?.[role] ?? {}, model.templates?.roles[role] ?? null]
      .map((part) => this.digest(part as Json));
    return this.memo(`${kind}-templates\u0000${this.sharedDigest(model)}\u0000${role}\u0000${inputs.join('\u0000')}`, build);
  };

  /** The templates stage (compiler/sql compileTemplates), a role at a time, unchanged roles' reused. */
  readonly templates = (model: BundleModel): TemplatesModel => {
    const shared = this.sharedDigest(model);
    const roles: { [role: string]: TemplatesModel['roles'][string] } = {};
    for (const role of model.roles) {
      const key = `templates\u0000${shared}\u0000${role}\u0000${this.digest(model.select[role] ?? {})}\u0000${this.digest(model.mutations?.[role] ?? {})}`;
      roles[role] = this.memo(key, () => compileTemplates({ ...model, roles: [role] }).roles[role]!);
    }
    return { roles };
  };
}

/** The model's per-role maps (and the list of roles). */
export const PER_ROLE: ReadonlySet<string> = new Set(['roles', 'roots', 'select', 'mutations', 'templates', 'rootTemplates', 'mutationTemplates']);
