// Actions resolved against the custom types (Hasura.RQL.DDL.Action resolveAction, its reasons):
// every argument's base type is a scalar, enum or input object; the output's base type is a custom
// object type or a scalar. An action that does not resolve is an inconsistent `action` and is not
// served. Handler URLs and header values stay as written: the runtime reads the environment.

import type { ActionModel, ActionsModel, CustomObjectModel, HeaderModel, Json, TableModel } from '../../runtime/bundle/index.js';
import { baseOf, GRAPHQL_SCALARS, resolveCustomTypes } from './custom-types.js';
import { withInheritedRoles } from './inherited-roles.js';
import type { Issues } from './issues.js';

type Obj = { readonly [k: string]: Json };

const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const listOf = (v: Json | undefined): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const text = (v: Json | undefined): string => (typeof v === 'string' ? v : '');
const q = (s: string): string => JSON.stringify(s);

/**
 * An action as Hasura shows it in an inconsistency's definition: its CreateAction as parsed
 * (`{name, definition, comment}`, the definition with every default: headers [], timeout,
 * forward_client_headers, type and, for a mutation, kind; each argument with its description;
 * tests-py test_actions.py TestCreateActionNestedTypeWithRelation).
 */
function asDefined(a: Obj): Json {
  const def = isObj(a['definition']) ? a['definition'] : {};
  const type = def['type'] === 'query' ? 'query' : 'mutation';
  return {
    name: a['name'] ?? null,
    definition: {
      arguments: listOf(def['arguments']).map((x) => ({ name: x['name'] ?? null, type: x['type'] ?? null, description: x['description'] ?? null })),
      output_type: def['output_type'] ?? null,
      headers: Array.isArray(def['headers']) ? def['headers'] : [],
      forward_client_headers: def['forward_client_headers'] === true,
      handler: def['handler'] ?? null,
      timeout: typeof def['timeout'] === 'number' ? def['timeout'] : DEFAULT_ACTION_TIMEOUT,
      type,
      ...(type === 'mutation' ? { kind: def['kind'] === 'asynchronous' ? 'asynchronous' : 'synchronous' } : {}),
      ...(def['request_transform'] !== undefined ? { request_transform: def['request_transform'] } : {}),
      ...(def['response_transform'] !== undefined ? { response_transform: def['response_transform'] } : {}),
    },
    comment: a['comment'] ?? null,
  };
}

/** Hasura's timeout of a handler call when the definition names none (seconds). */
export const DEFAULT_ACTION_TIMEOUT = 30;

/**
 * The custom types and actions of a document, or undefined when it has neither. `dbScalars` are
 * the database scalar names types may reuse; the roles granted an action are added to `roles`.
 */
export function resolveActions(md: { readonly actions?: readonly Json[]; readonly custom_types?: Json; readonly inherited_roles?: readonly Json[] }, tables: ReadonlyMap<string, TableModel>,
  dbScalars: ReadonlySet<string>, roles: Set<string>, issues: Issues): ActionsModel | undefined {
  const rawActions = (md.actions ?? []).filter(isObj);
  if (rawActions.length === 0 && md.custom_types === undefined) return undefined;
  const types = resolveCustomTypes(md.custom_types, tables, dbScalars, issues);
  const reused = new Set(types.reused);
  const inputs = new Set([...GRAPHQL_SCALARS, ...types.scalars.map((s) => s.name), ...types.enums.map((e) => e.name), ...types.inputObjects.map((o) => o.name)]);
  const outputScalars = new Set([...GRAPHQL_SCALARS, ...types.scalars.map((s) => s.name)]);
  const objects = new Set(types.objects.map((o) => o.name));
  const actions: ActionModel[] = [];
  for (const a of rawActions) {
    const name = text(a['name']);
    const def = isObj(a['definition']) ? a['definition'] : {};
    // Hasura resolves an action under the context `in action "a"; ` (buildAction's addActionContext, a semicolon).
    const fail = (reason: string): void => issues.add({ type: 'action', name: `action ${name}`, definition: asDefined(a), reason: `in action ${q(name)}; ${reason}` });
    const args = listOf(def['arguments']).map((x) => ({ name: text(x['name']), type: text(x['type']), description: typeof x['description'] === 'string' ? x['description'] : null }));
    const badArg = args.find((x) => !inputs.has(baseOf(x.type)) && !dbScalars.has(baseOf(x.type)));
    if (badArg) { fail(`the type: ${q(baseOf(badArg.type))} is not defined in custom types or it is not a scalar/enum/input_object`); continue; }
    const outputType = text(def['output_type']);
    const out = baseOf(outputType);
    if (!objects.has(out) && !outputScalars.has(out) && !dbScalars.has(out)) { fail(`the type: ${q(out)} is not an object or scalar type defined in custom types`); continue; }
    const kind = def['kind'] === 'asynchronous' ? 'asynchronous' : 'synchronous';
    if (kind === 'asynchronous' && !objects.has(out)) { fail(`the output type ${q(out)} of an asynchronous action must be a custom object type`); continue; }
    const nestedProblem = nestedRelationshipProblem(types.objects, out, kind);
    if (nestedProblem) { fail(nestedProblem); continue; }
    for (const x of args) if (dbScalars.has(baseOf(x.type))) reused.add(baseOf(x.type));
    if (dbScalars.has(out)) reused.add(out);
    const granted = withInheritedRoles(listOf(a['permissions']).map((p) => text(p['role'])).filter((r) => r !== ''), md.inherited_roles);
    for (const r of granted) roles.add(r);
    actions.push({
      name, type: def['type'] === 'query' ? 'query' : 'mutation', kind,
      arguments: args, outputType, handler: text(def['handler']), headers: listOf(def['headers']).map(headerOf),
      forwardClientHeaders: def['forward_client_headers'] === true,
      timeout: typeof def['timeout'] === 'number' && def['timeout'] > 0 ? def['timeout'] : DEFAULT_ACTION_TIMEOUT,
      roles: granted, comment: typeof a['comment'] === 'string' ? a['comment'] : null,
      ...(def['request_transform'] !== undefined ? { requestTransform: def['request_transform'] } : {}),
      ...(def['response_transform'] !== undefined ? { responseTransform: def['response_transform'] } : {}),
    });
  }
  actions.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  // An asynchronous action's result type shows `uuid`, `timestamptz` and `json` in every schema that has it.
  if (actions.some((x) => x.kind === 'asynchronous')) for (const s of ['uuid', 'timestamptz', 'json']) reused.add(s);
  return { scalars: types.scalars, enums: types.enums, inputObjects: types.inputObjects, objects: types.objects,
    reusedScalars: [...reused].sort(), actions };
}

/**
 * An asynchronous action's output type may not have relationships beside object fields (Hasura's
 * resolveAction). A synchronous action's nested objects may have relationships: Hasura of March
 * 2022 refused them ("Relationship cannot be defined for nested object", its issue 8015), later
 * v2 versions serve them, and so does Kiln.
 */
function nestedRelationshipProblem(objects: readonly CustomObjectModel[], out: string, kind: 'synchronous' | 'asynchronous'): string | null {
  if (kind !== 'asynchronous') return null;
  const byName = new Map(objects.map((o) => [o.name, o]));
  const top = byName.get(out);
  if (!top || top.relationships.length === 0) return null;
  const nestedFields = top.fields.filter((f) => byName.has(baseOf(f.type)));
  return nestedFields.length > 0 ? `Async action relations cannot be used with object fields : ${nestedFields.map((f) => q(f.name)).join(', ')}` : null;
}

function headerOf(h: Obj): HeaderModel {
  const name = text(h['name']);
  return typeof h['value_from_env'] === 'string' ? { name, kind: 'env', env: h['value_from_env'] } : { name, kind: 'value', value: text(h['value']) };
}

/** The database scalar names of the catalogs (built-ins, every column's type, enum types): what custom types may reuse. */
export function databaseScalars(columnTypes: Iterable<string>): Set<string> {
  return new Set([...PG_BASE_TYPES, ...columnTypes]);
}

// PostgreSQL's built-in base types by name (pg_type, typtype 'b', the ones a schema can show).
const PG_BASE_TYPES = ['bool', 'bytea', 'char', 'name', 'int8', 'int2', 'int4', 'text', 'oid', 'json', 'xml', 'point', 'lseg', 'path', 'box',
  'polygon', 'line', 'float4', 'float8', 'circle', 'money', 'macaddr', 'inet', 'cidr', 'macaddr8', 'bpchar', 'varchar', 'date', 'time',
  'timestamp', 'timestamptz', 'interval', 'timetz', 'bit', 'varbit', 'numeric', 'uuid', 'tsvector', 'tsquery', 'jsonb', 'jsonpath',
  'bigint', 'smallint'];
