// The remote schemas an engine serves: each role's view of them (all of them, or with remote
// schema permissions on, the role's restricted schema), the role's schema text with them
// stitched in, and who owns a root field.

import { createHash } from 'node:crypto';
import type { BundleModel } from '../bundle/index.js';
import { addRelationshipFields, addSchemaJoinFields } from './relationship-fields.js';
import type { SchemaJoin } from './schema-joins.js';
import type { RemoteView } from './view.js';
import { stitchSdl } from './stitch.js';

/** The remote schemas of a served model. */
export class RemoteServing {
  private readonly byRoot = new Map<string, RemoteView>();
  private readonly stitched = new Map<string, string>();

  /**
   * `views`: every consistent remote as admin sees it; `roleViews`: with permissions on, each role's
   * restricted views (a role absent sees no remote schema). Null: permissions off, every role sees all.
   */
  private readonly hasRelationships: boolean;

  constructor(readonly views: readonly RemoteView[], private readonly roleViews: ReadonlyMap<string, readonly RemoteView[]> | null,
    private readonly model: BundleModel, readonly joins: readonly SchemaJoin[] = []) {
    this.hasRelationships = joins.length > 0 || Object.values(model.tables).some((t) => t.remoteRelationships?.length);
    for (const v of views) {
      for (const f of v.roots.query) this.byRoot.set(`query\u0000${f.name.value}`, v);
      for (const f of v.roots.mutation) this.byRoot.set(`mutation\u0000${f.name.value}`, v);
    }
  }

  /** The relationships from a remote's types to tables. */
  joinsOf(remote: string): readonly SchemaJoin[] {
    return this.joins.filter((j) => j.remote === remote);
  }

  /** The views a role sees. */
  viewsFor(role: string): readonly RemoteView[] {
    if (role === 'admin' || this.roleViews === null) return this.views;
    return this.roleViews.get(role) ?? [];
  }

  /** The remote that owns a root field for this role, if any. */
  owner(role: string, operation: 'query' | 'mutation', field: string): RemoteView | undefined {
    const admin = this.byRoot.get(`${operation}\u0000${field}`);
    if (!admin || role === 'admin' || this.roleViews === null) return admin;
    return this.roleViews.get(role)?.find((v) => v.def.name === admin.def.name);
  }

  /** Whether any role's schema has remote types stitched in (else every role's is its base text). */
  get stitches(): boolean {
    return this.views.length > 0 || this.hasRelationships;
  }

  /** What distinguishes the role's stitched schema from another role's with the same base text. */
  roleKey(role: string): string {
    if (!this.stitches) return '';
    return role === 'admin' || this.roleViews === null ? 'all' : this.roleViews.has(role) ? `role:${role}` : 'none';
  }

  /** The role's schema text with its remote views stitched in (remembered per base text and role key). */
  sdlFor(role: string, base: string): string {
    const views = this.viewsFor(role);
    if (views.length === 0 && !this.hasRelationships) return base;
    const key = `${this.roleKey(role)}\u0000${createHash('sha1').update(base).digest('hex')}`;
    let s = this.stitched.get(key);
    if (s === undefined) {
      s = addSchemaJoinFields(addRelationshipFields(stitchSdl(base, views).sdl, role, this.model, views), role, this.model, views, this.joins);
      if (this.stitched.size > 256) this.stitched.clear();
      this.stitched.set(key, s);
    }
    return s;
  }
}
