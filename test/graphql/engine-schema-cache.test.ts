// The engine's schema cache: roles that see the same schema share one GraphQLSchema, and only a
// bounded number are kept (a 1,000-table schema is tens of megabytes).
import { describe, expect, it } from 'vitest';
import { Engine } from '../../runtime/graphql/index.js';
import { RemoteServing } from '../../runtime/remote/index.js';
import { schemaWeight } from '../../runtime/graphql/lazy-schema.js';
import { compileFixture } from '../helpers/fixtures.js';

describe('engine schema cache', async () => {
  const bundle = await compileFixture('blog');
  const noDb = () => { throw new Error('no database in this test'); };
  const [a, b] = bundle.model.roles.filter((r) => r !== 'admin');
  // Two roles given the same SDL (as a bundle does for roles whose schema is stored once).
  const sdl = { ...bundle.sdl, [b!]: bundle.sdl[a!]! };

  it('builds one schema for roles with the same SDL', () => {
    const engine = new Engine({ model: bundle.model, sdl, driverFor: noDb });
    expect(engine.schemaFor(a!)).toBe(engine.schemaFor(b!));
    expect(engine.schemaFor('admin')).not.toBe(engine.schemaFor(a!));
  });

  it('shares by the key a bundle gives, without reading the SDL of a role already keyed', () => {
    let reads = 0;
    const lazy = Object.fromEntries(Object.keys(sdl).map((r) => [r, r]));
    const counted = new Proxy(sdl, { get: (t, p: string) => { reads++; return t[p]; } });
    const engine = new Engine({ model: bundle.model, sdl: counted, sdlKey: { ...lazy, [b!]: a!, [a!]: a! }, driverFor: noDb });
    const first = engine.schemaFor(a!);
    expect(engine.schemaFor(b!)).toBe(first);
    expect(reads).toBe(1);
    engine.schemaFor(b!);
    expect(reads).toBe(1);
  });

  it('keeps at most schemaCacheSize schemas, building an evicted one again when used', () => {
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb, schemaCacheSize: 1 });
    const first = engine.schemaFor(a!);
    expect(engine.schemaFor(a!)).toBe(first);
    engine.schemaFor('admin');
    const again = engine.schemaFor(a!);
    expect(again).not.toBe(first);
    expect(again.getQueryType()!.getFields()).toEqual(expect.objectContaining(Object.fromEntries(Object.keys(first.getQueryType()!.getFields()).map((f) => [f, expect.anything()]))));
  });
});

describe('schemas kept from the engine a metadata change replaces', async () => {
  const bundle = await compileFixture('blog');
  const noDb = () => { throw new Error('no database in this test'); };
  const [a, b] = bundle.model.roles.filter((r) => r !== 'admin');
  const make = (over: Partial<ConstructorParameters<typeof Engine>[0]> = {}): Engine => new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb, ...over });

  it("takes the previous engine's schema of a role whose SDL is the same, and builds the others again", () => {
    const before = make();
    const kept = before.schemaFor(a!);
    const changed = before.schemaFor(b!);
    const after = make({ previous: before, sdl: { ...bundle.sdl, [b!]: `${bundle.sdl[b!]!}\n` } });
    expect(after.schemaFor(a!)).toBe(kept);
    expect(after.schemaFor(b!)).not.toBe(changed);
    // Without `previous` nothing is shared between engines.
    expect(make().schemaFor(a!)).not.toBe(kept);
  });

  it('keeps them where the served remote schemas stitch nothing in (the metadata API always passes its remote serving)', () => {
    const none = new RemoteServing([], null, bundle.model);
    const before = make({ remote: none });
    const kept = before.schemaFor(a!);
    expect(make({ previous: before, remote: new RemoteServing([], null, bundle.model) }).schemaFor(a!)).toBe(kept);
  });

  it('builds every schema again when a column became NOT NULL (input types are marked from the columns)', () => {
    const before = make();
    const kept = before.schemaFor(a!);
    const [id, t] = Object.entries(bundle.model.tables).find(([, table]) => table.columns.some((c) => c.nullable))!;
    const i = t.columns.findIndex((c) => c.nullable);
    const columns = t.columns.map((c, j) => (j === i ? { ...c, nullable: false } : c));
    const model = { ...bundle.model, tables: { ...bundle.model.tables, [id]: { ...t, columns } } };
    expect(make({ previous: before, model }).schemaFor(a!)).not.toBe(kept);
    // The same columns in new objects (a recompile of an unchanged table) keep it.
    const copied = { ...bundle.model, tables: { ...bundle.model.tables, [id]: { ...t, columns: t.columns.map((c) => ({ ...c })) } } };
    expect(make({ previous: before, model: copied }).schemaFor(a!)).toBe(kept);
  });
});

describe('engine schema cache budget', async () => {
  const bundle = await compileFixture('blog');
  const noDb = () => { throw new Error('no database in this test'); };
  const [a] = bundle.model.roles.filter((r) => r !== 'admin');
  const query = '{ article(limit: 1, where: {title: {_ilike: "%a%"}}) { id title author { name } } }';
  // Prepares a query (parse, validate: types are built) without a database.
  const prepare = (engine: Engine, role: string, text = query): void => engine.checkLimits({ query: text, variables: {}, operationName: null }, { role, variables: {} } as never);

  it('weighs a schema by the types it has built, not by its whole SDL', () => {
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb });
    const first = engine.schemaFor(a!);
    const roots = schemaWeight(first);
    prepare(engine, a!);
    const built = schemaWeight(first);
    expect(built).toBeGreaterThan(roots);
    expect(built).toBeLessThan(bundle.sdl[a!]!.length);
    expect(engine.schemaFor(a!)).toBe(first);
  });

  it('drops the least recently used schema when the kept ones have built more than the budget', () => {
    const probe = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb });
    prepare(probe, a!);
    prepare(probe, 'admin');
    const one = Math.max(schemaWeight(probe.schemaFor(a!)), schemaWeight(probe.schemaFor('admin')));
    // Room for one schema's types, not two.
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb, schemaCacheSdlChars: one + 10 });
    prepare(engine, a!);
    const first = engine.schemaFor(a!);
    expect(engine.schemaFor(a!)).toBe(first);
    prepare(engine, 'admin');
    const admin = engine.schemaFor('admin');
    expect(engine.schemaFor(a!)).not.toBe(first);
    // The rebuilt schema answers as the first did.
    prepare(engine, a!);
    expect(engine.schemaFor('admin')).not.toBe(admin);
  });

  it('drops a schema that alone outgrows the budget after the request that built it', () => {
    const roots = schemaWeight(new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb }).schemaFor(a!));
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb, schemaCacheSdlChars: roots + 10 });
    const first = engine.schemaFor(a!);
    expect(engine.schemaFor(a!)).toBe(first);
    prepare(engine, a!);
    const again = engine.schemaFor(a!);
    expect(again).not.toBe(first);
    expect(schemaWeight(again)).toBe(roots);
  });
});

describe('engine Relay caches', async () => {
  const bundle = await compileFixture('blog');
  const noDb = () => { throw new Error('no database in this test'); };
  const [a] = bundle.model.roles.filter((r) => r !== 'admin');

  it('builds a role\'s Relay schema once and keeps it', () => {
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb });
    const relay = engine.relaySchemaFor(a!);
    expect(engine.relaySchemaFor(a!)).toBe(relay);
    expect(relay).not.toBe(engine.schemaFor(a!));
    expect(relay.getType('Node')).toBeDefined();
  });

  it('keeps at most relayCacheSize roles\' Relay schemas and Relay engines', () => {
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb, relayCacheSize: 1 });
    const first = engine.relaySchemaFor(a!);
    engine.relaySchemaFor('admin');
    expect(engine.relaySchemaFor(a!)).not.toBe(first);
    const engines = engine as unknown as { relayEngineFor(role: string): Engine; relayEngines: { size: number } };
    for (const role of bundle.model.roles) engines.relayEngineFor(role);
    expect(bundle.model.roles.length).toBeGreaterThan(1);
    expect(engines.relayEngines.size).toBe(1);
  });
});

describe('engine Relay variant from a bundle\'s schema files', async () => {
  const bundle = await compileFixture('blog');
  const noDb = () => { throw new Error('no database in this test'); };
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');

  it('makes the key of a table readable to the Relay rewrite when the role\'s SDL is read from a file', () => {
    // The reader may not read author.id: its SDL has no such field, the Relay variant adds it.
    const author = Object.values(bundle.model.tables).find((t) => t.name === 'author')!;
    const perm = bundle.model.select['reader']![author.id]!;
    const model = { ...bundle.model, rootTemplates: undefined, select: { ...bundle.model.select, reader: { ...bundle.model.select['reader'], [author.id]: { ...perm, columns: perm.columns.filter((c) => c !== 'id') } } } };
    const sdl = bundle.sdl['reader']!.replace(/(\ntype author \{[\s\S]*?)\n {2}id: Int!/, '$1');
    expect(sdl).not.toBe(bundle.sdl['reader']);
    const dir = mkdtempSync(join(tmpdir(), 'kiln-relay-'));
    writeFileSync(join(dir, 'reader.graphql'), sdl);
    const engine = new Engine({ model: model as never, sdl: {}, sdlFiles: { reader: join(dir, 'reader.graphql') }, driverFor: noDb });
    expect((engine.schemaFor('reader').getType('author') as import('graphql').GraphQLObjectType).getFields()['id']).toBeUndefined();
    const variant = (engine as unknown as { relayEngineFor(role: string): Engine }).relayEngineFor('reader');
    expect((variant.schemaFor('reader').getType('author') as import('graphql').GraphQLObjectType).getFields()['id']).toBeDefined();
    // The Relay schema itself has the global id there, not the key column.
    expect(String((engine.relaySchemaFor('reader').getType('author') as import('graphql').GraphQLObjectType).getFields()['id']!.type)).toBe('ID!');
  });
});
