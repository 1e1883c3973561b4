import { describe, expect, it } from 'vitest';
import { ApiError, formatPath } from '../../runtime/errors/index.js';
import { introspectionFromJson, type Introspection } from '../../compiler/introspect/index.js';

const valid: Introspection = {
  dialect: 'postgres',
  serverVersion: '15.20',
  schemas: ['public'],
  tables: [{
    schema: 'public', name: 'author', kind: 'table', comment: null,
    columns: [
      { name: 'id', position: 1, type: 'int4', typeSchema: 'pg_catalog', typeKind: 'base', elementType: null,
        nullable: false, default: null, generated: 'always', comment: null },
      { name: 'tags', position: 2, type: '_text', typeSchema: 'pg_catalog', typeKind: 'array', elementType: 'text',
        nullable: true, default: null, generated: null, comment: 'labels' },
    ],
    primaryKey: { name: 'author_pkey', columns: ['id'] },
    uniqueConstraints: [],
    foreignKeys: [{ name: 'fk', columns: ['id'], refSchema: 'public', refTable: 'person', refColumns: ['id'] }],
    mutable: { insertable: true, updatable: true, deletable: true },
  }],
  functions: [{
    schema: 'public', name: 'f', comment: null, volatility: 'stable',
    args: [{ name: null, type: 'text', typeSchema: 'pg_catalog', hasDefault: false }],
    returnType: 'author', returnTypeSchema: 'public', returnKind: 'table', returnsSet: true, overloads: 1,
  }],
  types: [{ schema: 'public', name: 'mood', kind: 'enum', enumValues: ['ok'] }],
  enumValues: [{ schema: 'public', name: 'colors', values: [{ value: 'red', comment: null }] }],
};

function failure(doc: unknown): ApiError {
  try {
    introspectionFromJson(doc);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected introspectionFromJson to throw');
}

const clone = (): any => JSON.parse(JSON.stringify(valid));

describe('introspectionFromJson', () => {
  it('accepts a snapshot and returns it unchanged', () => {
    const doc = clone();
    expect(introspectionFromJson(doc)).toBe(doc);
    expect(introspectionFromJson(doc)).toStrictEqual(valid);
  });

  it('accepts a snapshot without the optional keys', () => {
    const doc = clone();
    delete doc.serverVersion;
    delete doc.types;
    delete doc.tables[0].mutable;
    delete doc.tables[0].columns[0].elementType;
    expect(() => introspectionFromJson(doc)).not.toThrow();
  });

  it('rejects a document that is not an object with parse-failed at the root', () => {
    for (const doc of [null, 'x', [], 42]) {
      const e = failure(doc);
      expect(e.code).toBe('parse-failed');
      expect(e.status).toBe(400);
      expect(e.path).toEqual([]);
      expect(e.message).toBe('not an introspection snapshot: expected an object');
    }
  });

  it('names the missing key with its path', () => {
    const doc = clone();
    delete doc.tables;
    const e = failure(doc);
    expect(formatPath(e.path)).toBe('$.tables');
    expect(e.message).toBe('not an introspection snapshot: the key "tables" was not present');
  });

  it('points at the first nested field of the wrong shape', () => {
    const doc = clone();
    doc.tables[0].columns[1].typeKind = 'blob';
    const e = failure(doc);
    expect(formatPath(e.path)).toBe('$.tables[0].columns[1].typeKind');
    expect(e.message).toMatch(/expected one of "base", "enum"/);

    const fn = clone();
    fn.functions[0].args[0].hasDefault = 'no';
    expect(formatPath(failure(fn).path)).toBe('$.functions[0].args[0].hasDefault');

    const enums = clone();
    enums.enumValues[0].values[0].value = null;
    expect(formatPath(failure(enums).path)).toBe('$.enumValues[0].values[0].value');

    const dialect = clone();
    dialect.dialect = 'sqlite';
    expect(formatPath(failure(dialect).path)).toBe('$.dialect');
  });
});
