// engine.mjs of a large model reads its data from engine.json beside it (text inside a module
// stays in the heap while the module is loaded): the module gives the same model either way.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Project } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { engineModule } from '../../compiler/emit/module.js';
import { compileFixture } from '../helpers/fixtures.js';

type Loaded = { model: unknown; permissionTemplates: (role: string) => unknown };

describe('engine.mjs with its data in engine.json', async () => {
  const bundle = await compileFixture('chinook');
  const dir = await mkdtemp(join(tmpdir(), 'kiln-engine-module-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const load = async (sub: string, over: number): Promise<{ loaded: Loaded; text: string; data?: string }> => {
    const { module, data } = await engineModule(bundle.model, over);
    await writeFile(join(dir, `${sub}.mjs`), module);
    if (data !== undefined) await writeFile(join(dir, 'engine.json'), data);
    return { loaded: (await import(pathToFileURL(join(dir, `${sub}.mjs`)).href)) as Loaded, text: module, ...(data !== undefined ? { data } : {}) };
  };

  it('keeps a small model inline, and gives the same model and templates from engine.json', async () => {
    const inline = await load('inline', Number.MAX_SAFE_INTEGER);
    expect(inline.data).toBeUndefined();
    const split = await load('split', 0);
    expect(split.data).toBeDefined();
    expect(split.text.length).toBeLessThan(inline.text.length);
    expect(split.text).not.toContain('"tables"');
    expect(JSON.parse(JSON.stringify(split.loaded.model))).toEqual(JSON.parse(JSON.stringify(inline.loaded.model)));
    for (const role of bundle.model.roles) expect(split.loaded.permissionTemplates(role)).toEqual(inline.loaded.permissionTemplates(role));
    // Deterministic: the same model gives the same two files.
    expect(await engineModule(bundle.model, 0)).toEqual(await engineModule(bundle.model, 0));
  });

  it('decodes a role\'s part on first use, once for every role with the same part', async () => {
    // A copy of `customer` (roles of a large schema mostly differ in filters and limits only, so
    // many have the same parts): both roles get one decoded object, each a map of every field.
    const m = bundle.model;
    const model = { ...m, roles: [...m.roles, 'customer_copy'].sort(),
      templates: { roles: { ...m.templates!.roles, customer_copy: m.templates!.roles['customer']! } },
      rootTemplates: { roles: { ...m.rootTemplates!.roles, customer_copy: m.rootTemplates!.roles['customer']! } } };
    const { module } = await engineModule(model, Number.MAX_SAFE_INTEGER);
    await writeFile(join(dir, 'copied.mjs'), module);
    const mod = (await import(pathToFileURL(join(dir, 'copied.mjs')).href)) as Loaded
      & { model: { rootTemplates: { roles: { [role: string]: object } }; templates: { roles: { [role: string]: object } } } };
    const { roles } = mod.model.rootTemplates;
    expect(typeof Object.getOwnPropertyDescriptor(roles, 'customer_copy')!.get).toBe('function');
    expect(roles['customer_copy']).toBe(roles['customer']);
    expect(mod.permissionTemplates('customer_copy')).toBe(mod.permissionTemplates('customer'));
    expect(mod.model.templates.roles['customer_copy']).toBe(mod.model.templates.roles['customer']);
    // A role whose part differs has its own.
    expect(roles['admin']).not.toBe(roles['customer']);
    expect(mod.permissionTemplates('admin')).not.toBe(mod.permissionTemplates('customer'));
  });
});

describe('engine.mjs is written by ts-morph and typed by engine.d.ts', async () => {
  const bundle = await compileFixture('chinook');
  const dts = bundle.files.get('engine.d.ts')!;

  it('declares in engine.d.ts each export of engine.mjs, each with its doc comment, with the data inline or in engine.json', async () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, strict: true, noEmit: true } });
    const types = project.createSourceFile('engine.d.ts', dts);
    const declared = [...types.getExportedDeclarations().keys()].filter((n) => !n.startsWith('Role_')).sort();
    for (const over of [Number.MAX_SAFE_INTEGER, 0]) {
      const js = project.createSourceFile(`engine-${over}.mjs`, (await engineModule(bundle.model, over)).module);
      // Valid JavaScript: no syntax error in what ts-morph printed.
      expect(js.getPreEmitDiagnostics().filter((d) => d.getCategory() === 1).map((d) => d.getMessageText().toString())).toEqual([]);
      const exported = [...js.getExportedDeclarations().keys()].sort();
      expect(exported).toEqual(['bundleFormat', 'model', 'mutationTemplate', 'permissionTemplates', 'rootFieldTemplates', 'rootTemplate']);
      // Every value engine.mjs exports is declared in engine.d.ts, which adds only types.
      for (const name of exported) expect(declared).toContain(name);
      for (const name of declared.filter((n) => !exported.includes(n))) {
        expect(types.getExportedDeclarations().get(name)!.every((d) => d.getKindName().endsWith('InterfaceDeclaration') || d.getKindName() === 'TypeAliasDeclaration')).toBe(true);
      }
      for (const f of js.getFunctions()) expect(f.getJsDocs().length).toBe(1);
      for (const v of js.getVariableStatements()) expect(v.getJsDocs().length).toBe(1);
    }
  });
});

