// The one argument reader: aeson's wording, the JSON path of the value, and null read as absent
// for optional keys (`.:?`) but as given for plain values (`.:`).

import { describe, expect, it } from 'vitest';
import {
  ApiError, ArgsReader, asArray, asBool, asGraphqlName, asInt, asName, asNat, asNonEmpty, asObject, asString, optional, required,
} from '../../runtime/errors/index.js';

function failure(f: () => unknown): { code: string; message: string; path: readonly (string | number)[] } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    return { code: err.code, message: err.message, path: err.path };
  }
  throw new Error('expected a parse failure');
}

describe('the argument reader', () => {
  it('words type mismatches as aeson does, at the value\'s path', () => {
    expect(failure(() => asObject([], ['args']))).toEqual({ code: 'parse-failed', message: 'parsing Object failed, expected Object, but encountered Array', path: ['args'] });
    expect(failure(() => asObject(1, ['args'], 'QueryCollection')).message).toBe('parsing QueryCollection failed, expected Object, but encountered Number');
    expect(failure(() => asString(null, ['args', 'sql'])).message).toBe('parsing Text failed, expected String, but encountered Null');
    expect(failure(() => asBool('yes', ['x'])).message).toBe('parsing Bool failed, expected Boolean, but encountered String');
    expect(failure(() => asArray({}, ['x'])).message).toBe('parsing [] failed, expected Array, but encountered Object');
    expect(failure(() => asNonEmpty([], ['x'])).message).toBe('parsing NonEmpty failed, unexpected empty list');
    expect(failure(() => asName('', ['args', 'name']))).toEqual({ code: 'parse-failed', message: 'empty string not allowed', path: ['args', 'name'] });
    expect(failure(() => asGraphqlName('1abc', ['n'])).message).toBe('1abc is not valid GraphQL name');
  });

  it('keeps the two integer wordings: a query\'s Int, and a metadata non-negative integer', () => {
    expect(asInt(3, ['limit'])).toBe(3);
    expect(failure(() => asInt(1.5, ['limit'])).message).toBe('parsing Int failed, unexpected floating number 1.5');
    expect(failure(() => asInt('3', ['limit'])).message).toBe('parsing Int failed, expected Number, but encountered String');
    expect(failure(() => asNat(-1, ['depth'])).message).toBe('expected a non-negative integer, but found -1');
    const r = ArgsReader.object({ limit: -2, offset: 2.5 }, ['args']);
    expect(failure(() => r.count('limit', 0))).toEqual({ code: 'parse-failed', message: 'limit must be a non-negative integer', path: ['args', 'limit'] });
    expect(failure(() => r.count('offset', 0)).message).toBe('parsing Int failed, unexpected floating number 2.5');
    expect(r.count('absent', 7)).toBe(7);
  });

  it('reports a missing key at the object\'s path, and reads null as absent where aeson\'s .:? does', () => {
    const o = { name: null, flag: null, payload: null };
    expect(failure(() => required(o, 'name', ['args'], asString))).toEqual({ code: 'parse-failed', message: "the key 'name' was not present", path: ['args'] });
    expect(optional(o, 'name', ['args'], asString)).toBeUndefined();
    const r = ArgsReader.object(o, ['args']);
    expect(r.bool('flag', true)).toBe(true);
    expect(r.optName('name', 'default')).toBe('default');
    // `.:` into a plain value: null is a value.
    expect(r.given('payload')).toBeNull();
    expect(failure(() => r.given('other')).message).toBe("the key 'other' was not present");
  });

  it('starts the path at $.args on /v1/metadata and at $ on /v1/query', () => {
    expect(failure(() => ArgsReader.args({ args: {}, api: 'metadata' }).name('name')).path).toEqual(['args']);
    expect(failure(() => ArgsReader.args({ args: { name: 1 }, api: 'query' }).name('name')).path).toEqual(['name']);
    expect(failure(() => ArgsReader.args({ args: 'x', api: 'query' })).message).toBe('parsing Object failed, expected Object, but encountered String');
  });

  it('reads nested objects and lists with their paths', () => {
    const r = ArgsReader.object({ retry_conf: { num_retries: 'x' }, headers: [1] }, ['args']);
    expect(failure(() => r.optObject('retry_conf')!.count('num_retries', 0)).path).toEqual(['args', 'retry_conf', 'num_retries']);
    expect(r.optArray('headers')).toEqual([1]);
    expect(r.optObject('missing')).toBeUndefined();
    expect(failure(() => r.object('missing')).message).toBe("the key 'missing' was not present");
    expect(r.oneOf('absent', ['a', 'b'], 'bad')).toBeUndefined();
    expect(failure(() => ArgsReader.object({ mode: 'c' }, []).oneOf('mode', ['a', 'b'], 'mode must be a or b'))).toEqual({ code: 'parse-failed', message: 'mode must be a or b', path: ['mode'] });
  });
});
