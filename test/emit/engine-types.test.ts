// engine.d.ts: per role, the schema's row types and each root field's operation types, valid
// TypeScript under strict settings.
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
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
