import type * as TsMorph from 'ts-morph';
import type { StatementStructures } from 'ts-morph';
import type { BundleModel } from '../../runtime/bundle/index.js';
import { templateData, templateDataLines, templateDataSize, templateStatements, type TemplateData } from './module-templates.js';

/**
 * engine.mjs, written with ts-morph: its code (imports, declarations, functions, exports and their
 * doc comments) is built as ts-morph structures and printed, while the model's data stays JSON
 * text — a string literal parsed at load, or engine.json beside the module when large. The data is
 * never a syntax tree: an AST of a 1,000-table model took minutes in ts-morph and ran out of string
 * length, and V8 reads a large model as `JSON.parse` of a string several times faster than as an
 * object literal. The structures are printed without parsing the result back (`printStructure`),
 * so the time is that of writing the text once. Each role's SDL is not in it: the runtime reads a
 * role's schema file (manifest.json `schemas`) when the role is first used.
 *
 * A role's root fields, select permissions and write permissions are usually the same as other
 * roles' (roles of a large schema differ mostly in row filters and limits): each distinct one is
 * written once in `shared` and the roles refer to it, so the module and the loaded model stay small.
 */
export async function engineModule(model: BundleModel, dataOver = DATA_FILE_OVER): Promise<EngineModule> {
  const m = await tsMorph();
  const data = engineData(model);
  // A large model's data goes to engine.json beside the module: text inside a module stays in the
  // heap as long as the module is loaded (its source, and each literal again), 15 MB on a
  // 1,000-table schema; a file read at import is garbage once parsed.
  const size = data.shared.length + data.rest.length + (data.templates ? templateDataSize(data.templates) : 0);
  const external = size > dataOver;
  const module = m.printStructure({ kind: m.StructureKind.SourceFile, statements: moduleStatements(m, data, external) }, PRINT);
  return external ? { module, data: dataFile(data) } : { module };
}

/** A model whose data is larger than this (characters) has it in engine.json beside engine.mjs. */
export const DATA_FILE_OVER = 1024 * 1024;

/** engine.mjs, and engine.json when the model's data is written beside it. */
export interface EngineModule {
  readonly module: string;
  readonly data?: string;
}

/** How ts-morph prints the generated modules (engine.mjs, engine.d.ts). */
export const PRINT = { indentNumberOfSpaces: 2, useSingleQuote: true } as const;

let loading: Promise<typeof TsMorph> | undefined;
/** ts-morph, loaded when a module is first written: it carries TypeScript, which the rest of the CLI (`kiln serve`) never needs. */
export const tsMorph = (): Promise<typeof TsMorph> => (loading ??= import('ts-morph'));

/** The module's data as JSON text: the parts roles share, each role's references to them, the rest of the model, the templates. */
interface EngineData {
  /** `[part, part, ...]`: each distinct root-field set, select and write permission set, once. */
  readonly shared: string;
  /** Per role: the index in `shared` of its roots, select and (when the model has writes) mutation parts. */
  readonly roots: { readonly [role: string]: number };
  readonly select: { readonly [role: string]: number };
  readonly mutations: { readonly [role: string]: number } | null;
  /** The model without those parts. */
  readonly rest: string;
  /** The templates (module-templates.ts); null: the model has none. */
  readonly templates: TemplateData | null;
}

function engineData(model: BundleModel): EngineData {
  const pool = new Map<string, number>();
  const ref = (value: unknown): number => {
    const json = JSON.stringify(value);
    let i = pool.get(json);
    if (i === undefined) pool.set(json, (i = pool.size));
    return i;
  };
  // Each role's part: its index in `shared`.
  const perRole = (part: { readonly [role: string]: unknown } | undefined): { [role: string]: number } =>
    Object.fromEntries(Object.keys(part ?? {}).map((role) => [role, ref(part![role])]));
  const roots = perRole(model.roots);
  const select = perRole(model.select);
  const mutations = model.mutations ? perRole(model.mutations) : null;
  const { roots: _r, select: _s, mutations: _m, templates, rootTemplates, mutationTemplates, ...rest } = model;
  return { shared: `[${[...pool.keys()].join(',')}]`, roots, select, mutations, rest: JSON.stringify(rest),
    templates: templates ? templateData(templates, rootTemplates, mutationTemplates) : null };
}

// engine.json: the data of a large model, one part a line.
function dataFile(d: EngineData): string {
  const lines = [`"shared":${d.shared}`, `"model":${d.rest}`];
  if (d.templates) lines.push(...templateDataLines(d.templates));
  return `{${lines.join(',\n')}}\n`;
}

const constant = (m: typeof TsMorph, name: string, initializer: string, doc?: string, isExported = false): StatementStructures => ({
  kind: m.StructureKind.VariableStatement, declarationKind: m.VariableDeclarationKind.Const, isExported,
  ...(doc ? { docs: [doc] } : {}), declarations: [{ name, initializer }],
});

// JSON.parse of a string literal: V8 reads a large model that way several times faster than the
// same object literal (which it parses as JavaScript).
const parsed = (text: string): string => `JSON.parse(${JSON.stringify(text)})`;

function moduleStatements(m: typeof TsMorph, d: EngineData, external: boolean): (string | StatementStructures)[] {
  const pick = (name: string): string => `${name}: Object.fromEntries(Object.entries(${name}).map(([role, i]) => [role, shared[i]]))`;
  const parts = ['roots', 'select', ...(d.mutations ? ['mutations'] : [])];
  return [
    '// Generated by `kiln compile`. Do not edit: recompile from metadata instead.',
    ...(external ? [
      { kind: m.StructureKind.ImportDeclaration, namedImports: ['readFileSync'], moduleSpecifier: 'node:fs' } satisfies StatementStructures,
      constant(m, 'data', "JSON.parse(readFileSync(new URL('./engine.json', import.meta.url), 'utf8'))", 'The model\'s data, in engine.json beside this module (read once, at import).'),
    ] : []),
    constant(m, 'shared', external ? 'data.shared' : parsed(d.shared), 'Parts several roles have in common, each written once; roles refer to them by index.'),
    constant(m, 'roots', JSON.stringify(d.roots), 'Per role: the index of its root fields in `shared`.'),
    constant(m, 'select', JSON.stringify(d.select), 'Per role: the index of its select permissions in `shared`.'),
    ...(d.mutations ? [constant(m, 'mutations', JSON.stringify(d.mutations), 'Per role: the index of its write permissions in `shared`.')] : []),
    ...(d.templates ? templateStatements({ m, constant: (...a) => constant(m, ...a) }, d.templates, external) : []),
    constant(m, 'model', `{ ...${external ? 'data.model' : parsed(d.rest)}, ${parts.map(pick).join(', ')}${d.templates ? ', templates' : ''}${d.templates?.root ? ', rootTemplates' : ''}${d.templates?.mutation ? ', mutationTemplates' : ''} }`,
      'The resolved model: tables, roots and every role\'s permission predicates.', true),
    ...(d.templates ? [{
      kind: m.StructureKind.Function, name: 'rootFieldTemplates', isExported: true, parameters: [{ name: 'role' }, { name: 'field' }],
      docs: ['The templates a root field\'s statement completes for a role: the role\'s predicates on the field\'s table (undefined: no such field).'],
      statements: [
        'const r = Object.hasOwn(model.roots, role) ? model.roots[role] : undefined;',
        'const root = r && ((Object.hasOwn(r.query, field) && r.query[field]) || (Object.hasOwn(r.subscription, field) && r.subscription[field])\n  || (r.mutation && Object.hasOwn(r.mutation, field) && r.mutation[field]));',
        'return root ? permissionTemplates(role)?.[root.table] : undefined;',
      ],
    } satisfies StatementStructures] : []),
    constant(m, 'bundleFormat', '1', 'The bundle format this module is written in.', true),
  ];
}
