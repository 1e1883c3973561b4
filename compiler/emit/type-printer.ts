// TypeScript declarations of one role's schema and operations, written straight from the
// GraphQLSchema: one line per type. (graphql-codegen did this before; on a 1,000-table schema it
// took about a minute per role class and most of the compile's memory.)

import {
  isEnumType, isInputObjectType, isInterfaceType, isListType, isNonNullType, isObjectType, isScalarType, isUnionType,
  Kind, type GraphQLNamedType, type GraphQLOutputType, type GraphQLInputType, type GraphQLSchema,
  type OperationDefinitionNode, type GraphQLType, type SelectionSetNode, type GraphQLObjectType, type GraphQLInterfaceType, typeFromAST,
} from 'graphql';

// How scalars look in JSON: big numbers may come as strings (stringify setting), times as ISO text.
const SCALARS: { readonly [name: string]: string } = { Int: 'number', Float: 'number', String: 'string', ID: 'string', Boolean: 'boolean',
  bigint: 'string | number', numeric: 'string | number', float8: 'string | number', jsonb: 'unknown', json: 'unknown', uuid: 'string',
  timestamptz: 'string', timestamp: 'string', date: 'string', time: 'string', timetz: 'string' };

/** The helper every namespace starts with, unless the schema has a type of that name (then variables are written bare). */
export const HELPERS = ['export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };'];

const scalar = (name: string): string => SCALARS[name] ?? 'unknown';
const orNull = (t: string): string => (t === 'unknown' ? t : `${t} | null`);

// A field's type in a row type: lists as Array, nullable ones with `| null`.
function outputRef(t: GraphQLOutputType): string {
  if (isNonNullType(t)) return bare(t.ofType);
  return orNull(bare(t));
}

function bare(t: GraphQLType): string {
  if (isNonNullType(t)) return bare(t.ofType);
  if (isListType(t)) {
    const of = (t as { readonly ofType: GraphQLType }).ofType;
    return `Array<${isNonNullType(of) ? bare(of) : orNull(bare(of))}>`;
  }
  return isScalarType(t) ? scalar(t.name) : t.name;
}

/** One declaration per named type of the schema (scalars are inlined), sorted by name. */
export function schemaDeclarations(schema: GraphQLSchema): Map<string, string> {
  const out = new Map<string, string>();
  const named = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__') && !isScalarType(t))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const t of named) out.set(t.name, `export type ${t.name} = ${typeBody(t)};`);
  return out;
}

function typeBody(t: GraphQLNamedType): string {
  if (isEnumType(t)) return t.getValues().map((v) => `'${v.name}'`).join(' | ') || 'never';
  if (isUnionType(t)) return t.getTypes().map((m) => m.name).join(' | ') || 'never';
  if (isInputObjectType(t)) {
    return `{ ${Object.values(t.getFields()).map((f) => (isNonNullType(f.type) && f.defaultValue === undefined
      ? `${f.name}: ${bare(f.type)};` : `${f.name}?: ${orNull(bare(f.type))};`)).join(' ')} }`;
  }
  const fields = Object.values((t as GraphQLObjectType | GraphQLInterfaceType).getFields());
  return `{ __typename?: '${t.name}'; ${fields.map((f) => `${f.name}: ${outputRef(f.type)};`).join(' ')} }`;
}

/** The variables and result types of one operation (`<Name>Query`, `<Name>QueryVariables`). */
export function operationDeclarations(schema: GraphQLSchema, op: OperationDefinitionNode): [string, string][] {
  const kind = op.operation === 'mutation' ? 'Mutation' : op.operation === 'subscription' ? 'Subscription' : 'Query';
  const name = `${op.name?.value ?? ''}${kind}`;
  const vars = (op.variableDefinitions ?? []).map((d) => {
    const t = typeFromAST(schema, d.type as never) as GraphQLInputType | undefined;
    const type = t ? bare(t) : 'unknown';
    return isNonNullType(t) && !d.defaultValue ? `  ${d.variable.name.value}: ${type};` : `  ${d.variable.name.value}?: ${orNull(type)};`;
  });
  const root = op.operation === 'mutation' ? schema.getMutationType() : op.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  return [
    [`${name}Variables`, `export type ${name}Variables = ${exact(schema, vars.length ? `{\n${vars.join('\n')}\n}` : '{ [key: string]: never; }')};`],
    [name, `export type ${name} = ${root ? selectionType(root, op.selectionSet) : 'never'};`],
  ];
}

function exact(schema: GraphQLSchema, shape: string): string {
  return schema.getType('Exact') ? shape : `Exact<${shape}>`;
}

// The shape a selection set answers: `{ a: T, b: T }` (aliases as keys; fragments are not used
// in the generated operations, so only fields are read).
function selectionType(parent: GraphQLObjectType | GraphQLInterfaceType, set: SelectionSetNode): string {
  const parts: string[] = [];
  for (const s of set.selections) {
    if (s.kind !== Kind.FIELD) continue;
    const key = s.alias?.value ?? s.name.value;
    if (s.name.value === '__typename') {
      parts.push(`${key}: '${parent.name}'`);
      continue;
    }
    const field = parent.getFields()[s.name.value];
    parts.push(`${key}: ${field ? selectedType(field.type, s.selectionSet) : 'unknown'}`);
  }
  return `{ ${parts.join(', ')} }`;
}

function selectedType(t: GraphQLOutputType, set: SelectionSetNode | undefined): string {
  if (isNonNullType(t)) return selectedInner(t.ofType, set);
  return orNull(selectedInner(t, set));
}

function selectedInner(t: GraphQLOutputType, set: SelectionSetNode | undefined): string {
  if (isNonNullType(t)) return selectedInner(t.ofType, set);
  if (isListType(t)) return `Array<${selectedType(t.ofType, set)}>`;
  if (isObjectType(t) || isInterfaceType(t)) return set ? selectionType(t, set) : t.name;
  return isScalarType(t) ? scalar(t.name) : t.name;
}
