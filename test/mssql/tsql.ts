// The T-SQL parser of the MSSQL tests (@polyglot-sql/sdk, dialect "tsql"): the problems it finds
// in a statement, empty when it parses. It accepts FOR JSON, OUTER APPLY, OPENJSON, OUTPUT and
// MERGE; it rejects compound assignment (`SET [c] += 1`), so the renderer writes `[c] = [c] + 1`.
import { validate } from '@polyglot-sql/sdk';

/** Parse errors of one T-SQL statement (message, line, column). */
export async function validateTsql(text: string): Promise<string[]> {
  const r = validate(text, 'tsql');
  return r.errors.filter((e) => e.severity === 'error').map((e) => `${e.line}:${e.column} ${e.message}`);
}
