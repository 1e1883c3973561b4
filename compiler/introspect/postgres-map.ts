// Turns the JSON the PostgreSQL catalog queries return into the Introspection shapes: catalog codes
// (`relkind`, `typtype`, `provolatile`, ...) become words, and every list gets a fixed order.
import type {
  IntrospectedColumn, IntrospectedForeignKey, IntrospectedFunction, IntrospectedTable, IntrospectedType,
} from './types.js';

export interface RawMeta {
  readonly version: string;
  readonly schemas: readonly string[];
  readonly types: readonly RawType[];
}

export interface RawType {
  readonly schema: string;
  readonly name: string;
  readonly typtype: string;
  readonly labels: readonly string[] | null;
  readonly baseType: string | null;
  readonly baseTypeSchema: string | null;
}

export interface RawRelation {
  readonly schema: string;
  readonly name: string;
  readonly relkind: string;
  readonly comment: string | null;
  readonly updatable: number;
  readonly selectable: boolean;
  readonly columns: readonly RawColumn[];
  readonly constraints: readonly RawConstraint[];
}

interface RawColumn {
  readonly name: string;
  readonly position: number;
  readonly type: string;
  readonly typeSchema: string;
  readonly typtype: string;
  readonly elementType: string | null;
  readonly notNull: boolean;
  readonly default: string | null;
  readonly identity: string;
  readonly generated: string;
  readonly comment: string | null;
}

interface RawConstraint {
  readonly name: string;
  readonly type: 'p' | 'u' | 'f';
  readonly columns: readonly string[];
  readonly refSchema: string | null;
  readonly refTable: string | null;
  readonly refColumns: readonly string[] | null;
}

export interface RawFunction {
  readonly schema: string;
  readonly name: string;
  readonly comment: string | null;
  readonly volatility: string;
  readonly nargs: number;
  readonly nargdefaults: number;
  readonly args: readonly { readonly name: string | null; readonly mode: string | null; readonly type: string; readonly typeSchema: string }[];
  readonly returnType: string;
  readonly returnTypeSchema: string;
  readonly returnTyptype: string;
  readonly returnRelkind: string | null;
  readonly returnsSet: boolean;
}

/** Code-unit order, independent of any database collation or locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Order by (schema, name). */
export function bySchemaName(a: { schema: string; name: string }, b: { schema: string; name: string }): number {
  return compareText(a.schema, b.schema) || compareText(a.name, b.name);
}

const RELATION_KINDS: Readonly<Record<string, IntrospectedTable['kind']>> = {
  r: 'table', v: 'view', m: 'materialized_view', f: 'foreign_table', p: 'partitioned_table',
};

const TYPE_KINDS: Readonly<Record<string, IntrospectedColumn['typeKind']>> = {
  b: 'base', c: 'composite', d: 'domain', e: 'enum', r: 'range', m: 'multirange', p: 'pseudo',
};

const VOLATILITY: Readonly<Record<string, IntrospectedFunction['volatility']>> = {
  i: 'immutable', s: 'stable', v: 'volatile',
};

// pg_relation_is_updatable answers a bit mask of command types: 1 << CMD_UPDATE (2),
// 1 << CMD_INSERT (3), 1 << CMD_DELETE (4), the same bits information_schema tests.
const CAN_UPDATE = 1 << 2;
const CAN_INSERT = 1 << 3;
const CAN_DELETE = 1 << 4;

/** One relation with its columns (ordinal order) and constraints (by name). */
export function toTable(r: RawRelation): IntrospectedTable {
  const constraints = [...r.constraints].sort((a, b) => compareText(a.name, b.name));
  const pk = constraints.find((k) => k.type === 'p');
  return {
    schema: r.schema,
    name: r.name,
    kind: RELATION_KINDS[r.relkind] ?? 'table',
    comment: r.comment,
    columns: [...r.columns].sort((a, b) => a.position - b.position).map(toColumn),
    primaryKey: pk ? { name: pk.name, columns: pk.columns } : null,
    uniqueConstraints: constraints.filter((k) => k.type === 'u').map((k) => ({ name: k.name, columns: k.columns })),
    foreignKeys: constraints.filter((k) => k.type === 'f').map(toForeignKey),
    mutable: {
      insertable: (r.updatable & CAN_INSERT) !== 0,
      updatable: (r.updatable & CAN_UPDATE) !== 0,
      deletable: (r.updatable & CAN_DELETE) !== 0,
    },
  };
}

function toColumn(c: RawColumn): IntrospectedColumn {
  const kind = TYPE_KINDS[c.typtype] ?? 'base';
  const isArray = kind === 'base' && c.elementType !== null;
  return {
    name: c.name,
    position: c.position,
    type: c.type,
    typeSchema: c.typeSchema,
    typeKind: isArray ? 'array' : kind,
    elementType: isArray ? c.elementType : null,
    nullable: !c.notNull,
    default: c.default,
    generated: generatedKind(c),
    comment: c.comment,
  };
}

function generatedKind(c: RawColumn): IntrospectedColumn['generated'] {
  if (c.identity === 'a') return 'always';
  if (c.identity === 'd') return 'by_default';
  if (c.generated === 's') return 'stored';
  if (c.generated === 'v') return 'virtual';
  return null;
}

function toForeignKey(k: RawConstraint): IntrospectedForeignKey {
  return {
    name: k.name,
    columns: k.columns,
    refSchema: k.refSchema ?? '',
    refTable: k.refTable ?? '',
    refColumns: k.refColumns ?? [],
  };
}

// Input arguments are IN (`i`, also a null mode list), INOUT (`b`) and VARIADIC (`v`).
const INPUT_MODES = new Set(['i', 'b', 'v']);
// Relation kinds whose row type makes a function return "a table" (not a standalone composite).
const ROW_TYPE_RELKINDS = new Set(['r', 'v', 'm', 'f', 'p']);

/** All functions, sorted by (schema, name, argument types), each with its overload count. */
export function toFunctions(raw: readonly RawFunction[]): IntrospectedFunction[] {
  const mapped = raw.map(toFunction).sort((a, b) => bySchemaName(a, b) || compareText(signature(a), signature(b)));
  const counts = new Map<string, number>();
  const key = (f: { schema: string; name: string }): string => JSON.stringify([f.schema, f.name]);
  for (const f of mapped) counts.set(key(f), (counts.get(key(f)) ?? 0) + 1);
  return mapped.map((f) => ({ ...f, overloads: counts.get(key(f)) ?? 1 }));
}

function signature(f: IntrospectedFunction): string {
  return JSON.stringify(f.args.map((a) => [a.typeSchema, a.type]));
}

function toFunction(f: RawFunction): IntrospectedFunction {
  const inputs = f.args.filter((a) => INPUT_MODES.has(a.mode ?? 'i'));
  // pronargdefaults counts the trailing input arguments that have defaults.
  const firstDefault = f.nargs - f.nargdefaults;
  return {
    schema: f.schema,
    name: f.name,
    comment: f.comment,
    volatility: VOLATILITY[f.volatility] ?? 'volatile',
    args: inputs.map((a, i) => ({
      name: a.name === null || a.name === '' ? null : a.name,
      type: a.type,
      typeSchema: a.typeSchema,
      hasDefault: i >= firstDefault,
    })),
    returnType: f.returnType,
    returnTypeSchema: f.returnTypeSchema,
    returnKind: returnKind(f),
    returnsSet: f.returnsSet,
    overloads: 1,
    ...(inputs.some((a) => a.mode === 'v') ? { variadic: true as const } : {}),
  };
}

function returnKind(f: RawFunction): IntrospectedFunction['returnKind'] {
  if (f.returnTyptype === 'c' && f.returnRelkind !== null && ROW_TYPE_RELKINDS.has(f.returnRelkind)) return 'table';
  if (f.returnTyptype === 'p' && f.returnType === 'void') return 'void';
  if (f.returnTyptype === 'b' || f.returnTyptype === 'e' || f.returnTyptype === 'd') return 'scalar';
  return 'other';
}

const NAMED_TYPE_KINDS: Readonly<Record<string, IntrospectedType['kind']>> = {
  b: 'base', c: 'composite', d: 'domain', e: 'enum', r: 'range',
};

/** A user-defined type; enums carry their labels, domains their base type. */
export function toType(t: RawType): IntrospectedType {
  const kind = NAMED_TYPE_KINDS[t.typtype] ?? 'base';
  const base = { schema: t.schema, name: t.name, kind };
  if (kind === 'enum') return { ...base, enumValues: t.labels ?? [] };
  if (kind === 'domain' && t.baseType !== null && t.baseTypeSchema !== null) {
    return { ...base, baseType: t.baseType, baseTypeSchema: t.baseTypeSchema };
  }
  return base;
}
