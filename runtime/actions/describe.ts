// `kiln inspect --query` for action fields: the handler call as configured (URL template and
// header names; no environment value is read) and, for every relationship the selection reaches,
// the one statement per source that reads them all for the role (relationships.ts: the output
// objects' keys are rows of the relation the statement reads).

import { Kind, parseType, type TypeNode } from 'graphql';
import type { ActionModel, CustomObjectModel } from '../bundle/index.js';
import { collectFields, type FieldSel, type PlanContext } from '../graphql/index.js';
import type { PendingRelationship } from './output.js';
import { relationshipStatement } from './relationships.js';

/** Comment lines and statements describing one action field. */
export function describeAction(action: ActionModel, kind: string, f: FieldSel, ctx: PlanContext, objects: ReadonlyMap<string, CustomObjectModel>): string[] {
  const lines = [`-- role: ${ctx.role}`, `-- action ${action.name} (${action.type}, ${action.kind})`];
  if (action.kind === 'asynchronous' && kind !== 'mutation') {
    lines.push('-- reads the logged call from svc_catalog.hdb_action_log (its output as below once delivered)');
  } else {
    lines.push(`-- POST ${action.handler} (timeout ${action.timeout} s)${action.kind === 'asynchronous' ? ', by the async worker; the mutation answers the call id' : ''}`);
    const headers = action.headers.map((h) => (h.kind === 'value' ? h.name : `${h.name} (from $${h.env})`));
    if (headers.length > 0) lines.push(`-- headers: ${headers.join(', ')}`);
    if (action.forwardClientHeaders) lines.push('-- forwards the client\'s headers');
    if (action.requestTransform !== undefined) lines.push('-- request transformed (request_transform)');
    if (action.responseTransform !== undefined) lines.push('-- response transformed (response_transform)');
  }
  const output = action.kind === 'asynchronous' ? collectFields(f.node.selectionSet, action.name, ctx).find((s) => s.name === 'output') : f;
  if (!output) return lines;
  const pending: PendingRelationship[] = [];
  collect(parseType(action.outputType), output, ctx, objects, pending);
  const bySource = new Map<string, PendingRelationship[]>();
  for (const p of pending) {
    const source = ctx.model.tables[p.relationship.target]!.source;
    bySource.set(source, [...(bySource.get(source) ?? []), p]);
  }
  for (const [source, group] of bySource) {
    const st = relationshipStatement(group, ctx);
    if (!st) continue;
    lines.push(`-- source ${source}, one statement for:`);
    for (const p of group) lines.push(`-- relationship ${p.field.key} (${p.relationship.kind}, ${p.relationship.target}); keys: the output's ${p.relationship.mapping.map(([from]) => from).join(', ')}`);
    if (st.kind === 'multiplexed') lines.push('-- one row of the relation per output object: $1 the row ids, then one array per slot (the objects\' keys, the session values)');
    lines.push(`${st.sql.text};`);
  }
  return lines;
}

// The relationship fields a selection reaches through nested custom objects.
function collect(type: TypeNode, f: FieldSel, ctx: PlanContext, objects: ReadonlyMap<string, CustomObjectModel>, out: PendingRelationship[]): void {
  if (type.kind !== Kind.NAMED_TYPE) { collect(type.type, f, ctx, objects, out); return; }
  const object = objects.get(type.name.value);
  if (!object) return;
  for (const sub of collectFields(f.node.selectionSet, object.name, ctx)) {
    const field = object.fields.find((x) => x.name === sub.name);
    if (field) { collect(parseType(field.type), sub, ctx, objects, out); continue; }
    const rel = object.relationships.find((r) => r.name === sub.name || (r.kind === 'array' && `${r.name}_aggregate` === sub.name));
    if (rel) out.push({ target: {}, key: sub.key, relationship: rel, field: sub, values: rel.mapping.map(([from, column]) => [column, `<${from}>`]) });
  }
}
