import {
  Kind, getNamedType, isInputObjectType, isListType, isNonNullType, isObjectType,
  type FragmentDefinitionNode, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode,
  type SelectionSetNode, type GraphQLObjectType, type ValueNode,
} from 'graphql';
import { ApiError } from '../errors/index.js';

type Path = (string | number)[];

/**
 * The validation errors Hasura words its own way, with a JSON path into the request: unknown
 * fields, unknown arguments and unknown input fields. Everything else is left to graphql-js.
 */
export function hasuraChecks(schema: GraphQLSchema, op: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): void {
  const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) {
    const what = op.operation === 'mutation' ? 'mutations' : 'subscriptions';
    throw new ApiError('validation-failed', `no ${what} exist`, 400, []);
  }
  checkSet(op.selectionSet, root, fragments, ['selectionSet'], new Set());
}

function checkSet(set: SelectionSetNode, type: GraphQLObjectType, fragments: ReadonlyMap<string, FragmentDefinitionNode>, path: Path, seen: Set<string>): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition ? undefined : type;
      if (t) checkSet(sel.selectionSet, t, fragments, path, seen);
      else if (sel.typeCondition?.name.value === type.name) checkSet(sel.selectionSet, type, fragments, path, seen);
      continue;
    }
    if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const frag = fragments.get(sel.name.value);
      if (frag && !seen.has(frag.name.value) && frag.typeCondition.name.value === type.name) {
        checkSet(frag.selectionSet, type, fragments, path, new Set([...seen, frag.name.value]));
      }
      continue;
    }
    const name = sel.name.value;
    const key = sel.alias?.value ?? name;
    if (name === '__typename' || name === '__schema' || name === '__type') continue;
    const field = type.getFields()[name];
    const here = [...path, key];
    if (!field) throw new ApiError('validation-failed', `field "${name}" not found in type: '${type.name}'`, 400, here);
    for (const arg of sel.arguments ?? []) {
      const def = field.args.find((a) => a.name === arg.name.value);
      if (!def) throw new ApiError('validation-failed', `"${name}" has no argument named "${arg.name.value}"`, 400, [...here, 'args', arg.name.value]);
      checkValue(arg.value, def.type, [...here, 'args', arg.name.value]);
    }
    const named = getNamedType(field.type);
    if (sel.selectionSet && isObjectType(named)) checkSet(sel.selectionSet, named, fragments, [...here, 'selectionSet'], seen);
  }
}

function checkValue(value: ValueNode, type: GraphQLInputType, path: Path): void {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (value.kind === Kind.LIST) value.values.forEach((v, i) => checkValue(v, inner.ofType, [...path, i]));
    else checkValue(value, inner.ofType, path);
    return;
  }
  if (!isInputObjectType(inner) || value.kind !== Kind.OBJECT) return;
  const fields = inner.getFields();
  for (const f of value.fields) {
    const def = fields[f.name.value];
    if (!def) throw new ApiError('validation-failed', `field "${f.name.value}" not found in type: '${inner.name}'`, 400, [...path, f.name.value]);
    checkValue(f.value, def.type, [...path, f.name.value]);
  }
}
