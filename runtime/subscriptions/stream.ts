// Streaming subscriptions (reference/subscriptions.md §5). `<t>_stream(batch_size, cursor, where)`
// is served as the query
//   <alias>: <t>(where: {_and: [<where>, {<col>: {_gt: $cursor}}]}, order_by: [{<col>: asc}], limit: <batch_size>) { ... }
//   __kiln_cursor: <t>(<same arguments>) { c: <col> }
// so it is planned, permission-checked and multiplexed exactly like one; the cursor is one more
// per-subscriber variable, moved to the last row sent after every non-empty batch.

import {
  Kind, OperationTypeNode, astFromValue, getNamedType, isInputObjectType, print, valueFromASTUntyped, visit,
  type ArgumentNode, type DocumentNode, type FieldNode, type GraphQLSchema, type ObjectFieldNode, type OperationDefinitionNode, type ValueNode,
} from 'graphql';
import { ApiError } from '../errors/index.js';
import type { BundleModel, GraphQLRequest } from '../bundle/index.js';
import { checkLimit, checkLimitValue, type StreamCursor } from '../graphql/index.js';
import { typeNameOf } from '../bundle/index.js';

/** The variable that carries a stream's cursor value. */
export const CURSOR_VARIABLE = '__kiln_cursor';
/** The root field whose rows carry the cursor values of a batch. */
export const CURSOR_FIELD = '__kiln_cursor';

/** A stream subscription rewritten as a live query over its table's select field. */
export interface StreamQuery {
  readonly request: GraphQLRequest;
  readonly initialCursor: unknown;
  /** The cursor the batch query reads (the Stream IR node's). */
  readonly cursor: StreamCursor;
}

const name = (value: string) => ({ kind: Kind.NAME, value } as const);
const field = (n: string, value: ValueNode): ObjectFieldNode => ({ kind: Kind.OBJECT_FIELD, name: name(n), value });
const obj = (fields: ObjectFieldNode[]): ValueNode => ({ kind: Kind.OBJECT, fields });
const arg = (n: string, value: ValueNode): ArgumentNode => ({ kind: Kind.ARGUMENT, name: name(n), value });

/**
 * The live query a stream subscription runs as, or null when the operation selects no stream
 * field. Throws ApiError (validation-failed) for a request Hasura refuses.
 */
export function streamQuery(req: GraphQLRequest, doc: DocumentNode, op: OperationDefinitionNode, model: BundleModel,
  role: string, schema: GraphQLSchema): StreamQuery | null {
  const streams = model.roots[role]?.stream ?? {};
  const fields = op.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  const streamField = fields.find((f) => Object.hasOwn(streams, f.name.value));
  if (!streamField) return null;
  // The document was validated as sent by the engine (operation.ts checks it first); the initial
  // value is read by the column's parser, as a comparison's value is (Hasura's
  // streamColumnParserArg uses columnParser), not by GraphQL's own Int.
  if (op.selectionSet.selections.length !== 1) {
    throw new ApiError('validation-failed', 'streaming subscriptions must select exactly one top level field', 400, ['selectionSet']);
  }
  const table = model.tables[streams[streamField.name.value]!]!;
  const path = ['selectionSet', streamField.alias?.value ?? streamField.name.value, 'args'];
  const vars = (req.variables ?? {}) as Record<string, unknown>;
  const argNode = (n: string): ValueNode | undefined => streamField.arguments?.find((a) => a.name.value === n)?.value;
  checkBatchSize(argNode('batch_size')!, vars, [...path, 'batch_size']);
  const { item, at } = cursorItem(argNode('cursor')!, vars, path);
  const { field: columnField, value: initialCursor } = item;
  const column = table.columns.find((c) => c.field === columnField)!;
  if (initialCursor === null || initialCursor === undefined) {
    // A NOT NULL column's value parser takes no null (Hasura builds it with the column's own nullability).
    if (!column.nullable) throw new ApiError('validation-failed', `unexpected null value for type "${column.scalar}"`, 400, [...at, 'initial_value', columnField]);
    throw new ApiError('validation-failed', `the initial value of the cursor column "${columnField}" must not be null`, 400, [...at, 'initial_value']);
  }
  const desc = item.ordering === 'DESC';

  const after = obj([field(column.field, obj([field(desc ? '_lt' : '_gt', { kind: Kind.VARIABLE, name: name(CURSOR_VARIABLE) })]))]);
  const where = whereNode(argNode('where'), vars, schema, typeNameOf(table, '_bool_exp'));
  const args: ArgumentNode[] = [
    arg('where', where ? obj([field('_and', { kind: Kind.LIST, values: [where, after] })]) : after),
    arg('order_by', { kind: Kind.LIST, values: [obj([field(column.field, { kind: Kind.ENUM, value: desc ? 'desc' : 'asc' })])] }),
    arg('limit', argNode('batch_size')!),
  ];
  const selectName = table.rootFieldNames['select']!;
  const rows: FieldNode = { ...streamField, alias: name(streamField.alias?.value ?? streamField.name.value), name: name(selectName), arguments: args };
  const cursorRows: FieldNode = {
    kind: Kind.FIELD, alias: name(CURSOR_FIELD), name: name(selectName), arguments: args,
    selectionSet: { kind: Kind.SELECTION_SET, selections: [{ kind: Kind.FIELD, alias: name('c'), name: name(column.field) }] },
  };
  // A query: a subscription may select only one root field (graphql-js SingleFieldSubscriptionsRule).
  const operation: OperationDefinitionNode = {
    ...op,
    operation: OperationTypeNode.QUERY,
    variableDefinitions: [...(op.variableDefinitions ?? []), {
      kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: name(CURSOR_VARIABLE) },
      type: { kind: Kind.NON_NULL_TYPE, type: { kind: Kind.NAMED_TYPE, name: name(column.scalar) } },
    }],
    selectionSet: { ...op.selectionSet, selections: [rows, cursorRows] },
  };
  const document = dropUnusedVariables({ ...doc, definitions: doc.definitions.map((d) => (d === op ? operation : d)) }, operation);
  // Only the variables the rewritten query still uses: a value sent for any other is refused
  // (Hasura's "unexpected variables"), and those written into the document are gone.
  const kept = new Set<string>();
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) for (const v of d.variableDefinitions ?? []) kept.add(v.variable.name.value);
  const sent = Object.fromEntries(Object.entries(vars).filter(([k]) => kept.has(k)));
  return {
    request: { query: print(document), variables: { ...sent, [CURSOR_VARIABLE]: initialCursor }, operationName: req.operationName ?? null },
    initialCursor,
    cursor: { columns: [column.name], ordering: desc ? 'desc' : 'asc', batchSize: Number(valueFromASTUntyped(argNode('batch_size')!, vars)) },
  };
}

// Hasura's tableStreamArguments (Schema/SubscriptionStream.hs): every cursor input of the list
// (null ones skipped) gives one item per column of its initial_value, and exactly one item is
// taken: none is "one streaming column field is expected", more "multiple column cursors are not
// supported yet", both at the field's arguments. `at`: the path of the item's cursor input, with
// its index (a single input is a list of one, indexed 0 as Hasura's list parser keys it).
function cursorItem(node: ValueNode, vars: Record<string, unknown>, path: readonly (string | number)[]):
  { item: { field: string; value: unknown; ordering: string | null | undefined }; at: (string | number)[] } {
  const value = valueFromASTUntyped(node, vars);
  const inputs = (Array.isArray(value) ? value : [value]) as ({ initial_value?: Record<string, unknown> | null; ordering?: string | null } | null)[];
  const items: { item: { field: string; value: unknown; ordering: string | null | undefined }; at: (string | number)[] }[] = [];
  inputs.forEach((input, i) => {
    if (input === null || typeof input !== 'object') return;
    for (const [field, v] of Object.entries(input.initial_value ?? {})) {
      items.push({ item: { field, value: v, ordering: input.ordering }, at: [...path, 'cursor', i] });
    }
  });
  if (items.length === 0) throw new ApiError('validation-failed', 'one streaming column field is expected', 400, [...path]);
  if (items.length > 1) throw new ApiError('validation-failed', 'multiple column cursors are not supported yet', 400, [...path]);
  return items[0]!;
}

// `batch_size` is Hasura's nonNegativeInt, worded as `limit` is (the rewrite passes it as one).
function checkBatchSize(node: ValueNode, vars: Record<string, unknown>, path: readonly (string | number)[]): void {
  if (node.kind === Kind.VARIABLE) checkLimitValue(vars[node.name.value], path);
  else checkLimit(node, [...path]);
}

// A `where` given as a variable is written into the document: `_and` takes non-null items, and a
// nullable variable may not stand there. Its value becomes literals, which plan as parameters.
function whereNode(node: ValueNode | undefined, vars: Record<string, unknown>, schema: GraphQLSchema, boolExpType: string): ValueNode | null {
  if (!node || node.kind === Kind.NULL) return null;
  if (node.kind !== Kind.VARIABLE) return node;
  const value = vars[node.name.value];
  if (value === null || value === undefined) return null;
  const type = schema.getType(boolExpType);
  if (!type || !isInputObjectType(getNamedType(type))) return null;
  return astFromValue(value, type as Parameters<typeof astFromValue>[1]) ?? null;
}

// A `where` variable written into the document is no longer used: its definition goes too.
function dropUnusedVariables(doc: DocumentNode, op: OperationDefinitionNode): DocumentNode {
  const used = new Set<string>();
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION && d.kind !== Kind.FRAGMENT_DEFINITION) continue;
    visit(d.selectionSet, { Variable: (v) => { used.add(v.name.value); } });
  }
  const defs = (op.variableDefinitions ?? []).filter((v) => used.has(v.variable.name.value));
  const kept: OperationDefinitionNode = { ...op, variableDefinitions: defs };
  return { ...doc, definitions: doc.definitions.map((d) => (d === op ? kept : d)) };
}

/**
 * Splits the result of a stream's live query into the `data` text to send and the cursor value of
 * its last row; `rows: 0` when the batch is empty (nothing is sent then).
 */
export function splitStreamResult(text: string): { readonly data: string; readonly rows: number; readonly last: unknown } {
  const marker = new RegExp(`,\\s*"${CURSOR_FIELD}"\\s*:\\s*`, 'g');
  let at = -1;
  let len = 0;
  for (let m = marker.exec(text); m; m = marker.exec(text)) { at = m.index; len = m[0].length; }
  if (at < 0) throw new Error('assertion failed: a stream result carries its cursor field');
  const cursors = JSON.parse(text.slice(at + len, text.lastIndexOf('}'))) as { c: unknown }[] | null;
  const list = cursors ?? [];
  return { data: `${text.slice(0, at)}}`, rows: list.length, last: list.length ? list[list.length - 1]!.c : undefined };
}
