// Where an MSSQL source's connection string leads: Hasura's ODBC/ADO form
// (`Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Database=chinook;Uid=sa;Pwd=...`,
// parsed by the mssql package) or a URL (`mssql://sa:pw@127.0.0.1:1433/chinook?encrypt=false`).

/** The part of the mssql package's connection config Kiln sets. */
export interface MssqlConfig {
  server?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  options?: { encrypt?: boolean; trustServerCertificate?: boolean; [k: string]: unknown };
  [k: string]: unknown;
}

/** True for a connection string of SQL Server (a URL of scheme mssql/sqlserver, or ADO/ODBC keys naming a server). */
export function isMssqlConnectionString(s: string): boolean {
  return /^(mssql|sqlserver):\/\//i.test(s) || /(^|;)\s*(server|data source|address|addr)\s*=/i.test(s);
}

/** A URL's parts as connection settings; null when `s` is no mssql:// or sqlserver:// URL. */
export function mssqlUrlConfig(s: string): MssqlConfig | null {
  if (!/^(mssql|sqlserver):\/\//i.test(s)) return null;
  const u = new URL(s.replace(/^[a-z]+:/i, 'http:'));
  const flag = (name: string, fallback: boolean): boolean => {
    const v = u.searchParams.get(name);
    return v === null ? fallback : /^(1|true|yes)$/i.test(v);
  };
  return {
    server: decodeURIComponent(u.hostname),
    port: u.port ? Number(u.port) : 1433,
    ...(u.pathname.length > 1 ? { database: decodeURIComponent(u.pathname.slice(1)) } : {}),
    ...(u.username ? { user: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    options: { encrypt: flag('encrypt', false), trustServerCertificate: flag('trustServerCertificate', true) },
  };
}
