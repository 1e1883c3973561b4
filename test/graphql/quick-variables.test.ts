// The quick check of a request's variables (variable-values.ts quickVariables) may only accept:
// whatever it answers must be what the full check answers, and every value the full check refuses
// or reads otherwise (a default, a null, text for a number, a key not declared) goes to the full check.

import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkUnexpectedVariables, coerceVariables, quickVariables, type VariableUse } from '../../runtime/graphql/variable-values.js';

const schema = buildSchema(`
  scalar numeric
  enum color { red blue }
  input range { lo: Int }
  type Query {
    album(id: Int!, title: String, ratio: Float, live: Boolean, price: numeric, tint: color, within: range, ids: [Int!]): String
    albums(limit: Int, offset: Int): String
  }
`);

function operation(text: string): { defs: OperationDefinitionNode['variableDefinitions'] & object; use: VariableUse } {
  const op = parse(text).definitions[0] as OperationDefinitionNode;
  const defs = op.variableDefinitions ?? [];
  const usages = new Map<string, (string | number)[]>();
  const used = new Set<string>();
  // Each variable's use site, as the engine's walk records it (the argument it is given to).
  for (const sel of op.selectionSet.selections) {
    if (sel.kind !== 'Field') continue;
    for (const arg of sel.arguments ?? []) {
      if (arg.value.kind !== 'Variable') continue;
      usages.set(arg.value.name.value, ['selectionSet', sel.name.value, 'args', arg.name.value]);
      used.add(arg.value.name.value);
    }
  }
  return { defs, use: { usages, used, builtIns: new Set() } };
}

// What the full path answers: the value, or the refusal's message.
function full(defs: Parameters<typeof coerceVariables>[1], use: VariableUse, sent: unknown): unknown {
  try {
    const vars = sent as Record<string, unknown>;
    for (const def of defs) {
      if (def.type.kind === 'NonNullType' && vars[def.variable.name.value] === undefined) throw new Error('missing');
    }
    checkUnexpectedVariables(vars, use);
    return coerceVariables(schema, defs, vars, use);
  } catch (e) {
    return { refused: (e as Error).message };
  }
}

const SAMPLES: readonly unknown[] = [0, 1, -7, 2147483647, 2147483648, -2147483648, -2147483649, 1.5, 1e300, '1', 'abc', '', true, false, null, [], [1], {}, { lo: 1 }];

describe('the quick check of variables', () => {
  const { defs, use } = operation('query ($id: Int!, $title: String, $ratio: Float, $live: Boolean) { album(id: $id, title: $title, ratio: $ratio, live: $live) }');
  const quick = quickVariables(schema, defs, use, new Map());

  it('answers a plain request with the values the full check returns', () => {
    expect(quick).not.toBeNull();
    const sent = { id: 12, title: 'Fly', ratio: 0.5, live: false };
    expect(quick!(sent)).toEqual({ id: 12, title: 'Fly', ratio: 0.5, live: false });
    expect(quick!(sent)).toEqual(full(defs, use, sent));
  });

  it('never accepts what the full check refuses or reads otherwise, over every mix of sample values', () => {
    let vouched = 0;
    let left = 0;
    for (const id of SAMPLES) {
      for (const title of SAMPLES) {
        for (const live of [true, null, 3, undefined]) {
          const sent: Record<string, unknown> = { id, title, ratio: 2, ...(live === undefined ? {} : { live }) };
          const answer = quick!(sent);
          if (answer === undefined) {
            left += 1;
            continue;
          }
          vouched += 1;
          expect(answer).toEqual(full(defs, use, sent));
        }
      }
    }
    // Both ways are taken: Int and String values that fit, and everything else.
    expect(vouched).toBe(5 * 3);
    expect(left).toBe(SAMPLES.length * SAMPLES.length * 4 - vouched);
  });

  it('leaves to the full check a key not declared, a variable not sent, and a body that is no object', () => {
    expect(quick!({ id: 1, title: 'a', ratio: 1, live: true, extra: 1 })).toBeUndefined();
    expect(quick!({ id: 1, title: 'a', ratio: 1 })).toBeUndefined();
    expect(quick!({ id: 1, title: 'a', ratio: 1, live: undefined })).toBeUndefined();
    expect(quick!(null)).toBeUndefined();
    expect(quick!(undefined)).toBeUndefined();
    expect(quick!([1, 2, 3, 4])).toBeUndefined();
    expect(quick!(JSON.parse('{"id":1,"title":"a","ratio":1,"live":true,"__proto__":1}'))).toBeUndefined();
    // The full check's own answers for the same requests: refusals where the quick one stood aside.
    expect(full(defs, use, { id: 1, title: 'a', ratio: 1, live: true, extra: 1 })).toEqual({ refused: 'unexpected variables in variableValues: extra' });
    expect(full(defs, use, { id: '5', title: 'a', ratio: 1, live: true })).toEqual({ id: '5', title: 'a', ratio: 1, live: true });
  });

  it('is not made for an operation with a variable of another kind', () => {
    const kinds = [
      'query ($id: Int! = 3) { album(id: $id) }',
      'query ($id: Int!, $price: numeric) { album(id: $id, price: $price) }',
      'query ($id: Int!, $tint: color) { album(id: $id, tint: $tint) }',
      'query ($id: Int!, $within: range) { album(id: $id, within: $within) }',
      'query ($id: Int!, $ids: [Int!]) { album(id: $id, ids: $ids) }',
      'query ($id: Int!, $unused: String) { album(id: $id) }',
      'query ($n: Int) { albums(offset: $n) }',
    ];
    for (const text of kinds) {
      const op = operation(text);
      expect(quickVariables(schema, op.defs, op.use, new Map()), text).toBeNull();
    }
    const limited = operation('query ($n: Int) { albums(limit: $n) }');
    expect(quickVariables(schema, limited.defs, limited.use, new Map([['n', ['selectionSet', 'albums', 'args', 'limit']]]))).toBeNull();
    // The same operation without the limit's use site is one the quick check takes.
    expect(quickVariables(schema, limited.defs, limited.use, new Map())).not.toBeNull();
  });
});
