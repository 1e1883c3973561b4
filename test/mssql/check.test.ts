// `kiln check` on an MSSQL bundle: Chinook in dbo with an `artist` role that reads, inserts,
// updates and deletes its own albums. The proof on the IR covers every root field; the reading
// of the T-SQL files finds the role's filter at each table reference and its checks on the rows
// written (OUTPUT INTO a temporary table, then NOT EXISTS of a row failing the check), and finds
// each hand-made break.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkBundle } from '../../compiler/cli/check.js';
import { FilterProver } from '../../compiler/cli/check-filters.js';
import { buildBundle, type Bundle } from '../../compiler/emit/index.js';
import { introspectionFromJson } from '../../compiler/introspect/index.js';
import { parseMetadata } from '../../compiler/metadata/index.js';
import { asBundleDir } from '../cli/blog-variants.js';

const dir = join(import.meta.dirname, '../../fixtures/chinook-mssql');
let bundle: Bundle;

const own = { artist_id: { _eq: 'X-Svc-Artist-Id' } };
function metadata(): unknown {
  const md = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as { sources: { tables: { table: { name: string }; [k: string]: unknown }[] }[] };
  const album = md.sources[0]!.tables.find((t) => t.table.name === 'album')!;
  album['select_permissions'] = [{ role: 'artist', permission: { columns: ['album_id', 'title', 'artist_id'], filter: own, allow_aggregations: true } }];
  album['insert_permissions'] = [{ role: 'artist', permission: { columns: ['title'], check: own, set: { artist_id: 'X-Svc-Artist-Id' } } }];
  album['update_permissions'] = [{ role: 'artist', permission: { columns: ['title'], filter: own, check: { title: { _nlike: '%!%' } } } }];
  album['delete_permissions'] = [{ role: 'artist', permission: { filter: own } }];
  return md;
}

beforeAll(async () => {
  const md = parseMetadata(metadata());
  if (!md.value) throw new Error(md.errors.map((e) => e.message).join('; '));
  const snap = introspectionFromJson(JSON.parse(readFileSync(join(dir, 'introspection.json'), 'utf8')));
  bundle = await buildBundle({ metadata: md.value, introspection: { default: snap }, engineVersion: 'test' });
}, 60_000);

const file = (path: string): string => bundle.files.get(path) ?? (() => { throw new Error(`no ${path}`); })();
const edited = (path: string, from: string, to: string): Record<string, string> => {
  const text = file(path);
  if (!text.includes(from)) throw new Error(`${path} does not contain ${from}`);
  return { [path]: text.replace(from, to) };
};
const missingOf = (replace: Record<string, string>) => checkBundle(asBundleDir(bundle, replace)).missing;

describe('kiln check on an MSSQL bundle', () => {
  it('proves every table reference and every root field plan', () => {
    const r = checkBundle(asBundleDir(bundle));
    expect(bundle.inconsistencies).toEqual([]);
    expect(r.missing).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.references).toBeGreaterThan(r.statements);
    expect(r.filters['artist']).toEqual({ 'dbo.album': 'ok' });
    expect(r.ir.problems).toEqual([]);
    expect(r.ir.checked).toBeGreaterThan(100);
    expect(Object.keys(bundle.model.roots['artist']!.mutation ?? {})).toEqual(expect.arrayContaining(['insert_album', 'update_album', 'delete_album_by_pk']));
  });

  it('finds a select without the role filter', () => {
    const missing = missingOf(edited('sql/artist/album.sql', 'WHERE ([_album_1].[artist_id] = @p1)', 'WHERE 1 = 1'));
    expect(missing).toEqual([expect.objectContaining({ role: 'artist', table: 'dbo.album', operation: 'select' })]);
  });

  it('finds an update or delete without the role filter', () => {
    const upd = file('sql/artist/update_album.sql');
    const where = /WHERE \(\[_album_1\]\.\[artist_id\] = @p\d+\)/.exec(upd)![0];
    expect(missingOf(edited('sql/artist/update_album.sql', where, 'WHERE 1 = 1'))).toEqual([expect.objectContaining({ table: 'dbo.album', operation: 'update' })]);
    const del = file('sql/artist/delete_album_by_pk.sql');
    const delWhere = /WHERE \(\[_album_1\]\.\[artist_id\] = @p\d+\)/.exec(del)![0];
    expect(missingOf(edited('sql/artist/delete_album_by_pk.sql', delWhere, 'WHERE 1 = 1'))).toEqual([expect.objectContaining({ table: 'dbo.album', operation: 'delete' })]);
  });

  it('finds an insert or update whose check is not evaluated on the written rows', () => {
    const ins = file('sql/artist/insert_album.sql');
    expect(ins).toMatch(/OUTPUT INSERTED\.\* INTO \[#kiln_w1\]/);
    expect(ins).toMatch(/WHEN NOT \(NOT EXISTS \(/);
    const broken = ins.replace(/FROM \[#kiln_w1\]\) AS \[_album_(\d+)\]\s*WHERE NOT/, 'FROM [dbo].[album]) AS [_album_$1] WHERE NOT');
    expect(broken).not.toBe(ins);
    // The check now reads the table itself: not the inserted rows, and unfiltered.
    expect(missingOf({ 'sql/artist/insert_album.sql': broken })).toEqual([
      expect.objectContaining({ table: 'dbo.album', operation: 'insert', problem: 'the insert check is not evaluated on the inserted rows' }),
      expect.objectContaining({ table: 'dbo.album', operation: 'select' }),
    ]);
    const upd = file('sql/artist/update_album.sql');
    const noCheck = upd.replace(/\(CAST\(\[_album_\d+\]\.\[title\] AS nvarchar\(max\)\) NOT LIKE @p\d+\)/, "1 = 1");
    expect(noCheck).not.toBe(upd);
    expect(missingOf({ 'sql/artist/update_album.sql': noCheck })).toEqual([expect.objectContaining({ operation: 'update', problem: 'the update check is not evaluated on the updated rows' })]);
  });
});

describe("kiln check on T-SQL that reads an invoice's lines through the invoice", () => {
  const golden = readFileSync(join(import.meta.dirname, '../golden/mssql/shapes/the-customer-role-reads-the-lines-of-its-invoices-through-them.sql'), 'utf8');
  const join1 = '([_invoice_line_1].[invoice_id] = [_invoice_1].[invoice_id])';
  const problems = (text: string) => new FilterProver(bundle.model).proveFile('customer', text).filter((p) => p.problem).map((p) => p.table);

  it('proves the lines, whose filter the invoice row proves, with or without other conjuncts', () => {
    expect(golden).toContain(join1);
    const proofs = new FilterProver(bundle.model).proveFile('customer', golden);
    expect(proofs.map((p) => `${p.table} ${p.problem}`).sort()).toEqual(['default:dbo.invoice null', 'default:dbo.invoice_line null', 'default:dbo.invoice_line null']);
    expect(problems(golden.replace(join1, `${join1} AND ([_invoice_line_1].[quantity] > 0)`))).toEqual([]);
  });

  it('finds lines tied to the invoice by another key', () => {
    expect(problems(golden.replace(join1, '([_invoice_line_1].[invoice_id] = [_invoice_1].[customer_id])'))).toEqual(['default:dbo.invoice_line']);
  });
});
