// Writes fixtures/chinook-mssql/: Chinook of fixtures/chinook as SQL Server holds it (schema dbo,
// SQL Server types), for compiling MSSQL bundles with no server.
//   catalog.json   what the MSSQL catalog query (compiler/introspect/mssql-query.ts) answers
//   metadata.json  fixtures/chinook/metadata.json moved to an `mssql` source in schema `dbo`
// introspection.json is the catalog read by the MSSQL reader: test/introspect/mssql.test.ts
// writes it with `-u` and otherwise checks it.
import { helpOnRequest } from './usage.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

helpOnRequest(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = (p) => resolve(root, 'fixtures/chinook', p);
const to = (p) => resolve(root, 'fixtures/chinook-mssql', p);
const pg = JSON.parse(readFileSync(from('introspection.json'), 'utf8'));
const ddl = readFileSync(from('schema.sql'), 'utf8');

// Declared lengths and precisions of the PostgreSQL script: `title VARCHAR(160)`.
const declared = new Map();
for (const m of ddl.matchAll(/CREATE TABLE (\w+)\s*\(([\s\S]*?)\n\);/g)) {
  for (const line of m[2].split('\n')) {
    const c = /^\s*(\w+)\s+(\w+)(?:\((\d+)(?:,(\d+))?\))?/.exec(line);
    if (c && c[1] !== 'CONSTRAINT') declared.set(`${m[1]}.${c[1]}`, { base: c[2].toLowerCase(), length: Number(c[3]), scale: Number(c[4] ?? 0) });
  }
}

// PostgreSQL type -> SQL Server column as sys.columns describes it.
function column(t, c) {
  const d = declared.get(`${t.name}.${c.name}`);
  const shape = (() => {
    switch (c.type) {
      case 'int4': return { type: 'int', maxLength: 4, precision: 10, scale: 0 };
      case 'varchar': return { type: 'nvarchar', maxLength: d.length * 2, precision: 0, scale: 0 };
      case 'numeric': return { type: 'numeric', maxLength: 9, precision: d.length, scale: d.scale };
      case 'timestamp': return { type: 'datetime2', maxLength: 8, precision: 27, scale: 7 };
      default: throw new Error(`no SQL Server type for ${c.type}`);
    }
  })();
  return {
    position: c.position, name: c.name, type: shape.type, baseType: shape.type, typeSchema: 'sys',
    maxLength: shape.maxLength, precision: shape.precision, scale: shape.scale,
    nullable: c.nullable, identity: c.generated === 'by_default', computed: false, default: null, comment: null,
  };
}

const catalog = {
  version: null,
  schemas: [{ name: 'dbo' }],
  tables: pg.tables.map((t) => ({
    schema: 'dbo', name: t.name, kind: 'table', comment: null,
    columns: t.columns.map((c) => column(t, c)),
    keys: [
      ...(t.primaryKey ? [{ name: t.primaryKey.name, type: 'PK', columns: t.primaryKey.columns.map((name) => ({ name })) }] : []),
      ...t.uniqueConstraints.map((u) => ({ name: u.name, type: 'UQ', columns: u.columns.map((name) => ({ name })) })),
    ],
    foreignKeys: t.foreignKeys.map((fk) => ({
      name: fk.name, refSchema: 'dbo', refTable: fk.refTable,
      columns: fk.columns.map((col, i) => ({ column: col, refColumn: fk.refColumns[i] })),
    })),
  })),
};
writeFileSync(to('catalog.json'), JSON.stringify(catalog, null, 1) + '\n');

// The metadata: the same tables, relationships and permissions on an mssql source in dbo.
const md = JSON.parse(readFileSync(from('metadata.json'), 'utf8'));
const moved = JSON.parse(JSON.stringify(md).replaceAll('"schema":"public"', '"schema":"dbo"'));
for (const s of moved.sources) {
  s.kind = 'mssql';
  s.configuration = { connection_info: { connection_string: { from_env: 'KILN_MSSQL_URL' }, pool_settings: { max_connections: 10 } } };
}
writeFileSync(to('metadata.json'), JSON.stringify(moved, null, 2) + '\n');
