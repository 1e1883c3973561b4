import type { BundleModel } from '../../runtime/bundle/index.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** report.html: the permission matrix (role x table: columns, filter, limit, aggregations) and the relationship list. */
export function reportHtml(model: BundleModel): string {
  const rows: string[] = [];
  for (const t of Object.values(model.tables)) {
    const cells = model.roles.map((role) => {
      const p = model.select[role]?.[t.id];
      if (!p) return '<td class="none">—</td>';
      const filter = p.filter.kind === 'true' ? 'all rows' : 'filtered';
      return `<td>${p.columns.length}/${t.columns.length} columns; ${filter}${p.limit !== null ? `; limit ${p.limit}` : ''}${p.allowAggregations ? '; aggregates' : ''}</td>`;
    });
    rows.push(`<tr><th>${esc(t.schema)}.${esc(t.name)}</th>${cells.join('')}</tr>`);
  }
  const rels = Object.values(model.tables).flatMap((t) => t.relationships.map((r) =>
    `<li>${esc(t.typeName)}.${esc(r.name)} → ${esc(model.tables[r.target]?.typeName ?? r.target)} (${r.kind}; ${r.mapping.map(([a, b]) => `${esc(a)} = ${esc(b)}`).join(', ')})</li>`));
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Kiln bundle report</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}.none{color:#999}</style>
</head><body>
<h1>Select permissions</h1>
<table><tr><th>table</th>${model.roles.map((r) => `<th>${esc(r)}</th>`).join('')}</tr>
${rows.join('\n')}
</table>
<h1>Relationships</h1>
<ul>
${rels.join('\n')}
</ul>
</body></html>
`;
}
