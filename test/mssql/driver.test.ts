// The MSSQL driver's parts that need no server: connection strings (URL and ODBC/ADO forms), the
// parameter types read from values, and SQL Server errors mapped by number to the codes
// PostgreSQL's get. A real server is exercised by test/mssql/live.test.ts (KILN_MSSQL_URL).
import { describe, expect, it } from 'vitest';
import { mssqlConfig, parameterType, parameterValue } from '../../runtime/drivers/mssql.js';
import { isMssqlConnectionString, mssqlUrlConfig } from '../../runtime/drivers/mssql-config.js';
import { mapMssqlError } from '../../runtime/drivers/mssql-error.js';

// The package ships no type declarations: loaded by a variable name, as the driver loads it.
const pkg = 'mssql';
const sql = ((await import(pkg)) as { default: Record<string, unknown> }).default;
const m = sql as unknown as Parameters<typeof mssqlConfig>[0] & Parameters<typeof parameterType>[0];

describe('MSSQL connection strings', () => {
  it('tells SQL Server connection strings from PostgreSQL URLs', () => {
    expect(isMssqlConnectionString('mssql://sa:pw@127.0.0.1:1433/chinook')).toBe(true);
    expect(isMssqlConnectionString('sqlserver://db/chinook')).toBe(true);
    expect(isMssqlConnectionString('Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Database=chinook;Uid=sa;Pwd=x;')).toBe(true);
    expect(isMssqlConnectionString('Data Source=db;Initial Catalog=chinook;User ID=sa;Password=x')).toBe(true);
    expect(isMssqlConnectionString('postgres://postgres@127.0.0.1:5432/test')).toBe(false);
    expect(isMssqlConnectionString('postgresql://u@h/db?options=server%3Dx')).toBe(false);
  });

  it('reads a URL', () => {
    expect(mssqlUrlConfig('mssql://sa:p%40ss@db.local:14330/chinook?encrypt=true')).toEqual({
      server: 'db.local', port: 14330, database: 'chinook', user: 'sa', password: 'p@ss', options: { encrypt: true, trustServerCertificate: true },
    });
    expect(mssqlUrlConfig('Server=x')).toBeNull();
  });

  it('reads the ADO/ODBC form with the mssql package, with the pool settings', () => {
    const c = mssqlConfig(m, { connectionString: 'Server=db,1444;Database=chinook;User Id=sa;Password=secret;Encrypt=false', max: 7, idleTimeoutSeconds: 60 });
    expect(c).toMatchObject({ server: 'db', port: 1444, database: 'chinook', user: 'sa', password: 'secret', pool: { max: 7, min: 0, idleTimeoutMillis: 60000 }, arrayRowMode: true });
    expect(() => mssqlConfig(m, { connectionString: 'postgres://x/y' })).toThrow(/not a SQL Server connection string/);
  });
});

describe('MSSQL parameters', () => {
  it('declares each parameter by its value', () => {
    expect(parameterType(m, 5)).toBe(sql.Int);
    expect(parameterType(m, 2 ** 40)).toBe(sql.BigInt);
    expect(parameterType(m, 1.5)).toBe(sql.Float);
    expect(parameterType(m, true)).toBe(sql.Bit);
    const text = parameterType(m, 'x') as { type: unknown; length: unknown };
    expect(text.type).toBe(sql.NVarChar);
    expect(text.length).toBe(sql.MAX);
  });

  it('sends arrays and objects as JSON text (read with OPENJSON)', () => {
    expect(parameterValue([1, 2, 'a'])).toBe('[1,2,"a"]');
    expect(parameterValue({ a: 1 })).toBe('{"a":1}');
    expect(parameterValue(undefined)).toBeNull();
    expect(parameterValue('x')).toBe('x');
  });
});

describe('MSSQL errors', () => {
  const err = (number: number, message: string) => Object.assign(new Error(message), { number, code: 'EREQUEST' });

  it('maps constraint violations, data exceptions and the rest by error number', () => {
    expect(mapMssqlError(err(2627, "Violation of PRIMARY KEY constraint 'album_pkey'."), { statement: 'INSERT ...' })).toMatchObject({
      code: 'constraint-violation', status: 400, message: "Uniqueness violation. Violation of PRIMARY KEY constraint 'album_pkey'.",
      internal: { statement: 'INSERT ...', error: { status_code: 2627 } },
    });
    expect(mapMssqlError(err(547, 'The INSERT statement conflicted with the FOREIGN KEY constraint'))).toMatchObject({ code: 'constraint-violation' });
    expect(mapMssqlError(err(515, 'Cannot insert the value NULL'))).toMatchObject({ code: 'constraint-violation' });
    expect(mapMssqlError(err(245, 'Conversion failed when converting the nvarchar value'))).toMatchObject({ code: 'data-exception', status: 400 });
    expect(mapMssqlError(err(8134, 'Divide by zero error encountered.'))).toMatchObject({ code: 'data-exception' });
    expect(mapMssqlError(err(208, "Invalid object name 'x'."))).toMatchObject({ code: 'mssql-error', message: 'database query error', status: 400 });
  });

  it('maps a server that cannot be reached to a connection error', () => {
    expect(mapMssqlError(Object.assign(new Error('Failed to connect'), { code: 'ESOCKET' }))).toMatchObject({ code: 'mssql-error', message: 'connection error', status: 500 });
  });
});
