// The PostgreSQL dialect reading an MSSQL plan's slot types: SQL Server type names as PostgreSQL
// casts, so the same IR can run on PostgreSQL (for the semantics tests; T-SQL cannot run here).
import { postgres, type Dialect } from '../../runtime/sql/index.js';

function pgType(type: string): string {
  const array = type.endsWith('[]');
  const base = type.replace(/\[\]$/, '').replace(/\(.*$/, '');
  const mapped = ({ int: 'int4', nvarchar: 'text', varchar: 'text', numeric: 'numeric', datetime2: 'timestamp', bit: 'bool' } as Record<string, string>)[base] ?? base;
  return array ? `${mapped}[]` : mapped;
}

export const postgresOfMssql: Dialect = { ...postgres, typedPlaceholder: (i, type) => postgres.typedPlaceholder(i, type === null ? null : pgType(type)) };
