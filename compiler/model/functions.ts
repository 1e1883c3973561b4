import type { ComputedFieldModel, FunctionArgModel, FunctionModel, Json, TableModel } from '../../runtime/bundle/index.js';
import type { Introspection, IntrospectedFunction } from '../introspect/index.js';
import type { Source, TableEntry } from '../metadata/index.js';
import type { Issues } from './issues.js';
import { computedFieldDefinition, functionObjectName, tableChildName, qualifiedText } from './names.js';
import { isGraphqlName, scalarFor } from './scalars.js';
import { rootFieldName, tableId } from './tables.js';

function findFunction(db: Introspection, schema: string, name: string): IntrospectedFunction | string {
  const f = db.functions.find((x) => x.schema === schema && x.name === name);
  // Hasura names the function as it writes a qualified object: without `public.` (qualifiedObjectToText).
  if (!f) return `no such function exists: "${qualified(schema, name)}"`;
  if (f.overloads > 1) return `function "${qualified(schema, name)}" is overloaded. Overloaded functions are not supported`;
  return f;
}

// A row type (of a table, or a standalone composite) as an argument is the scalar `<name>_scalar`
// (reference/schema.md §8): plain `<name>` would clash with the table's object type.
function argScalar(db: Introspection, a: IntrospectedFunction['args'][number]): string {
  const composite = db.tables.some((t) => t.schema === a.typeSchema && t.name === a.type)
    || (db.types ?? []).some((t) => t.kind === 'composite' && t.schema === a.typeSchema && t.name === a.type);
  return composite ? `${a.type}_scalar` : scalarFor(a.type, a.type.startsWith('_')).scalar;
}

/** Unnamed arguments are called `arg_1`, `arg_2`, ... counting only the unnamed ones the user gives (as Hasura does). */
function userArgs(f: IntrospectedFunction, skip: ReadonlySet<number>, db: Introspection): FunctionArgModel[] {
  let unnamed = 0;
  return f.args.flatMap((a, i) => (skip.has(i) ? [] : [{
    // Types outside pg_catalog (row types, enums) are cast schema-qualified: `"public"."user"`, not `user`.
    name: a.name ?? `arg_${++unnamed}`, position: i, type: a.typeSchema && a.typeSchema !== 'pg_catalog' ? `${a.typeSchema}.${a.type}` : a.type,
    scalar: argScalar(db, a), hasDefault: a.hasDefault,
  }]));
}

/**
 * Why a function cannot be tracked, every reason in Hasura's order and words
 * (Backends/Postgres/DDL/Function.hs, buildFunctionInfo: its checks run on and collect).
 */
function trackingProblems(f: IntrospectedFunction, db: Introspection, cfg: NonNullable<NonNullable<Source['functions']>[number]['configuration']>,
  sessionIdx: number): string[] {
  const out: string[] = [];
  if (f.variadic) out.push('function with "VARIADIC" parameters are not supported');
  const composite = f.returnKind === 'table' || (db.types ?? []).some((t) => t.kind === 'composite' && t.schema === f.returnTypeSchema && t.name === f.returnType);
  if (!composite) out.push('the function does not return a "COMPOSITE" type');
  if (f.returnKind !== 'table') out.push('the function does not return a table');
  // Hasura takes the user at their word but for one case (NonVolatileFunctionAsMutation); without
  // `exposed_as` a VOLATILE function is a mutation.
  if (f.volatility !== 'volatile' && cfg.exposed_as === 'mutation') {
    out.push('the function was requested to be exposed as a mutation, but is not marked VOLATILE. Maybe the function was given the wrong volatility when it was defined?');
  }
  const badNames = f.args.flatMap((a) => (a.name !== null && !isGraphqlName(a.name) ? [a.name] : []));
  if (badNames.length > 0) out.push(`the function arguments ${badNames.join(',')} are not in compliance with GraphQL spec`);
  if (cfg.session_argument && sessionIdx < 0) out.push(`given session argument "${cfg.session_argument}" not the input argument of the function`);
  else if (sessionIdx >= 0 && f.args[sessionIdx]!.type !== 'json') out.push(`given session argument "${cfg.session_argument}" is not of type json`);
  return out;
}

/** Hasura's makeReasonMessage: `because <reason>`, or each reason on a line of its own. */
function reasonMessage(reasons: readonly string[]): string {
  if (reasons.length === 1) return `because ${reasons[0]}`;
  return `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
}

// The roles given a function permission on a function.
const granted = (entry: NonNullable<Source['functions']>[number]): string[] => [...new Set((entry.permissions ?? []).map((p) => p.role))].sort();

/**
 * Tracked SQL functions that become root fields. Without `inferPermissions` (Hasura's
 * --infer-function-permissions false) a query function records the roles granted it too.
 */
export function resolveFunctions(source: Source, db: Introspection, tables: ReadonlyMap<string, TableModel>, issues: Issues, inferPermissions = true): FunctionModel[] {
  const out: FunctionModel[] = [];
  for (const entry of source.functions ?? []) {
    const inconsistent = (reason: string): void => issues.add({ type: 'function', name: functionObjectName(source.name, entry.function),
      definition: { ...entry.function }, reason });
    const fail = (reason: string): void => inconsistent(`in function ${JSON.stringify(qualifiedText(entry.function))}: ${reason}`);
    const f = findFunction(db, entry.function.schema, entry.function.name);
    if (typeof f === 'string') { fail(f); continue; }
    const cfg = entry.configuration ?? {};
    const sessionIdx = cfg.session_argument ? f.args.findIndex((a) => a.name === cfg.session_argument) : -1;
    const problems = trackingProblems(f, db, cfg, sessionIdx);
    if (problems.length > 0) { fail(`the function ${JSON.stringify(qualifiedText(entry.function))} cannot be tracked ${reasonMessage(problems)}`); continue; }
    const asMutation = (cfg.exposed_as ?? (f.volatility === 'volatile' ? 'mutation' : 'query')) === 'mutation';
    const ownName = cfg.custom_name ?? (f.schema === 'public' ? f.name : `${f.schema}_${f.name}`);
    const field = cfg.custom_root_fields?.function ?? ownName;
    // Without a custom name the function's own name becomes the field (Hasura's qualifiedObjectToName).
    if (cfg.custom_name === undefined && !/^[_A-Za-z][_0-9A-Za-z]*$/.test(f.schema === 'public' ? f.name : `${f.schema}_${f.name}`)) {
      const text = f.schema === 'public' ? f.name : `${f.schema}_${f.name}`;
      fail(`cannot include ${JSON.stringify(qualifiedText(entry.function))} in the GraphQL schema because ${JSON.stringify(text)} is not a valid GraphQL identifier`);
      continue;
    }
    // The return table is a dependency of the built function (buildFunctionInfo records
    // SOITable), resolved afterwards and reported without the function's context, as Hasura's
    // resolveDependency words it (Schema/Cache/Dependencies.hs: "table "t" is not tracked").
    const returns = tables.get(tableId(source.name, f.returnTypeSchema, f.returnType));
    if (!returns) { inconsistent(`table ${JSON.stringify(qualifiedText({ schema: f.returnTypeSchema, name: f.returnType }))} is not tracked`); continue; }
    out.push({
      id: `${source.name}:${f.schema}.${f.name}`, source: source.name, schema: f.schema, name: f.name, field: rootFieldName(source, field),
      // Hasura names the aggregate from `function_aggregate`, else from the custom name or the
      // function's own name: a custom `function` root field alone leaves `<name>_aggregate` as it is.
      aggregateField: rootFieldName(source, cfg.custom_root_fields?.function_aggregate ?? `${ownName}_aggregate`),
      args: userArgs(f, new Set(sessionIdx >= 0 ? [sessionIdx] : []), db), sessionArgument: sessionIdx >= 0 ? sessionIdx : null,
      totalArgs: f.args.length, returns: returns.id, returnsSet: f.returnsSet, comment: entry.comment ?? f.comment,
      ...(asMutation ? { mutation: { roles: granted(entry) } } : inferPermissions ? {} : { queryRoles: granted(entry) }),
    });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Computed fields of one table. */
export function resolveComputedFields(source: string, entry: TableEntry, table: TableModel, db: Introspection,
  tables: ReadonlyMap<string, TableModel>, issues: Issues): ComputedFieldModel[] {
  const out: ComputedFieldModel[] = [];
  for (const cf of entry.computed_fields ?? []) {
    const fail = (reason: string): void => issues.add({ type: 'computed_field', name: tableChildName('computed_field', cf.name, source, entry.table),
      definition: computedFieldDefinition(source, entry.table, cf) as Json, reason: `in table ${JSON.stringify(qualifiedText(entry.table))}: in computed field ${JSON.stringify(cf.name)}: ${reason}` });
    const f = findFunction(db, cf.definition.function.schema, cf.definition.function.name);
    if (typeof f === 'string') { fail(f); continue; }
    const checked = checkComputedField(cf, f, table, db, tables, source);
    if (typeof checked === 'string') { fail(checked); continue; }
    const clash = columnClash(table, cf.name);
    if (clash) {
      issues.add({ type: 'computed_field', name: tableChildName('computed_field', cf.name, source, entry.table),
        definition: computedFieldDefinition(source, entry.table, cf) as Json, reason: clash });
      continue;
    }
    const { tIdx, sIdx, returns } = checked;
    const skip = new Set([tIdx, ...(sIdx >= 0 ? [sIdx] : [])]);
    out.push({ name: cf.name, function: { schema: f.schema, name: f.name }, tableArgument: tIdx,
      sessionArgument: sIdx >= 0 ? sIdx : null, args: userArgs(f, skip, db), returns, comment: cf.comment ?? f.comment });
  }
  return out;
}

/**
 * Why a field other than a column (a computed field, a relationship) named `name` cannot sit beside
 * the table's columns, as Hasura's table cache finds it (Schema/Cache/Fields.hs): its name is the
 * GraphQL name a column was given under another name (`noCustomFieldConflicts`), or it is a
 * column's own name (`noColumnConflicts`, which compares with the column names whatever their
 * GraphQL names are). Null when neither.
 */
export function columnClash(table: Pick<TableModel, 'columns'>, name: string): string | null {
  const renamed = table.columns.find((c) => c.field === name && c.name !== name);
  if (renamed) return `field definition conflicts with custom field name for postgres column ${JSON.stringify(renamed.name)}`;
  if (table.columns.some((c) => c.name === name)) return 'field definition conflicts with postgres column';
  return null;
}

// A name as Hasura writes a schema-qualified object: the schema left out when it is `public`.
function qualified(schema: string, name: string): string {
  return schema === 'public' ? name : `${schema}.${name}`;
}

type CheckedComputedField = { readonly tIdx: number; readonly sIdx: number; readonly returns: ComputedFieldModel['returns'] };

/**
 * A computed field's function judged as Hasura judges it (RQL/DDL/ComputedField.hs,
 * buildComputedFieldInfo): the field's name, the function's volatility, its return type, its
 * table argument and its session argument, every problem reported in Hasura's words ("the
 * computed field "x" cannot be added to table "t" because ..." or "for the following
 * reasons: ..."). A named argument that does not exist ends the checks there, as in Hasura.
 */
function checkComputedField(cf: NonNullable<TableEntry['computed_fields']>[number], f: IntrospectedFunction, table: TableModel,
  db: Introspection, tables: ReadonlyMap<string, TableModel>, source: string): CheckedComputedField | string {
  const reasons: string[] = [];
  const fn = `"${qualified(f.schema, f.name)}"`;
  const explain = (): string => `the computed field "${cf.name}" cannot be added to table "${qualified(table.schema, table.name)}" `
    + (reasons.length === 1 ? `because ${reasons[0]}` : `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`);
  if (!isGraphqlName(cf.name)) reasons.push(`"${cf.name}" is not valid GraphQL name`);
  if (f.volatility === 'volatile') reasons.push(`the function ${fn} is of type VOLATILE; cannot be added as a computed field`);
  let returns: ComputedFieldModel['returns'] | null = null;
  const returnTypeKind = (db.types ?? []).find((t) => t.schema === f.returnTypeSchema && t.name === f.returnType)?.kind ?? 'base';
  if (f.returnKind === 'table') {
    const target = tables.get(tableId(source, f.returnTypeSchema, f.returnType));
    if (target) returns = { kind: 'table', table: target.id, set: f.returnsSet };
    else reasons.push(`the function ${fn} returning set of table "${qualified(f.returnTypeSchema, f.returnType)}" is not tracked or not found in database`);
  } else if (f.returnKind === 'scalar' && returnTypeKind === 'base') {
    const info = scalarFor(f.returnType, f.returnType.startsWith('_'));
    returns = { kind: 'scalar', type: f.returnType, scalar: info.scalar, category: info.category };
  } else {
    reasons.push(`the function ${fn} returning type ${f.returnType} is not a BASE type`);
  }
  const isComposite = (a: IntrospectedFunction['args'][number]): boolean => db.tables.some((t) => t.schema === a.typeSchema && t.name === a.type)
    || (db.types ?? []).some((t) => t.kind === 'composite' && t.schema === a.typeSchema && t.name === a.type);
  const checkTableArg = (what: string, a: IntrospectedFunction['args'][number]): void => {
    if (!isComposite(a)) reasons.push(`${what} is not COMPOSITE type`);
    if (a.typeSchema !== table.schema || a.type !== table.name) {
      reasons.push(`${what} of type "${qualified(a.typeSchema, a.type)}" is not the table to which the computed field is being added`);
    }
  };
  let tIdx = 0;
  const tableArg = cf.definition.table_argument;
  if (tableArg) {
    tIdx = f.args.findIndex((a) => a.name === tableArg);
    if (tIdx < 0) { reasons.push(`"${tableArg}" is not an input argument of the function ${fn}`); return explain(); }
    checkTableArg(`"${tableArg}" argument of the function ${fn}`, f.args[tIdx]!);
  } else if (f.args.length === 0) {
    reasons.push(`the function ${fn} has no input arguments`);
  } else {
    checkTableArg(`first argument of the function ${fn}`, f.args[0]!);
  }
  const sessionArg = cf.definition.session_argument;
  const sIdx = sessionArg ? f.args.findIndex((a) => a.name === sessionArg) : -1;
  if (sessionArg && sIdx < 0) { reasons.push(`"${sessionArg}" is not an input argument of the function ${fn}`); return explain(); }
  if (sessionArg && f.args[sIdx]!.type !== 'json' && f.args[sIdx]!.type !== 'jsonb') {
    reasons.push(`"${sessionArg}" argument of the function ${fn} is not of type JSON`);
  }
  if (reasons.length > 0 || !returns) return explain();
  // Kiln serves a scalar computed field of one value, not a set of them.
  if (returns.kind === 'scalar' && f.returnsSet) return `the computed field "${cf.name}" must return a scalar or a tracked table`;
  return { tIdx, sIdx, returns };
}
