import { join } from 'node:path';
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, graphqlSync, Kind, parseValue, printSchema, validateSchema,
  type GraphQLScalarType, type IntrospectionQuery,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildRoleSchema, buildRoleSchemas, literalValue, printRoleSchema } from '../../compiler/schema/index.js';
import { model } from './model-fixture.js';
import { expectNoOrphanGoldens } from '../helpers/goldens.js';

const schemas = buildRoleSchemas(model);

describe.each(Object.keys(schemas))('role %s', (role) => {
  const schema = schemas[role]!;
  const sdl = printRoleSchema(schema);

  it('is a valid GraphQL schema', () => {
    expect(validateSchema(schema)).toEqual([]);
  });

  it('answers the standard introspection query', () => {
    const result = graphqlSync({ schema, source: getIntrospectionQuery({ descriptions: true }) });
    expect(result.errors).toBeUndefined();
    const data = result.data as unknown as IntrospectionQuery;
    expect(data.__schema.queryType.name).toBe('query_root');
    // The introspection result describes the same schema.
    expect(printSchema(buildClientSchema(data))).toBe(printSchema(schema));
  });

  it('round-trips its SDL through buildSchema', () => {
    const rebuilt = buildSchema(sdl);
    expect(validateSchema(rebuilt)).toEqual([]);
    expect(printRoleSchema(rebuilt)).toBe(sdl);
  });

  it('prints the same SDL when built again, alone or with the other roles', () => {
    expect(printRoleSchema(buildRoleSchema(model, role))).toBe(sdl);
  });

  it('matches its reviewed SDL', async () => {
    await expect(sdl).toMatchFileSnapshot(`__snapshots__/${role}.graphql`);
  });
});

it('keeps no reviewed SDL of a role the model no longer has', () => {
  expectNoOrphanGoldens(join(import.meta.dirname, '__snapshots__'), Object.keys(schemas).map((r) => `${r}.graphql`));
});

it('lists types sorted by name in the printed SDL', () => {
  const sdl = printRoleSchema(schemas['admin']!);
  const names = [...sdl.matchAll(/^(?:type|input|enum|scalar) (\w+)/gm)].map((m) => m[1]!);
  expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  expect(names).toContain('order_by');
});

it('executes a query whose literals go through the custom scalars', () => {
  const schema = schemas['admin']!;
  const rows = [{ id: 1, title: 'a', author_id: 1, views: '9007199254740993' }];
  const seen: unknown[] = [];
  const fields = schema.getQueryType()!.getFields();
  fields['article']!.resolve = (_src, args) => { seen.push(args['where']); return rows; };
  try {
    const result = graphqlSync({
      schema,
      source: '{ article(where: {views: {_gt: 9007199254740993}, author: {info: {_contains: {a: [1, "x", null]}}}}) { id views } }',
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ article: [{ id: 1, views: '9007199254740993' }] });
    expect(seen).toEqual([{ views: { _gt: '9007199254740993' }, author: { info: { _contains: { a: [1, 'x', null] } } } }]);
  } finally {
    delete fields['article']!.resolve;
  }
});

it('converts literals: exact numbers keep their text, variables are looked up', () => {
  expect(literalValue(parseValue('123456789012345678901.5'), undefined, true)).toBe('123456789012345678901.5');
  expect(literalValue(parseValue('12.5'), undefined, false)).toBe(12.5);
  expect(literalValue(parseValue('{a: [true, $v, RED]}'), { v: { b: 2 } }, false)).toEqual({ a: [true, { b: 2 }, 'RED'] });
  expect(literalValue({ kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: 'missing' } }, {}, false)).toBeNull();
  const jsonb = schemas['admin']!.getType('jsonb') as GraphQLScalarType;
  expect(jsonb.parseValue({ x: 1 })).toEqual({ x: 1 });
  expect(jsonb.parseLiteral(parseValue('{x: 1.5}'), undefined)).toEqual({ x: 1.5 });
  const numeric = schemas['admin']!.getType('numeric') as GraphQLScalarType;
  expect(numeric.parseLiteral(parseValue('0.1000000000000000000001'), undefined)).toBe('0.1000000000000000000001');
});
