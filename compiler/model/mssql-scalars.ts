// SQL Server column types in GraphQL terms, as Hasura's MSSQL backend names them: the character
// types are `String`, `int` is `Int`, `float` is `Float`, `bit` is `Boolean`; every other type
// keeps its SQL Server name (`numeric`, `bigint`, `datetime2`, `uniqueidentifier`), and `money`
// and `smallmoney` are `decimal`. Binary, bit and uniqueidentifier values are not ordered.

import type { ScalarCategory } from '../../runtime/bundle/index.js';
import type { ScalarInfo } from './scalars.js';

const STRING = new Set(['char', 'varchar', 'text', 'nchar', 'nvarchar', 'ntext']);
const NUMERIC = new Set(['numeric', 'decimal', 'money', 'smallmoney']);
const INTEGER = new Set(['smallint', 'bigint', 'tinyint']);
const DATETIME = new Set(['date', 'time', 'datetime', 'datetime2', 'smalldatetime', 'datetimeoffset']);
const UNORDERED = new Set(['binary', 'varbinary', 'bit', 'uniqueidentifier', 'image', 'geometry', 'geography', 'xml', 'sql_variant', 'hierarchyid']);

/** A SQL Server type (`nvarchar(160)`, `numeric(10,2)`, `int`) as a GraphQL scalar and its operator family. */
export function mssqlScalarFor(type: string): ScalarInfo {
  const base = type.replace(/\(.*$/, '').toLowerCase();
  const [scalar, category] = ((): readonly [string, ScalarCategory] => {
    if (STRING.has(base)) return ['String', 'string'];
    if (base === 'int') return ['Int', 'int'];
    if (base === 'float') return ['Float', 'float'];
    if (base === 'real') return ['real', 'float'];
    if (base === 'bit') return ['Boolean', 'boolean'];
    if (INTEGER.has(base)) return [base, 'int'];
    if (NUMERIC.has(base)) return [base === 'money' || base === 'smallmoney' ? 'decimal' : base, 'numeric'];
    if (DATETIME.has(base)) return [base, 'datetime'];
    if (base === 'uniqueidentifier') return [base, 'uuid'];
    return [base, 'other'];
  })();
  const numeric = category === 'int' || category === 'float' || category === 'numeric';
  return { scalar, category, comparable: !UNORDERED.has(base), numeric };
}
