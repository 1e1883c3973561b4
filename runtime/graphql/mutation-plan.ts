// Plans a mutation operation: each root field becomes one or more guarded statements (one per
// entry of update_<t>_many), run in field order inside one transaction by the engine.

import { createHash } from 'node:crypto';
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { BundleModel, MutationKind, MutationRootField } from '../bundle/index.js';
import { ApiError } from '../errors/index.js';
import { mutationTemplateOf, tableOf, type PlanContext } from './context.js';
import { argsOf, collectFields, type FieldSel } from './fields.js';
import { entriesOf, itemsOf } from './input.js';
import { planDelete } from './mutation-delete.js';
import { insertErrorPaths, type InsertErrorPaths } from './mutation-error-path.js';
import { planInsert } from './mutation-insert.js';
import { finishStatement, StatementBuilder, type GuardedSql } from './mutation-output.js';
import { planUpdate } from './mutation-update.js';
import { rootFieldIr, type PlanInput } from './plan.js';
import type { RemoteJoinSite } from './remote-join-site.js';

/** One root field of a mutation: known at plan time (`__typename`), or statements whose results form its value. */
export type MutationFieldPlan =
  | { readonly kind: 'static'; readonly key: string; readonly json: string }
  /** `list`: the value is the JSON array of the statements' results (update_<t>_many), else the one statement's result. */
  | { readonly kind: 'sql'; readonly key: string; readonly statements: readonly NamedSql[]; readonly list: boolean;
      /** Inserts: where a database error is reported (mutation-error-path.ts); others report at `$`. */
      readonly errorPaths?: InsertErrorPaths }
  /** A namespace's field (source customization): the object of its fields' values. */
  | { readonly kind: 'group'; readonly key: string; readonly fields: readonly MutationFieldPlan[] };

/** A guarded statement with the name it is prepared under. */
export interface NamedSql extends GuardedSql {
  readonly name: string;
  readonly output?: NamedSql;
}

/** A planned mutation operation. */
export interface MutationPlan {
  readonly kind: 'mutation';
  readonly source: string;
  readonly fields: readonly MutationFieldPlan[];
  /** False when the operation is one statement that no guard can fail: it may run without BEGIN/COMMIT. */
  readonly transactional: boolean;
  /**
   * True when a statement may write a table with event triggers: the transaction first sets
   * svc.user to the session, which the capture records (reference/events.md §2). Absent otherwise,
   * so mutations on other tables run exactly as before.
   */
  readonly recordsSession?: true;
  /** Remote relationship fields in `returning`: their placeholders are replaced after the transaction (absent: none). */
  readonly joins?: readonly RemoteJoinSite[];
}

/** Plans the root fields of a mutation operation. */
export function planMutation(input: PlanInput): MutationPlan {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of input.document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const base: PlanContext = { ...input, fragments, hints: { valueSensitive: false }, remoteJoins: [] };
  const roots = input.model.roots[input.role]?.mutation ?? {};
  const fields: MutationFieldPlan[] = [];
  let source: string | null = null;
  const writtenRoots: [MutationKind, string][] = [];
  // One root field's statements (`field`: its key in the role's roots); every field of the operation must be on the same source.
  const planRoot = (root: MutationRootField, f: FieldSel, path: readonly (string | number)[], field: string): MutationFieldPlan => {
    const t = tableOf(base, root.table);
    if (source !== null && source !== t.source) throw new ApiError('not-supported', 'mutations on several sources in one request are not supported', 400, path);
    source = t.source;
    // Written in the dialect of the table's source (hints and remote joins shared with `base`).
    const dialect = input.dialectOf?.(t.source) ?? input.dialect;
    const inDialect: PlanContext = dialect === base.dialect ? base : { ...base, dialect };
    // The field's precompiled template, which the statement completes: the written table's
    // columns, presets, checks and filters, and the select template `returning` reads.
    const template = mutationTemplateOf(inDialect, field);
    const ctx: PlanContext = template
      ? { ...inDialect, mutationTemplate: template, ...(template.returning?.dialect === dialect.name ? { rootTemplate: template.returning } : {}) }
      : inDialect;
    // Writes answer from the rows they return (RETURNING or OUTPUT).
    if (!ctx.dialect.can.writes || !(ctx.dialect.can.returning || ctx.dialect.can.outputClause)) {
      throw new ApiError('not-supported', `mutations on a ${ctx.dialect.name} source are not supported`, 400, path);
    }
    const args = argsOf(f.node);
    let statements: GuardedSql[];
    switch (root.kind) {
      case 'insert': case 'insert_one': statements = [planInsert(t, f, args, root.kind === 'insert_one', ctx, path)]; break;
      case 'update': statements = [planUpdate(t, f, args, { kind: 'where', input: args.get('where') }, false, ctx, path)]; break;
      case 'update_by_pk': statements = [planUpdate(t, f, args, { kind: 'pk', input: args.get('pk_columns') }, true, ctx, path)]; break;
      case 'update_many': {
        const updates = args.get('updates');
        statements = (updates ? itemsOf(updates, ctx) : []).map((u, i) => {
          const entryPath = [...path, 'args', 'updates', i];
          const entry = new Map(entriesOf(u, ctx, entryPath));
          return planUpdate(t, f, entry, { kind: 'where', input: entry.get('where') }, false, ctx, path);
        });
        break;
      }
      case 'delete': statements = [planDelete(t, f, args, false, ctx, path)]; break;
      case 'delete_by_pk': statements = [planDelete(t, f, args, true, ctx, path)]; break;
      // A function exposed as a mutation: the rows its call returns, read as the query field reads
      // them (the role's select permission), in the mutation's place and transaction; with a
      // template, the call is its target and the role's filter, columns and limit its `returning`.
      case 'function': {
        const read = template?.function !== undefined && template.function === root.function && template.returning ? { ...template.returning, source: template.target } : null;
        statements = [finishStatement(new StatementBuilder(), rootFieldIr({ kind: 'function', function: root.function!, table: t.id }, f, ctx, path, read), ctx)];
        break;
      }
    }
    writtenRoots.push([root.kind, t.id]);
    const one = root.kind === 'insert_one';
    const errorPaths = root.kind === 'insert' || one ? { errorPaths: insertErrorPaths(t, f.name, args.get(one ? 'object' : 'objects'), one, ctx) } : {};
    return { kind: 'sql', key: f.key, list: root.kind === 'update_many', statements: statements.map(named), ...errorPaths };
  };
  for (const f of collectFields(input.operation.selectionSet, 'mutation_root', base)) {
    const path = ['selectionSet', f.name];
    if (f.name === '__typename') { fields.push({ kind: 'static', key: f.key, json: '"mutation_root"' }); continue; }
    const root = roots[f.name];
    const ns = root ? undefined : input.model.sources.find((x) => x.namespace?.field === f.name)?.namespace;
    if (ns) {
      // A namespace (source customization): its fields run in order like root fields, and nest in its object.
      const inner = collectFields(f.node.selectionSet, ns.mutationType, base).map((sub): MutationFieldPlan => {
        if (sub.name === '__typename') return { kind: 'static', key: sub.key, json: JSON.stringify(ns.mutationType) };
        const subPath = [...path, 'selectionSet', sub.name];
        const subRoot = roots[`${ns.field}.${sub.name}`];
        if (!subRoot) throw new ApiError('validation-failed', `field "${sub.name}" not found in type: '${ns.mutationType}'`, 400, subPath);
        return planRoot(subRoot, sub, subPath, `${ns.field}.${sub.name}`);
      });
      fields.push({ kind: 'group', key: f.key, fields: inner });
      continue;
    }
    if (!root) throw new ApiError('validation-failed', `field "${f.name}" not found in type: 'mutation_root'`, 400, path);
    fields.push(planRoot(root, f, path, f.name));
  }
  const statementsOf = (x: MutationFieldPlan): readonly NamedSql[] => (x.kind === 'sql' ? x.statements : x.kind === 'group' ? x.fields.flatMap(statementsOf) : []);
  const all = fields.flatMap(statementsOf);
  const recordsSession = writtenRoots.some(([kind, id]) => mayCapture(input.model, kind, id));
  return {
    kind: 'mutation', source: source ?? input.model.sources[0]?.name ?? 'default', fields,
    // A response read in a second statement (`output`) belongs to the writes' transaction.
    transactional: recordsSession || all.length !== 1 || all[0]!.errors.length > 0 || all[0]!.output !== undefined,
    ...(recordsSession ? { recordsSession: true as const } : {}),
    ...(base.remoteJoins?.length ? { joins: [...base.remoteJoins] } : {}),
  };
}

/**
 * The root fields of a mutation operation when they write more than one source, else null. Hasura
 * v2 runs the fields of such an operation one after another, each in a transaction of its own on
 * its source, and stops at the first error, which is the whole answer (the fields before it stay
 * done): Transport/HTTP.hs coalesces the fields into one transaction only when they all write one
 * PostgreSQL source. The engine runs each field of the list so; planMutation plans one source.
 */
export function mutationFieldsBySource(input: Omit<PlanInput, 'schema' | 'structural'>): readonly FieldSel[] | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of input.document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const base: PlanContext = { ...input, structural: new Set(), fragments, hints: { valueSensitive: false } };
  const roots = input.model.roots[input.role]?.mutation ?? {};
  const fields = collectFields(input.operation.selectionSet, 'mutation_root', base);
  const sources = new Set<string>();
  for (const f of fields) {
    const root = roots[f.name];
    if (root) sources.add(tableOf(base, root.table).source);
    else {
      const ns = input.model.sources.find((x) => x.namespace?.field === f.name);
      if (ns) sources.add(ns.name);
    }
  }
  return sources.size > 1 ? fields : null;
}

/**
 * Whether a mutation operation may write several sources whatever its variables: its root fields
 * (fragments at the root followed, `@include`/`@skip` ignored) name tables of more than one source.
 * When it does not, mutationFieldsBySource has nothing to find for any request of the operation.
 */
export function mayWriteSeveralSources(model: BundleModel, role: string, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const roots = model.roots[role]?.mutation ?? {};
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const sources = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const root = roots[sel.name.value];
        const source = root ? model.tables[root.table]?.source : model.sources.find((x) => x.namespace?.field === sel.name.value)?.name;
        if (source !== undefined) sources.add(source);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet);
      } else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = fragments.get(sel.name.value);
        if (f) walk(f.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return sources.size > 1;
}

// Per model: the tables with event triggers, and those whose inserts may reach one through
// nested inserts (any relationship path; a superset is safe, it only costs a set_config).
const capturing = new WeakMap<BundleModel, { direct: ReadonlySet<string>; byInsert: ReadonlySet<string> }>();

function mayCapture(model: BundleModel, kind: MutationKind, table: string): boolean {
  let c = capturing.get(model);
  if (!c) {
    const direct = new Set(Object.values(model.tables).filter((t) => t.eventTriggers?.length).map((t) => t.id));
    const byInsert = new Set<string>();
    if (direct.size > 0) {
      for (const id of Object.keys(model.tables)) {
        const seen = new Set([id]);
        const queue = [id];
        while (queue.length > 0) {
          const t = model.tables[queue.pop()!];
          if (t && direct.has(t.id)) { byInsert.add(id); break; }
          for (const r of t?.relationships ?? []) if (!seen.has(r.target)) { seen.add(r.target); queue.push(r.target); }
        }
      }
    }
    c = { direct, byInsert };
    capturing.set(model, c);
  }
  // A VOLATILE function may write any table: with any event trigger, the session is recorded.
  if (kind === 'function') return c.direct.size > 0;
  return kind === 'insert' || kind === 'insert_one' ? c.byInsert.has(table) : c.direct.has(table);
}

function named(s: GuardedSql): NamedSql {
  const name = `kiln_${createHash('sha1').update(s.sql.text).digest('hex').slice(0, 20)}`;
  const { output, ...rest } = s;
  return { ...rest, name, ...(output ? { output: named(output) } : {}) };
}
