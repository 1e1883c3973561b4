// The engine's schema cache: roles that see the same schema share one GraphQLSchema, and only a
// bounded number are kept (a 1,000-table schema is tens of megabytes).
import { describe, expect, it } from 'vitest';
import { Engine } from '../../runtime/graphql/index.js';
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

describe('engine schema cache budget', async () => {
  const bundle = await compileFixture('blog');
  const noDb = () => { throw new Error('no database in this test'); };
  const [a] = bundle.model.roles.filter((r) => r !== 'admin');

  it('keeps schemas within the SDL budget, and one larger than the budget alone', () => {
    const engine = new Engine({ model: bundle.model, sdl: bundle.sdl, driverFor: noDb, schemaCacheSdlChars: bundle.sdl[a!]!.length + 10 });
    const first = engine.schemaFor(a!);
    expect(engine.schemaFor(a!)).toBe(first);
    const admin = engine.schemaFor('admin');
    expect(engine.schemaFor('admin')).toBe(admin);
    expect(engine.schemaFor(a!)).not.toBe(first);
  });
});
