import { join, raw, sql, type Sql } from '../fragment.js';
import type { Dialect } from '../dialect.js';
import { multiplexValue } from '../multiplex.js';
import { postgresRenderer } from '../render/postgres/index.js';

// json_build_object takes at most 100 arguments; wider objects are built in chunks and merged.
const MAX_PAIRS = 50;

/** PostgreSQL: `$n` placeholders with explicit casts, JSON built by json_build_object/json_agg. */
export const postgres: Dialect = {
  name: 'postgres',
  can: {
    jsonInSql: true, returning: true, outputClause: false, distinctOn: true, lateral: true,
    upsert: 'on_conflict', multiplexing: true, writes: true, transactions: true,
  },
  render: postgresRenderer,
  quoteIdent: (part) => `"${part.replace(/"/g, '""')}"`,
  placeholder: (i) => `$${i}`,
  typedPlaceholder: (i, type) => (type ? `($${i})::${castType(type)}` : `$${i}`),
  keyLiteral: (name) => `'${name}'`,
  jsonObject(pairs) {
    if (pairs.length <= MAX_PAIRS) return buildObject(pairs);
    // Wider than one call allows: the keys stay in order when json objects are concatenated as text.
    const chunks: Sql[] = [];
    for (let i = 0; i < pairs.length; i += MAX_PAIRS) chunks.push(buildObject(pairs.slice(i, i + MAX_PAIRS)));
    const texts = chunks.map((c, i) => {
      const t = sql`(${c})::text`;
      if (i === 0) return sql`left(${t}, -1)`;
      if (i === chunks.length - 1) return sql`right(${t}, -1)`;
      return sql`substr(left(${t}, -1), 2)`;
    });
    return sql`(${join(texts, " || ',' || ")})::json`;
  },
  jsonArrayAgg: (row, orderBy) => (orderBy ? sql`json_agg(${row} ORDER BY ${orderBy})` : sql`json_agg(${row})`),
  emptyJsonArray: () => raw(`'[]'::json`),
  // A list reaches the cohort's text[] as an array literal, cast back to the slot's array type.
  cohortValue: multiplexValue,
  page(limit, offset) {
    const parts: Sql[] = [];
    if (limit) parts.push(sql` LIMIT ${limit}`);
    if (offset) parts.push(sql` OFFSET ${offset}`);
    return join(parts, '');
  },
};

function buildObject(pairs: ReadonlyArray<readonly [Sql, Sql]>): Sql {
  return sql`json_build_object(${join(pairs.map(([k, v]) => sql`${k}, ${v}`), ', ')})`;
}

// Type names in casts come from the catalog (`int4`, `_text`, `varchar`); quote anything unusual.
function castType(type: string): string {
  if (/^[a-z_][a-z0-9_]*(\[\])?$/.test(type)) return type;
  const m = /^(.*?)(\[\])?$/.exec(type)!;
  return m[1]!.split('.').map((p) => `"${p.replace(/"/g, '""')}"`).join('.') + (m[2] ?? '');
}
