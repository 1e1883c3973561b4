// The templates of engine.mjs (DESIGN.md "the bundle"): every role's permission predicates, root
// field templates and mutation root field templates, each distinct one written once as JSON text
// and parsed when first used, each role's part (what it refers to, by index) parsed when the role
// is first used. `permissionTemplates(role)` / `model.templates.roles[role]`, `rootTemplate(role,
// field)` / `model.rootTemplates.roles[role][field]` and `mutationTemplate(role, field)` /
// `model.mutationTemplates.roles[role][field]` give the same objects.
//
// Each value is turned into text once: the pools know the objects they have seen (templates,
// sources, column lists and root templates are shared objects in the model), so a filter several
// thousand role x field pairs share is stringified once, not once per pair.

import type * as TsMorph from 'ts-morph';
import type { StatementStructures } from 'ts-morph';
import {
  PERMISSION_RULES, type MutationTemplate, type MutationTemplatesModel, type RootTemplate, type RootTemplatesModel, type TemplatesModel, type WriteTemplate,
} from '../../runtime/bundle/index.js';
import type { SqlTemplate } from '../../runtime/sql/index.js';

/** The templates as JSON text. */
export interface TemplateData {
  /** Each distinct permission template (parsed when first used). */
  readonly templates: readonly string[];
  /** Per role: table -> rule -> the index of its template (null: every row), parsed when the role is first used. */
  readonly roleTemplates: { readonly [role: string]: string };
  /** The root field templates; null: the model has none. */
  readonly root: {
    /** Each distinct source (a table's or a function's FROM item). */
    readonly sources: readonly string[];
    /** `[[column, ...], ...]`: each distinct column list. */
    readonly columns: string;
    /** Each distinct root template: `[table, source index, filter index (null: every row), columns index, row limit, aggregations]`. */
    readonly parts: readonly string[];
    /** Per role: field -> the index of its root template, parsed when the role is first used. */
    readonly roles: { readonly [role: string]: string };
  } | null;
  /** The mutation root field templates; null: the model has none. */
  readonly mutation: {
    /** Each distinct write part: `[columns index, presets, check index]`, an update's with `filter index` after. */
    readonly writes: readonly string[];
    /**
     * Each distinct mutation template: `[table, target (a source index), insert (a write index or
     * null), update (likewise), delete (null, or [filter index]), backend only, returning (a root template index or null)]`,
     * a function's with its id after.
     */
    readonly parts: readonly string[];
    /** Per role: field -> the index of its mutation template, parsed when the role is first used. */
    readonly roles: { readonly [role: string]: string };
  } | null;
}

/** The model's templates as engine.mjs writes them. */
export function templateData(templates: TemplatesModel | undefined, rootTemplates: RootTemplatesModel | undefined,
  mutationTemplates?: MutationTemplatesModel): TemplateData {
  if (!templates) return { templates: [], roleTemplates: {}, root: null, mutation: null };
  const template = pool<SqlTemplate>();
  const ref = (t: SqlTemplate | null | undefined): number | null | undefined => (t === null || t === undefined ? t : template.ref(t));
  const roleTemplates = Object.fromEntries(Object.entries(templates.roles).map(([role, tables]) => [role,
    JSON.stringify(Object.fromEntries(Object.entries(tables).map(([table, p]) => [table,
      Object.fromEntries(PERMISSION_RULES.filter((r) => p[r] !== undefined).map((r) => [r, ref(p[r])]))])))]));
  if (!rootTemplates) return { templates: template.texts, roleTemplates, root: null, mutation: null };
  const sources = pool<SqlTemplate>();
  const columns = pool<readonly string[]>();
  const parts = pool<readonly unknown[]>();
  const rootPart = (t: RootTemplate): number => parts.refOf(t, () =>
    [t.table, sources.ref(t.source), t.filter === null ? null : template.ref(t.filter), columns.ref(t.columns), t.limit, t.aggregations]);
  const perRole = <T>(roles: { readonly [role: string]: { readonly [field: string]: T } }, index: (t: T) => number): { [role: string]: string } =>
    Object.fromEntries(Object.entries(roles).map(([role, fields]) => [role, JSON.stringify(Object.fromEntries(Object.entries(fields).map(([field, t]) => [field, index(t)])))]));
  const roles = perRole(rootTemplates.roles, rootPart);
  let mutation: TemplateData['mutation'] = null;
  if (mutationTemplates) {
    const writes = pool<readonly unknown[]>();
    const write = (w: WriteTemplate | undefined): number | null => (w === undefined ? null : writes.refOf(w, () =>
      [columns.ref(w.columns), w.presets, ref(w.check), ...(w.filter !== undefined ? [ref(w.filter)] : [])]));
    const mutationParts = pool<readonly unknown[]>();
    const mutationPart = (t: MutationTemplate): number => mutationParts.refOf(t, () => [t.table, sources.ref(t.target), write(t.insert), write(t.update),
      t.delete ? [ref(t.delete.filter)] : null, t.backendOnly, t.returning === null ? null : rootPart(t.returning), ...(t.function === undefined ? [] : [t.function])]);
    const mutationRoles = perRole(mutationTemplates.roles, mutationPart);
    mutation = { writes: writes.texts, parts: mutationParts.texts, roles: mutationRoles };
  }
  return { templates: template.texts, roleTemplates, root: { sources: sources.texts, columns: `[${columns.texts.join(',')}]`, parts: parts.texts, roles }, mutation };
}

/** Distinct values, each with its index: `ref` by JSON text, `refOf` by the object first (each object's text made once). */
interface Pool<T> {
  ref(value: T): number;
  /** The index of `value`, whose text is that of `encoded()` (called once per object). */
  refOf(value: object, encoded: () => T): number;
  readonly texts: string[];
}

function pool<T>(): Pool<T> {
  const index = new Map<string, number>();
  const byObject = new Map<object, number>();
  const texts: string[] = [];
  const byText = (json: string): number => {
    let i = index.get(json);
    if (i === undefined) {
      index.set(json, (i = texts.length));
      texts.push(json);
    }
    return i;
  };
  return {
    texts,
    ref(value: T): number {
      if (typeof value !== 'object' || value === null) return byText(JSON.stringify(value));
      let i = byObject.get(value);
      if (i === undefined) byObject.set(value, (i = byText(JSON.stringify(value))));
      return i;
    },
    refOf(value: object, encoded: () => T): number {
      let i = byObject.get(value);
      if (i === undefined) byObject.set(value, (i = byText(JSON.stringify(encoded()))));
      return i;
    },
  };
}

/** The number of characters of the templates' text (what decides whether they go to engine.json). */
export function templateDataSize(d: TemplateData): number {
  const sum = (texts: readonly string[]): number => texts.reduce((n, t) => n + t.length, 0);
  return sum(d.templates) + sum(Object.values(d.roleTemplates))
    + (d.root ? sum(d.root.sources) + d.root.columns.length + sum(d.root.parts) + sum(Object.values(d.root.roles)) : 0)
    + (d.mutation ? sum(d.mutation.writes) + sum(d.mutation.parts) + sum(Object.values(d.mutation.roles)) : 0);
}

/** engine.json's lines of the templates (a large model's). */
export function templateDataLines(d: TemplateData): string[] {
  const list = (texts: readonly string[]): string => `[${texts.map((t) => JSON.stringify(t)).join(',\n')}]`;
  return [`"templates":${list(d.templates)}`, `"roleTemplates":${JSON.stringify(d.roleTemplates)}`,
    ...(d.root ? [`"rootTemplates":{"sources":${list(d.root.sources)},\n"columns":${d.root.columns},\n"parts":${list(d.root.parts)},\n"roles":${JSON.stringify(d.root.roles)}}`] : []),
    ...(d.mutation ? [`"mutationTemplates":{"writes":${list(d.mutation.writes)},\n"parts":${list(d.mutation.parts)},\n"roles":${JSON.stringify(d.mutation.roles)}}`] : [])];
}

/** What the module's statements are built with: ts-morph, and a `const` declaration. */
export interface ModuleWriter {
  readonly m: typeof TsMorph;
  constant(name: string, initializer: string, doc?: string, isExported?: boolean): StatementStructures;
}

/**
 * The module's template statements: the texts (inline, or `data.*` of engine.json), their caches,
 * the roles' parts read on first use, `templates` and `rootTemplates` for the model, and the
 * exported `permissionTemplates(role)` and `rootTemplate(role, field)`.
 */
export function templateStatements(w: ModuleWriter, d: TemplateData, external: boolean): (string | StatementStructures)[] {
  const { m, constant } = w;
  const list = (texts: readonly string[]): string => `[\n${texts.map((t) => `  ${JSON.stringify(t)},`).join('\n')}\n]`;
  const fn = (name: string, parameters: string[], doc: string, statements: string[], isExported = false): StatementStructures =>
    ({ kind: m.StructureKind.Function, name, isExported, parameters: parameters.map((p) => ({ name: p })), docs: [doc], statements });
  const cached = (name: string, texts: string, doc: string): StatementStructures =>
    fn(name, ['i'], doc, [`return i === null || i === undefined ? i : (${texts}Cache[i] ??= JSON.parse(${texts}[i]));`]);
  const out: (string | StatementStructures)[] = [
    // Roles of a large schema mostly differ in row filters and limits, so many have the same part
    // text (at 1,000 tables x 20 roles, 3 distinct root parts and 15 permission parts): roles with
    // the same text share one decoded object (each is a map of thousands of fields).
    fn('lazyRoles', ['text', 'decode'], 'Per role, its part decoded from `text[role]` when the role is first read (a getter that then becomes the value); roles with the same text share it.', [
      'const roles = {};',
      'const decoded = new Map();',
      'for (const role of Object.keys(text)) {\n  Object.defineProperty(roles, role, { enumerable: true, configurable: true, get() {\n'
        + '    let value = decoded.get(text[role]);\n    if (value === undefined) decoded.set(text[role], (value = decode(JSON.parse(text[role]))));\n'
        + '    Object.defineProperty(roles, role, { value, enumerable: true });\n    return value;\n  } });\n}',
      'return roles;',
    ]),
    constant('templateText', external ? 'data.templates' : list(d.templates),
      'Permission predicates as SQL templates of their source\'s dialect, each distinct one written once (JSON text).'),
    constant('templateTextCache', '[]', 'The templates parsed so far, by index.'),
    cached('template', 'templateText', 'The template at index `i`, parsed on first use (null: no condition; undefined: not precompiled).'),
    constant('roleTemplateText', external ? 'data.roleTemplates' : JSON.stringify(d.roleTemplates),
      'Per role: table -> { select, insertCheck, updateFilter, updateCheck, deleteFilter: index of its template (null: every row) }, read on first use.'),
    constant('templateRoles', 'lazyRoles(roleTemplateText, (tables) => Object.fromEntries(Object.entries(tables).map(([table, p]) =>\n  [table, Object.fromEntries(Object.entries(p).map(([rule, i]) => [rule, template(i)]))])))',
      'Each role\'s templates per table.'),
    constant('templates', '{ roles: templateRoles }', 'The model\'s `templates`.'),
    fn('permissionTemplates', ['role'], 'A role\'s permission predicates per table, as SQL templates (undefined: no such role).',
      ['return Object.hasOwn(templateRoles, role) ? templateRoles[role] : undefined;'], true),
  ];
  if (!d.root) return out;
  const r = d.root;
  return [...out,
    constant('rootSourceText', external ? 'data.rootTemplates.sources' : list(r.sources), 'Root fields\' sources (a table\'s or a function\'s FROM item) as SQL templates, each distinct one written once (JSON text).'),
    constant('rootSourceTextCache', '[]', 'The sources parsed so far, by index.'),
    cached('rootSource', 'rootSourceText', 'The source at index `i`, parsed on first use.'),
    constant('rootColumns', external ? 'data.rootTemplates.columns' : `JSON.parse(${JSON.stringify(r.columns)})`, 'Each distinct list of the columns a role may read.'),
    constant('rootPartText', external ? 'data.rootTemplates.parts' : list(r.parts),
      'Each distinct root field template: [table, source, filter (a permission template; null: every row), columns, row limit (null: none), aggregations].'),
    constant('rootPartCache', '[]', 'The root templates read so far, by index.'),
    fn('rootPart', ['i'], 'The root template at index `i`, made on first use from its parts (shared objects).', [
      'return (rootPartCache[i] ??= (([table, source, filter, columns, limit, aggregations]) => {\n  const s = rootSource(source);\n'
        + '  return { dialect: s.dialect, table, source: s, filter: template(filter), columns: rootColumns[columns], limit, aggregations };\n})(JSON.parse(rootPartText[i])));',
    ]),
    constant('roleRootText', external ? 'data.rootTemplates.roles' : JSON.stringify(r.roles), 'Per role: root field -> index of its template, read on first use.'),
    constant('rootRoles', 'lazyRoles(roleRootText, (fields) => Object.fromEntries(Object.entries(fields).map(([field, i]) => [field, rootPart(i)])))',
      'Each role\'s root field templates.'),
    constant('rootTemplates', '{ roles: rootRoles }', 'The model\'s `rootTemplates`.'),
    fn('rootTemplate', ['role', 'field'], 'A root field\'s template for a role: its source, filter, columns, row limit and aggregation switch (undefined: none).',
      ['const fields = Object.hasOwn(rootRoles, role) ? rootRoles[role] : undefined;', 'return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;'], true),
    ...(d.mutation ? mutationStatements(w, d.mutation, external, list, fn) : []),
  ];
}

// The mutation templates' statements: write parts and templates parsed on first use (their
// sources, predicates, column lists and returning root templates shared with the rest), each
// role's part read on first use, `mutationTemplates` and the exported `mutationTemplate(role, field)`.
function mutationStatements(w: ModuleWriter, d: NonNullable<TemplateData['mutation']>, external: boolean, list: (texts: readonly string[]) => string,
  fn: (name: string, parameters: string[], doc: string, statements: string[], isExported?: boolean) => StatementStructures): StatementStructures[] {
  const { constant } = w;
  return [
    constant('mutationWriteText', external ? 'data.mutationTemplates.writes' : list(d.writes),
      'Each distinct insert or update part: [columns, presets, check (a permission template; null: none)], an update\'s with its filter after.'),
    constant('mutationWriteCache', '[]', 'The write parts read so far, by index.'),
    fn('mutationWrite', ['i'], 'The write part at index `i`, made on first use (undefined: none).', [
      'if (i === null) return undefined;',
      'return (mutationWriteCache[i] ??= ((part) => {\n  const [columns, presets, check] = part;\n'
        + '  return { columns: rootColumns[columns], presets, ...(part.length > 3 ? { filter: template(part[3]) } : {}), check: template(check) };\n})(JSON.parse(mutationWriteText[i])));',
    ]),
    constant('mutationPartText', external ? 'data.mutationTemplates.parts' : list(d.parts),
      'Each distinct mutation root field template: [table, target, insert part, update part, delete ([filter] or null), backend only, returning (a root template)], a function\'s with its id.'),
    constant('mutationPartCache', '[]', 'The mutation templates read so far, by index.'),
    fn('mutationPart', ['i'], 'The mutation template at index `i`, made on first use from its parts (shared objects).', [
      'return (mutationPartCache[i] ??= (([table, target, insert, update, del, backendOnly, returning, fn]) => {\n  const t = rootSource(target);\n'
        + '  return { dialect: t.dialect, table, target: t, ...(fn === undefined ? {} : { function: fn }), ...(insert === null ? {} : { insert: mutationWrite(insert) }), ...(update === null ? {} : { update: mutationWrite(update) }),\n'
        + '    ...(del === null ? {} : { delete: { filter: template(del[0]) } }), backendOnly, returning: returning === null ? null : rootPart(returning) };\n})(JSON.parse(mutationPartText[i])));',
    ]),
    constant('roleMutationText', external ? 'data.mutationTemplates.roles' : JSON.stringify(d.roles), 'Per role: mutation root field -> index of its template, read on first use.'),
    constant('mutationRoles', 'lazyRoles(roleMutationText, (fields) => Object.fromEntries(Object.entries(fields).map(([field, i]) => [field, mutationPart(i)])))',
      'Each role\'s mutation root field templates.'),
    constant('mutationTemplates', '{ roles: mutationRoles }', 'The model\'s `mutationTemplates`.'),
    fn('mutationTemplate', ['role', 'field'], 'A mutation root field\'s template for a role: the written table, columns, presets, checks and filters, returning (undefined: none).',
      ['const fields = Object.hasOwn(mutationRoles, role) ? mutationRoles[role] : undefined;', 'return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;'], true),
  ];
}
