import { raw, sql } from '../fragment.js';
import type { Dialect } from '../dialect.js';
import { jsonCohortValue } from '../multiplex.js';
import { mssqlRenderer, unsupported } from '../render/mssql/index.js';

/**
 * SQL Server: `[name]` identifiers, `@pN` parameters (sp_executesql; the driver declares each
 * one's type), JSON built with FOR JSON PATH. No DISTINCT ON, no RETURNING (OUTPUT instead),
 * upserts as MERGE.
 */
export const mssql: Dialect = {
  name: 'mssql',
  can: {
    jsonInSql: true, returning: false, outputClause: true, distinctOn: false, lateral: true,
    upsert: 'merge', multiplexing: true, writes: true, transactions: true,
  },
  render: mssqlRenderer,
  quoteIdent: (part) => `[${part.replace(/]/g, ']]')}]`,
  placeholder: (i) => `@p${i}`,
  typedPlaceholder: (i) => `@p${i}`,
  keyLiteral: (name) => `N'${name}'`,
  // The T-SQL renderer builds its JSON with FOR JSON PATH, whose keys are column aliases; these
  // helpers of the PostgreSQL renderer's shape (keys as string literals) have no T-SQL form.
  jsonObject: () => unsupported('a JSON object built from key literals'),
  jsonArrayAgg: () => unsupported('a JSON array aggregate'),
  emptyJsonArray: () => raw(`N'[]'`),
  // OPENJSON reads the cohort arrays: a list (an `_in` variable) travels as JSON text inside them.
  cohortValue: jsonCohortValue,
  page(limit, offset) {
    if (!offset && !limit) return raw('');
    const fetch = limit ? sql` FETCH NEXT ${limit} ROWS ONLY` : raw('');
    return sql` OFFSET ${offset ?? raw('0')} ROWS${fetch}`;
  },
};
