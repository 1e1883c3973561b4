// report.html (DESIGN.md "The bundle"): what each role may do to each table, and how the tables
// relate, readable in a browser with no network: inline CSS and SVG, no script, no external file.

import type { BoolIr, BundleModel, PresetValue, TableId } from '../../runtime/bundle/index.js';
import { filterText, tableLabel } from './permission-text.js';
import { esc, relationshipSvg } from './report-graph.js';

const OPERATIONS = ['select', 'insert', 'update', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];

/** report.html: the permission matrix (table x operation x role) and the relationship graph. */
export function reportHtml(model: BundleModel): string {
  const ids = Object.keys(model.tables).sort();
  const roles = [...model.roles].sort();
  const sources = model.sources.map((s) => `${esc(s.name)} (${esc(s.dialect)})`).join(', ');
  // Roles with the same permissions on every table share one column (a large schema's roles
  // often differ only in a session variable's value): the matrix stays one column per distinct role.
  const columns = roleColumns(model, roles, ids);
  const rows = ids.flatMap((id, t) => OPERATIONS.map((op, i) => {
    const head = i === 0 ? `<th rowspan="${OPERATIONS.length}" class="table" scope="rowgroup">${esc(tableLabel(model, id))}</th>` : '';
    const attrs = (group: readonly string[]): string => `data-role="${esc(group.join(' '))}" data-table="${esc(tableLabel(model, id))}" data-op="${op}"`;
    return `<tr class="${op}">${head}<td class="op">${op}</td>${columns.map((c) => c.cells[t * OPERATIONS.length + i]!.replace(ATTRS, attrs(c.roles))).join('')}</tr>`;
  }));
  const rels = ids.flatMap((id) => model.tables[id]!.relationships.map((r) =>
    `<li><code>${esc(model.tables[id]!.typeName)}.${esc(r.name)}</code> → ${esc(tableLabel(model, r.target))} (${r.kind}; ${r.mapping.map(([a, b]) => `${esc(a)} = ${esc(b)}`).join(', ')})</li>`));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kiln bundle report</title>
<style>${STYLE}</style>
</head><body>
<h1>Kiln bundle report</h1>
<p class="meta">engine ${esc(model.engineVersion)} · ${roles.length} role(s) · ${ids.length} table(s) · sources: ${sources}</p>
<h2 id="permissions">Permission matrix</h2>
<p class="legend"><span class="cell all">all columns, all rows</span> <span class="cell filtered">some columns or rows</span> <span class="cell none">no permission</span></p>
<table class="matrix">
<thead><tr><th>table</th><th>operation</th>${columns.map((c) => `<th class="role" scope="col">${c.roles.map(esc).join(', ')}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
<h2 id="graph">Relationship graph</h2>
<p class="legend">solid arrow: object relationship · dashed arrow: array relationship</p>
${relationshipSvg(model)}
<h2 id="relationships">Relationships</h2>
<ul>
${rels.join('\n')}
</ul>
</body></html>
`;
}

const STYLE = [
  'body{font-family:system-ui,sans-serif;margin:2em;color:#1d2433;background:#fff}',
  'h1{font-size:1.6em}h2{margin-top:1.6em;font-size:1.25em}.meta,.legend{color:#4a5568}',
  'table.matrix{border-collapse:collapse;font-size:13px}',
  '.matrix th,.matrix td{border:1px solid #c8cfdb;padding:4px 8px;text-align:left;vertical-align:top}',
  '.matrix thead th{background:#2d3e5e;color:#fff}.matrix th.table{background:#eef1f6;font-family:ui-monospace,monospace}',
  '.matrix tr.select td,.matrix tr.select th{border-top:2px solid #2d3e5e}',
  '.op{font-weight:600;color:#2d3e5e}.cell{min-width:12em;max-width:28em}',
  '.cell.all{background:#dff3e4}.cell.filtered{background:#fff4d6}.cell.none{background:#f1f2f4;color:#8a93a3}',
  '.legend .cell{display:inline-block;min-width:0;padding:2px 8px;margin-right:6px;border:1px solid #c8cfdb}',
  '.cell p{margin:1px 0}.cell b{font-weight:400;color:#4a5568}.cell code{font-size:12px}',
  'svg.graph{border:1px solid #c8cfdb;background:#fafbfd;max-width:100%;height:auto}',
  '.node rect{fill:#2d3e5e}.node text{fill:#fff;font:12px ui-monospace,monospace}',
  '.edge path{fill:none;stroke:#4a5a78;stroke-width:1.5}.edge.array path{stroke-dasharray:6 4}',
  '.edge text{font:11px system-ui,sans-serif;fill:#1d2433;paint-order:stroke;stroke:#fafbfd;stroke-width:3px}',
].join('\n');

// Where a cell's attributes go (filled in per column: the roles of the column, the table, the operation).
const ATTRS = '\u0000';

// The matrix columns: each distinct role's cells (table by table, operation by operation), with the roles that have them.
function roleColumns(model: BundleModel, roles: readonly string[], ids: readonly TableId[]): { roles: string[]; cells: string[] }[] {
  const byCells = new Map<string, { roles: string[]; cells: string[] }>();
  for (const role of roles) {
    const cells = ids.flatMap((id) => OPERATIONS.map((op) => cell(model, role, id, op)));
    const key = cells.join('\n');
    const column = byCells.get(key);
    if (column) column.roles.push(role);
    else byCells.set(key, { roles: [role], cells });
  }
  return [...byCells.values()];
}

function cell(model: BundleModel, role: string, id: TableId, op: Operation): string {
  const attrs = ATTRS;
  const t = model.tables[id]!;
  const lines: string[] = [];
  let all = true;
  const columns = (cols: readonly string[]): void => {
    if (cols.length < t.columns.length) all = false;
    lines.push(line('columns', cols.length === t.columns.length ? `all (${cols.length})` : cols.length ? cols.map((c) => `<code>${esc(c)}</code>`).join(', ') : 'none'));
  };
  const rows = (key: string, ir: BoolIr): void => {
    if (ir.kind !== 'true') all = false;
    lines.push(line(key, `<code>${esc(filterText(model, id, ir))}</code>`));
  };
  const presets = (set: { readonly [c: string]: PresetValue }): void => {
    const keys = Object.keys(set);
    if (keys.length) lines.push(line('set', keys.map((c) => `<code>${esc(c)} = ${esc(presetText(set[c]!))}</code>`).join(', ')));
  };
  const w = model.mutations?.[role]?.[id];
  if (op === 'select') {
    const p = model.select[role]?.[id];
    if (!p) return `<td class="cell none" ${attrs}>—</td>`;
    columns(p.columns);
    if (p.computedFields.length) lines.push(line('computed', p.computedFields.map((c) => `<code>${esc(c)}</code>`).join(', ')));
    rows('rows', p.filter);
    const extra = [p.limit !== null ? `limit ${p.limit}` : '', p.allowAggregations ? 'aggregations' : ''].filter(Boolean);
    if (p.limit !== null) all = false;
    if (extra.length) lines.push(`<p class="extra">${extra.join(' · ')}</p>`);
  } else if (op === 'insert') {
    if (!w?.insert) return `<td class="cell none" ${attrs}>—</td>`;
    columns(w.insert.columns);
    rows('check', w.insert.check);
    presets(w.insert.set);
  } else if (op === 'update') {
    if (!w?.update) return `<td class="cell none" ${attrs}>—</td>`;
    columns(w.update.columns);
    rows('rows', w.update.filter);
    rows('check', w.update.check);
    presets(w.update.set);
  } else {
    if (!w?.delete) return `<td class="cell none" ${attrs}>—</td>`;
    rows('rows', w.delete.filter);
  }
  const backendOnly = op !== 'select' && (op === 'insert' ? w?.insert : op === 'update' ? w?.update : w?.delete)?.backendOnly;
  if (backendOnly) lines.push('<p class="extra">backend only</p>');
  return `<td class="cell ${all ? 'all' : 'filtered'}" ${attrs}>${lines.join('')}</td>`;
}

function line(key: string, html: string): string {
  // A paragraph with its key in bold (styled as a plain label): the matrix of a large schema has tens
  // of thousands of cells, each with two or three such lines.
  return `<p><b>${key}:</b> ${html}</p>`;
}

function presetText(p: PresetValue): string {
  return p.kind === 'session' ? p.name.split('-').map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w)).join('-') : JSON.stringify(p.value);
}
