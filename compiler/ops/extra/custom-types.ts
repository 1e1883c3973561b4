// `set_custom_types`: replaces the custom types used by actions (reference/actions.md). The shapes
// are checked here; whether field types exist and relationships resolve is the compile step's.

import { ArgsReader, asArray, asGraphqlName, asNonEmpty, asString, type JsonObject, type JsonPath, parseFailed } from '../../../runtime/errors/index.js';
import type { Json } from '../../metadata/index.js';
import type { OpHandler } from '../types.js';
import { compact } from './compact.js';
import { withSetting } from './document.js';
import { baseTypeName } from './graphql-type.js';

function readTypeRef(v: unknown, path: JsonPath): string {
  const s = asString(v, path);
  if (baseTypeName(s) === undefined) throw parseFailed(path, `not a valid GraphQL type: ${s}`);
  return s;
}

function description(r: ArgsReader): string | undefined {
  return r.optString('description');
}

function readScalar(v: unknown, path: JsonPath): JsonObject {
  const r = ArgsReader.object(v, path);
  return compact({ name: asGraphqlName(r.required('name'), r.at('name')), description: description(r) });
}

function readEnum(v: unknown, path: JsonPath): JsonObject {
  const r = ArgsReader.object(v, path);
  const name = asGraphqlName(r.required('name'), r.at('name'));
  const values = asNonEmpty(r.required('values'), r.at('values')).map((x, i) => {
    const e = ArgsReader.object(x, [...r.at('values'), i]);
    return compact({ value: asGraphqlName(e.required('value'), e.at('value')), description: description(e), is_deprecated: e.optBool('is_deprecated') });
  });
  return compact({ name, description: description(r), values });
}

function readField(v: unknown, path: JsonPath, withArguments: boolean): JsonObject {
  const r = ArgsReader.object(v, path);
  return compact({
    name: asGraphqlName(r.required('name'), r.at('name')),
    type: readTypeRef(r.required('type'), r.at('type')),
    description: description(r),
    arguments: withArguments ? r.raw('arguments') : undefined,
  });
}

function readRelationship(v: unknown, path: JsonPath): JsonObject {
  const r = ArgsReader.object(v, path);
  const type = r.string('type');
  if (type !== 'object' && type !== 'array') throw parseFailed(r.at('type'), `expected one of "object", "array", but found ${JSON.stringify(type)}`);
  const fieldMapping = r.object('field_mapping');
  for (const k of Object.keys(fieldMapping.value)) asString(fieldMapping.value[k], fieldMapping.at(k));
  return compact({
    name: asGraphqlName(r.required('name'), r.at('name')),
    type,
    remote_table: r.required('remote_table'),
    field_mapping: fieldMapping.value,
    source: r.optString('source'),
  });
}

function readObjectType(v: unknown, path: JsonPath, isOutput: boolean): JsonObject {
  const r = ArgsReader.object(v, path);
  const name = asGraphqlName(r.required('name'), r.at('name'));
  const fields = asNonEmpty(r.required('fields'), r.at('fields')).map((f, i) => readField(f, [...r.at('fields'), i], isOutput));
  const relationships = isOutput && r.has('relationships')
    ? asArray(r.value['relationships'], r.at('relationships')).map((x, i) => readRelationship(x, [...r.at('relationships'), i]))
    : undefined;
  return compact({ name, description: description(r), fields, relationships });
}

function readList(r: ArgsReader, key: string, read: (v: unknown, path: JsonPath) => JsonObject): JsonObject[] {
  if (!r.has(key)) return [];
  return asArray(r.value[key], r.at(key)).map((x, i) => read(x, [...r.at(key), i]));
}

/** Reads the four lists (names unique across them, fields that exist: the compile step's, compiler/model/custom-types.ts). */
export function readCustomTypes(r: ArgsReader): JsonObject {
  return {
    scalars: readList(r, 'scalars', readScalar),
    enums: readList(r, 'enums', readEnum),
    input_objects: readList(r, 'input_objects', (v, p) => readObjectType(v, p, false)),
    objects: readList(r, 'objects', (v, p) => readObjectType(v, p, true)),
  } as unknown as JsonObject;
}

export const setCustomTypes: OpHandler = (input) => {
  const types = readCustomTypes(ArgsReader.args(input));
  const empty = Object.values(types).every((l) => (l as Json[]).length === 0);
  const md = withSetting(input.metadata, 'custom_types', empty ? undefined : compactLists(types));
  return { metadata: md, effect: { kind: 'create', object: { type: 'custom_types', name: 'custom_types custom_types' } } };
};

function compactLists(types: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(types).filter(([, v]) => Array.isArray(v) && v.length > 0)) as JsonObject;
}
