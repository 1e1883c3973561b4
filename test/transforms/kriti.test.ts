// The Kriti language: each construct, each built-in function, each error with its position.
import { describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/bundle/index.js';
import { parseStringTemplate, parseTemplate, runTemplate, transformFunctions } from '../../runtime/transforms/index.js';

const body: Json = {
  event: { op: 'INSERT', data: { old: null, new: { id: 7, name: 'ann lee', tags: ['a', 'b'], meta: { 'unit price': 9.5 } } } },
  input: { total: 50, items: [{ sku: 'A1', qty: 2 }, { sku: 'B2', qty: null }], note: '  ' },
};
const session = { 'x-svc-role': 'user', 'x-svc-user-id': '42' };

function evalWith(src: string, parse = parseTemplate): { kind: 'ok'; value: Json } | { kind: 'error'; error: unknown } {
  const p = parse(src);
  if (p.kind === 'error') return { kind: 'error', error: p.error };
  return runTemplate(p.template, { $body: body, $session_variables: session, $list: [1, 2, 3] }, transformFunctions(session));
}

function value(src: string): Json {
  const r = evalWith(src);
  if (r.kind === 'error') throw new Error(`unexpected error: ${JSON.stringify(r.error)}`);
  return r.value;
}

function failure(src: string): unknown {
  const r = evalWith(src);
  if (r.kind === 'ok') throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
}

function pos(startColumn: number, endColumn: number, line = 0, endLine = line) {
  return { start_line: line, start_column: startColumn, end_line: endLine, end_column: endColumn };
}

describe('Kriti literals and JSON', () => {
  it('reads JSON as a template', () => {
    expect(value('{"a": [1, -2.5, 1e2, true, false, null], "b": {"c": "d"}}')).toEqual({ a: [1, -2.5, 100, true, false, null], b: { c: 'd' } });
  });
  it('decodes string escapes, keeps \\/ as written, and treats \\{ and a lone { as literal', () => {
    expect(value('"a\\"b\\\\c\\nd\\u0041\\/ \\{{x}} {y"')).toBe('a"b\\c\ndA\\/ {{x}} {y');
  });
  it('closes nested objects written with }}', () => {
    expect(value('{"a": {"b": 1}}')).toEqual({ a: { b: 1 } });
  });
  it('skips # comments', () => {
    expect(value('{"a": 1 # one\n}')).toEqual({ a: 1 });
  });
});

describe('Kriti paths and interpolation', () => {
  it('follows dotted paths, quoted keys and indexes', () => {
    expect(value('{"id": {{$body.event.data.new.id}}, "op": {{$body.event.op}}}')).toEqual({ id: 7, op: 'INSERT' });
    expect(value("{{ $body.event.data.new.meta['unit price'] }}")).toBe(9.5);
    expect(value('{{ $body.event.data.new.tags[1] }}')).toBe('b');
    expect(value("{{ $session_variables['x-svc-role'] }}")).toBe('user');
  });
  it('allows - inside identifiers, so session variable names are plain paths', () => {
    expect(value('{{ $session_variables.x-svc-user-id }}')).toBe('42');
  });
  it('interpolates strings raw and other values as compact JSON', () => {
    expect(value('{"msg": "user {{$body.event.data.new.id}} is {{toTitle($body.event.data.new.name)}}"}')).toEqual({ msg: 'user 7 is Ann Lee' });
    expect(value('"{{$body.event.data.new.tags}}"')).toBe('["a","b"]');
    expect(value('"{{ null }}-{{ true }}"')).toBe('null-true');
  });
  it('wraps any expression in {{ }}, even inside arrays', () => {
    expect(value('[1, {{ 2 }}]')).toEqual([1, 2]);
  });
});

describe('Kriti optional chaining and defaulting', () => {
  it('gives null for a missing step after ?', () => {
    expect(value('{{ $body.event.data.new?.tags[5] }}')).toBe(null);
    expect(value('{{ $body?.nope.deeper }}')).toBe(null);
    expect(value('{{ nope? }}')).toBe(null);
  });
  it('defaults null with ??', () => {
    expect(value('{{ $body.event.data.old?.id ?? 0 }}')).toBe(0);
    expect(value('{{ $body.event.op ?? "x" }}')).toBe('INSERT');
  });
  it('raises a Type Error for ?-steps into a scalar', () => {
    expect(failure('{{ $body.event.op?.x }}')).toEqual({
      error_code: 'Type Error', message: "Couldn't match expected type 'Object' with actual type 'String'", source_position: pos(4, 21),
    });
  });
});

describe('Kriti operators', () => {
  it('compares deeply and orders numbers and strings', () => {
    expect(value('[{{ 1 == 1.0 }}, {{ [1, {"a": 2}] == [1, {"a": 2}] }}, {{ 1 != 2 }}, {{ "a" < "b" }}, {{ 3 >= 3 }}, {{ 2 > 3 }}, {{ 2 <= 1 }}]'))
      .toEqual([true, true, true, true, true, false, false]);
  });
  it('evaluates && and || on booleans', () => {
    expect(value('[{{ true && false }}, {{ true || false }}, {{ (true && true) && false }}]')).toEqual([false, true, false]);
  });
  it('tests membership in objects and arrays', () => {
    expect(value('[{{ "sku" in $body.input.items[0] }}, {{ 2 in $list }}, {{ 9 in $list }}]')).toEqual([true, true, false]);
  });
  it('does not chain binary operators', () => {
    expect(failure('{{ true && true && false }}')).toEqual({ error_code: 'Parse Error', message: "Unexpected token '&&'.", source_position: pos(17, 19) });
  });
  it('rejects non-booleans for && with a Type Error at the operand', () => {
    expect(failure('{{ true && 1 }}')).toEqual({
      error_code: 'Type Error', message: "Couldn't match expected type 'Boolean' with actual type 'Number'", source_position: pos(12, 13),
    });
  });
  it('rejects `in` on a scalar', () => {
    expect(failure('{{ 1 in 2 }}')).toMatchObject({ error_code: 'Type Error', message: "Couldn't match expected type 'Array' with actual type 'Number'" });
  });
});

describe('Kriti if and range', () => {
  it('chooses among if / elif / else', () => {
    const t = (n: number) => `{{ if ${n} > 100 }} "big" {{ elif ${n} > 10 }} "medium" {{ else }} "small" {{ end }}`;
    expect([value(t(500)), value(t(50)), value(t(5))]).toEqual(['big', 'medium', 'small']);
  });
  it('requires a boolean condition', () => {
    expect(failure('{{ if 1 }} 1 {{ else }} 2 {{ end }}')).toEqual({
      error_code: 'Type Error', message: "Couldn't match expected type 'Boolean' with actual type 'Number'", source_position: pos(7, 8),
    });
  });
  it('requires else', () => {
    expect(failure('{{ if true }} 1 {{ end }}')).toMatchObject({ error_code: 'Parse Error', message: "Unexpected token 'end'." });
  });
  it('ranges over an array with index and item', () => {
    expect(value('{"lines": {{ range i, it := $body.input.items }} {"n": {{i}}, "sku": {{toLower(it.sku)}}} {{ end }}}'))
      .toEqual({ lines: [{ n: 0, sku: 'a1' }, { n: 1, sku: 'b2' }] });
  });
  it('nests a range written inside brackets', () => {
    expect(value('[{{ range _, x := $list }} {{x}} {{ end }}]')).toEqual([[1, 2, 3]]);
  });
  it('takes a range as a function argument', () => {
    expect(value('{"qtys": {{ removeNulls({{ range _, it := $body.input.items }} {{it.qty}} {{ end }}) }}}')).toEqual({ qtys: [2] });
  });
  it('ranges only over arrays', () => {
    expect(failure('{{ range i, x := $body }} 1 {{ end }}')).toEqual({ error_code: 'Index Error', message: 'Can only range over an array', source_position: pos(18, 23) });
  });
});

describe('Kriti errors and positions', () => {
  it('reports a missing key as Invalid Path over the whole path', () => {
    expect(failure('{{ $body.world }}')).toEqual({ error_code: 'Invalid Path', message: '"$body.world"', source_position: pos(4, 15) });
  });
  it('reports an index out of range and a step into null as Invalid Path', () => {
    expect(failure('{{ $body.event.data.new.tags[5] }}')).toMatchObject({ error_code: 'Invalid Path', message: '"$body.event.data.new.tags[5]"' });
    expect(failure('{{ $body.event.data.old.id }}')).toMatchObject({ error_code: 'Invalid Path', source_position: pos(4, 27) });
  });
  it('reports an unbound variable as a Name Error', () => {
    expect(failure('{{ $nope }}')).toEqual({ error_code: 'Name Error', message: "Variable '$nope' not in scope", source_position: pos(4, 9) });
  });
  it('reports a wrong index type as a Type Error at the index', () => {
    expect(failure('{{ $list["a"] }}')).toMatchObject({ error_code: 'Type Error', message: "Couldn't match expected type 'Integer' with actual type 'String'", source_position: pos(10, 13) });
  });
  it('counts lines from 0 and columns from 1', () => {
    expect(failure('{\n  "a": {{ $body.x }}\n}')).toEqual({ error_code: 'Invalid Path', message: '"$body.x"', source_position: pos(11, 18, 1) });
  });
  it('refuses a bare path outside {{ }}', () => {
    expect(failure('$body.hello }}')).toEqual({ error_code: 'Parse Error', message: "Unexpected token '$body'.", source_position: pos(1, 6) });
  });
  it('refuses a path after a call, a trailing comma and a number key', () => {
    expect(failure('{{ head($list).x }}')).toMatchObject({ message: "Unexpected token '.'." });
    expect(failure('[1, 2,]')).toMatchObject({ message: "Unexpected token ']'." });
    expect(failure('{1: 2}')).toMatchObject({ message: "Unexpected token '1'." });
  });
  it('reports an unterminated string and a stray character as Lex Errors', () => {
    expect(failure('"abc')).toMatchObject({ error_code: 'Lex Error' });
    expect(failure('{{ % }}')).toMatchObject({ error_code: 'Lex Error', source_position: pos(4, 5) });
  });
  it('reports an unknown function as a Function Error at its name', () => {
    expect(failure('{{ fooFunction "x" }}')).toEqual({ error_code: 'Function Error', message: 'Function fooFunction is not defined.', source_position: pos(4, 15) });
    expect(failure('{{ length($list) }}')).toMatchObject({ message: 'Function length is not defined.' });
  });
  it('reports a failing function at its argument', () => {
    expect(failure('{{ head([]) }}')).toEqual({ error_code: 'Function Error', message: 'Empty array', source_position: pos(9, 11) });
  });
});

describe('Kriti functions', () => {
  const cases: [string, Json][] = [
    ['{{ empty({}) }}', true], ['{{ empty([]) }}', true], ['{{ empty(null) }}', true], ['{{ empty(0) }}', true],
    ['{{ empty("  ") }}', true], ['{{ empty("a") }}', false], ['{{ empty([1]) }}', false],
    ['{{ size([1, 2]) }}', 2], ['{{ size("héllo") }}', 5], ['{{ size({"a": 1}) }}', 1], ['{{ size(4) }}', 4],
    ['{{ size(true) }}', 1], ['{{ size(null) }}', 0],
    ['{{ inverse([1, 2]) }}', [2, 1]], ['{{ inverse("abc") }}', 'cba'], ['{{ inverse(4) }}', 0.25],
    ['{{ inverse(true) }}', false], ['{{ inverse({"a": 1}) }}', { a: 1 }],
    ['{{ head([1, 2]) }}', 1], ['{{ head("xy") }}', 'x'], ['{{ tail([1, 2]) }}', [2]], ['{{ tail("xyz") }}', 'yz'],
    ['{{ toCaseFold("Straße") }}', 'strasse'], ['{{ toLower("AbC") }}', 'abc'], ['{{ toUpper("AbC") }}', 'ABC'],
    ['{{ toTitle("hELLO wORLD") }}', 'Hello World'],
    ['{{ escapeUri("a b/é~") }}', 'a%20b%2F%C3%A9~'],
    ['{{ fromPairs([["a", 1], ["b", [2]]]) }}', { a: 1, b: [2] }],
    ['{{ toPairs({"a": 1, "b": 2}) }}', [['a', 1], ['b', 2]]],
    ['{{ removeNulls([1, null, 2]) }}', [1, 2]],
    ['{{ concat([[1], [2, 3]]) }}', [1, 2, 3]], ['{{ concat(["a", "b"]) }}', 'ab'],
    ['{{ concat([{"a": 1, "b": 1}, {"b": 2}]) }}', { a: 1, b: 2 }], ['{{ concat([]) }}', []],
    ['{{ not(true) }}', false], ['{{ not false }}', true], ['{{ not(empty($body.input.note)) }}', false],
    ['{{ getSessionVariable("X-Svc-Role") }}', 'user'], ['{{ getSessionVariable "x-svc-user-id" }}', '42'],
    ['{{ getSessionVariable(null) }}', null],
    ['{{ (fromPairs([["k", 3]])).k }}', 3], ['{{ (size($list)) > 2 }}', true],
  ];
  for (const [src, expected] of cases) {
    it(`${src} → ${JSON.stringify(expected)}`, () => {
      expect(value(src)).toEqual(expected);
    });
  }

  const failures: [string, string][] = [
    ['{{ empty(true) }}', 'Cannot define emptiness for a boolean'],
    ['{{ head("") }}', 'Empty string'],
    ['{{ head(1) }}', 'Expected an array or string'],
    ['{{ tail(1) }}', 'Expected an array or string'],
    ['{{ toUpper(1) }}', 'Expected String, but encountered Number'],
    ['{{ fromPairs([["a"]]) }}', 'Expected an array of [key, value] pairs with string keys'],
    ['{{ toPairs([]) }}', 'Expected Object, but encountered Array'],
    ['{{ removeNulls({}) }}', 'Expected Array, but encountered Object'],
    ['{{ concat([1, "a"]) }}', 'Expected an array of arrays, an array of strings or an array of objects'],
    ['{{ not(1) }}', 'Expected Boolean, but encountered Number'],
    ['{{ getSessionVariable("x-svc-org") }}', 'Session variable "x-svc-org" not found'],
    ['{{ getSessionVariable(1) }}', 'Session variable name should be a string'],
  ];
  for (const [src, message] of failures) {
    it(`${src} fails: ${message}`, () => {
      expect(failure(src)).toMatchObject({ error_code: 'Function Error', message });
    });
  }
});

describe('Kriti string-only templates', () => {
  it('reads the whole text as the inside of a string, quotes included', () => {
    const r = evalWith('say "hi" to {{ $body.event.op }}', parseStringTemplate);
    expect(r).toEqual({ kind: 'ok', value: 'say "hi" to INSERT' });
  });
  it('counts positions from the text itself', () => {
    const r = evalWith('x/{{ $body.nope }}', parseStringTemplate);
    expect(r).toEqual({ kind: 'error', error: { error_code: 'Invalid Path', message: '"$body.nope"', source_position: pos(6, 16) } });
  });
});
