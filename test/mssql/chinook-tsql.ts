// Chinook for SQL Server, made from fixtures/chinook/schema.sql: the same tables, keys and rows in
// dbo, with SQL Server types (nvarchar, numeric, datetime2) and IDENTITY ids as the shipped snapshot
// (fixtures/chinook-mssql) describes them. Returns T-SQL batches to run one after the other.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const IDENTITY: Readonly<Record<string, string>> = {
  artist: 'artist_id', album: 'album_id', track: 'track_id', genre: 'genre_id', media_type: 'media_type_id', customer: 'customer_id',
  employee: 'employee_id', invoice: 'invoice_id', invoice_line: 'invoice_line_id', playlist: 'playlist_id',
};
// SQL Server takes at most 1000 rows in one VALUES list.
const ROWS_PER_INSERT = 1000;

export function chinookTsql(): string[] {
  const text = readFileSync(join(import.meta.dirname, '../../fixtures/chinook/schema.sql'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const batches: string[] = [];
  for (const m of text.matchAll(/CREATE TABLE (\w+)\s*\(([\s\S]*?)\n\);/g)) {
    const table = m[1]!;
    const body = m[2]!.split('\n').map((line) => {
      let l = line.replace(/\bVARCHAR\(/g, 'NVARCHAR(').replace(/\bTIMESTAMP\b/g, 'DATETIME2');
      if (IDENTITY[table] && new RegExp(`^\\s*${IDENTITY[table]} INT NOT NULL`).test(l)) l = l.replace('INT NOT NULL', 'INT IDENTITY(1,1) NOT NULL');
      return l;
    }).join('\n');
    batches.push(`CREATE TABLE [dbo].[${table}]\n(${body}\n);`);
  }
  for (const m of text.matchAll(/INSERT INTO (\w+) \(([^)]*)\) VALUES\n([\s\S]*?);\n/g)) {
    const [, table, columns, rows] = m;
    const lines = rows!.split('\n').map((l) => l.trim().replace(/,$/, '')).filter(Boolean);
    for (let i = 0; i < lines.length; i += ROWS_PER_INSERT) {
      const insert = `INSERT INTO [dbo].[${table}] (${columns}) VALUES\n${lines.slice(i, i + ROWS_PER_INSERT).join(',\n')};`;
      batches.push(IDENTITY[table!] ? `SET IDENTITY_INSERT [dbo].[${table}] ON;\n${insert}\nSET IDENTITY_INSERT [dbo].[${table}] OFF;` : insert);
    }
  }
  for (const m of text.matchAll(/(ALTER TABLE \w+ ADD CONSTRAINT \w+\s+FOREIGN KEY[^;]*;|CREATE INDEX [^;]*;)/g)) batches.push(m[1]!);
  return batches;
}
