// engine.d.ts: per role, the schema's row types and each root field's operation types, valid
// TypeScript under strict settings.
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { engineTypes } from '../../compiler/emit/types.js';
import { compileFixture } from '../helpers/fixtures.js';

describe('engine.d.ts', async () => {
  const bundle = await compileFixture('blog');
  const dts = bundle.files.get('engine.d.ts')!;

  it('type-checks under strict settings', () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    project.createSourceFile('engine.d.ts', dts);
    const problems = project.getPreEmitDiagnostics().map((d) => d.getMessageText().toString());
    expect(problems).toEqual([]);
  });

  it('has a namespace per role with row types limited to what the role may read', () => {
    for (const role of bundle.model.roles) expect(dts).toContain(`export declare namespace Role_${role} {`);
    const user = dts.slice(dts.indexOf('namespace Role_user'));
    expect(user).toMatch(/export type AuthorByIdQuery = \{ author_by_id: \{ id: number, name: string, email: string, rating: string \| number \| null, profile: unknown \} \| null \};/);
    const reader = dts.slice(dts.indexOf('namespace Role_reader'), dts.indexOf('namespace Role_user'));
    expect(reader).toMatch(/export type AuthorByIdQuery = \{ author_by_id: \{ id: number, name: string \} \| null \};/);
  });

  it('types the variables of a root field that takes arguments', () => {
    expect(dts).toMatch(/export type SearchArticlesQueryVariables = Exact<\{\s+search: string;\s+\}>;/);
  });
});

describe('engine.d.ts types the permission templates of engine.mjs', async () => {
  const bundle = await compileFixture('chinook');
  const dts = bundle.files.get('engine.d.ts')!;

  it('a consumer reads a role\'s filter template by role and table, type-checked under strict settings', () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    project.createSourceFile('engine.d.ts', dts);
    project.createSourceFile('use.ts', [
      "import { permissionTemplates, type SqlTemplate } from './engine';",
      "const t: SqlTemplate | null | undefined = permissionTemplates('customer')['default:public.invoice'].select;",
      "const text: readonly string[] | undefined = t?.text;",
      "const other = permissionTemplates('someone');",
      'export { text, other };',
    ].join('\n'));
    expect(project.getPreEmitDiagnostics().map((d) => d.getMessageText().toString())).toEqual([]);
    // A table the role may not read is no member of its type.
    project.createSourceFile('wrong.ts', "import { permissionTemplates } from './engine';\nexport const t = permissionTemplates('customer')['default:public.artist'];\n");
    expect(project.getPreEmitDiagnostics().length).toBeGreaterThan(0);
  }, 120_000); // a whole TypeScript program is checked: 3 s alone, over 30 s on a loaded machine
});

describe('engine.d.ts role namespaces refer to the first one where their types are the same', () => {
  // The first role can update (its stream cursor input has the body of its set input, so it is
  // printed as an alias of it); the second cannot, and sees one column less on B.
  const admin = `type Query { a: [A!]! }
type A { id: Int!, b: B }
type B { id: Int!, note: String }
input A_set_input { id: Int }
input A_stream_cursor_value_input { id: Int }
input B_order_by { id: order_by, note: order_by }
enum order_by { asc, desc }`;
  const reader = `type Query { a: [A!]! }
type A { id: Int!, b: B }
type B { id: Int! }
input A_stream_cursor_value_input { id: Int }
input B_order_by { id: order_by, note: order_by }
enum order_by { asc, desc }`;

  it('aliases what is the same with everything it names, writes again what names a type that differs', async () => {
    const dts = await engineTypes({ admin, reader });
    const ns = dts.slice(dts.indexOf('namespace Role_reader'));
    // The same body, though the first namespace printed it as an alias of its set input.
    expect(ns).toContain('export type A_stream_cursor_value_input = $.A_stream_cursor_value_input;');
    expect(ns).toContain('export type order_by = $.order_by;');
    expect(ns).toContain('export type B_order_by = $.B_order_by;');
    // B differs; A has the same text but names B, so it is this namespace's own.
    expect(ns).not.toContain('export type B = $.B;');
    expect(ns).not.toContain('export type A = $.A;');
    expect(ns).toMatch(/export type A = \{ __typename\?: 'A'; id: number; b: B \| null; \};/);
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    project.createSourceFile('engine.d.ts', dts);
    project.createSourceFile('use.ts', [
      "import type { Role_admin, Role_reader } from './engine';",
      'const cursor: Role_admin.A_set_input = {} as Role_reader.A_stream_cursor_value_input;',
      "const a: Role_reader.A = { id: 1, b: { id: 2 } };",
      'export { cursor, a };',
    ].join('\n'));
    expect(project.getPreEmitDiagnostics().map((d) => d.getMessageText().toString())).toEqual([]);
    // The reader's B has no note: an admin row's B with one is no reader B.
    project.createSourceFile('wrong.ts', "import type { Role_reader } from './engine';\nexport const a: Role_reader.A = { id: 1, b: { id: 2, note: 'x' } };\n");
    expect(project.getPreEmitDiagnostics().length).toBeGreaterThan(0);
  }, 120_000);
});
