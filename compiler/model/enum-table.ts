// Whether a table tracked with `is_enum` can be an enum, judged as Hasura judges it
// (RQL/DDL/Schema/Enum.hs, fetchAndValidateEnumValues): a one-column primary key of type text,
// at most one other column (the comment, of type text too), at least one row, and every value a
// GraphQL enum value name. Every reason found is reported, in Hasura's words.

import type { IntrospectedColumn, IntrospectedTable } from '../introspect/index.js';
import { isGraphqlName } from './scalars.js';

// Hasura's names of PostgreSQL types (pgScalarTypeToText): the catalog names it spells otherwise.
const TYPE_TEXT: { readonly [catalog: string]: string } = { int2: 'smallint', int4: 'integer', int8: 'bigint', float4: 'real', bool: 'boolean' };

function typeText(c: IntrospectedColumn): string {
  if (c.typeKind === 'array' && c.elementType) return `${TYPE_TEXT[c.elementType] ?? c.elementType}[]`;
  return TYPE_TEXT[c.type] ?? c.type;
}

function isText(c: IntrospectedColumn): boolean {
  return c.typeSchema === 'pg_catalog' && c.type === 'text';
}

const sortedList = (names: readonly string[]): string => [...names].sort().join(', ');

/** A value Hasura can make an enum value: a GraphQL name other than true, false and null. */
export function isEnumValueName(value: string): boolean {
  return isGraphqlName(value) && value !== 'true' && value !== 'false' && value !== 'null';
}

/**
 * Why `t` cannot be an enum, or null when it can. `values` are its rows (null when they were not
 * read: the table is not shaped as an enum, so a reason is found before the rows are looked at).
 */
export function enumTableProblem(t: IntrospectedTable, values: readonly { readonly value: string }[] | null): string | null {
  const reasons: string[] = [];
  const typeMismatch = (what: string, c: IntrospectedColumn): string =>
    `the table’s ${what} ("${c.name}") must have type "text", not type "${typeText(c)}"`;
  let key: IntrospectedColumn | null = null;
  const pk = t.primaryKey?.columns ?? [];
  if (pk.length === 0) reasons.push('the table must have a primary key');
  else if (pk.length > 1) reasons.push(`the table’s primary key must not span multiple columns (${sortedList(pk)})`);
  else {
    const c = t.columns.find((x) => x.name === pk[0])!;
    if (isText(c)) key = c;
    else reasons.push(typeMismatch('primary key', c));
  }
  // The other columns: all of them when the key is not usable.
  const others = t.columns.filter((c) => c !== key);
  if (others.length === 1 && !isText(others[0]!)) reasons.push(typeMismatch('comment column', others[0]!));
  if (others.length > 1) reasons.push(`the table must have exactly one primary key and optionally one comment column, not ${others.length} columns (${sortedList(others.map((c) => c.name))})`);
  if (key && values) {
    if (values.length === 0) reasons.push('the table must have at least one row');
    const bad = values.map((v) => v.value).filter((v) => !isEnumValueName(v)).sort();
    if (bad.length === 1) reasons.push(`the value "${bad[0]}" is not a valid GraphQL enum value name`);
    else if (bad.length === 2) reasons.push(`the values "${bad[0]}" and "${bad[1]}" are not valid GraphQL enum value names`);
    else if (bad.length > 2) reasons.push(`the values ${bad.slice(0, -1).join(', ')}, and "${bad[bad.length - 1]}" are not valid GraphQL enum value names`);
  }
  if (reasons.length === 0) return null;
  const because = reasons.length === 1 ? `because ${reasons[0]}` : `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
  return `the table "${t.name}" cannot be used as an enum ${because}`;
}
