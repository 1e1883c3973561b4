// coerceVariables reads what a variable's definition declares (its type looked up in the schema,
// its report path) once per prepared operation, not on every request: the engine makes a new
// VariableUse object per request around the operation's use-site maps, so those maps are the key.

import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { coerceVariables } from '../../runtime/graphql/variable-values.js';

describe('variable definitions read once per prepared operation', () => {
  it('looks a declared type up on the first request only, and reports errors at the same path after', () => {
    const schema = buildSchema('type Query { album(id: Int!): String }');
    let lookups = 0;
    const getType = schema.getType.bind(schema);
    schema.getType = (name: string) => { lookups += 1; return getType(name); };
    const op = parse('query ($id: Int!) { album(id: $id) }').definitions[0] as OperationDefinitionNode;
    const defs = op.variableDefinitions ?? [];
    const usages = new Map([['id', ['selectionSet', 'album', 'args', 'id']]]);
    const used = new Set(['id']);
    const builtIns = new Set<string>();
    expect(coerceVariables(schema, defs, { id: 3 }, { usages, used, builtIns })).toEqual({ id: 3 });
    const first = lookups;
    expect(first).toBeGreaterThan(0);
    expect(coerceVariables(schema, defs, { id: 4 }, { usages, used, builtIns })).toEqual({ id: 4 });
    expect(lookups).toBe(first);
    // The cached path is the one errors are reported at, request after request.
    for (let i = 0; i < 2; i++) {
      expect(() => coerceVariables(schema, defs, { id: true }, { usages, used, builtIns }))
        .toThrow(expect.objectContaining({ message: 'expected a 32-bit integer for type "Int", but found a boolean', path: ['selectionSet', 'album', 'args', 'id'] }));
    }
    // Another operation's use sites (another prepared operation) read the definition again.
    coerceVariables(schema, defs, { id: 5 }, { usages: new Map(usages), used, builtIns });
    expect(lookups).toBeGreaterThan(first);
  });
});
