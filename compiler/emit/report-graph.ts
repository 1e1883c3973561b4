// The relationship graph of report.html as inline SVG: tables on a circle in id order, each
// relationship an arrow from its table to the target (object: solid, array: dashed), bent to
// one side so that the two directions of a pair stay apart. Coordinates are rounded: same model,
// same picture, byte for byte.

import type { BundleModel } from '../../runtime/bundle/index.js';
import { tableLabel } from './permission-text.js';

/** Escapes text for HTML and SVG. */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CHAR = 7.4; // width of a 12px monospace character
const BOX_H = 26;
const n1 = (x: number): string => (Math.round(x * 10) / 10).toString();

interface Node {
  readonly id: string;
  readonly label: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
}

/** The graph of tables and relationships as an `<svg>` element. */
export function relationshipSvg(model: BundleModel): string {
  const ids = Object.keys(model.tables).sort();
  if (ids.length === 0) return '<p class="none">No tracked tables.</p>';
  const labels = ids.map((id) => tableLabel(model, id));
  const widest = Math.max(...labels.map((l) => l.length)) * CHAR + 16;
  // Neighbours on the circle sit a chord apart: wide enough for the widest box and a gap.
  const radius = ids.length === 1 ? 0 : Math.max(140, (widest + 28) / (2 * Math.sin(Math.PI / ids.length)));
  const margin = widest / 2 + 40;
  const size = 2 * (radius + margin);
  const nodes = new Map<string, Node>(ids.map((id, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / ids.length;
    const label = labels[i]!;
    return [id, { id, label, x: size / 2 + radius * Math.cos(angle), y: size / 2 + radius * Math.sin(angle), w: label.length * CHAR + 16 }];
  }));
  const edges: string[] = [];
  for (const id of ids) {
    let loops = 0;
    for (const r of model.tables[id]!.relationships) {
      const from = nodes.get(id)!;
      const to = nodes.get(r.target);
      if (!to) continue;
      const title = `${model.tables[id]!.typeName}.${r.name} → ${tableLabel(model, r.target)} (${r.kind}: ${r.mapping.map(([a, b]) => `${a} = ${b}`).join(', ')})`;
      edges.push(edge(from, to, r.name, r.kind, title, from === to ? loops++ : 0));
    }
  }
  const boxes = [...nodes.values()].map((n) => `<g class="node" data-table="${esc(n.label)}"><rect x="${n1(n.x - n.w / 2)}" y="${n1(n.y - BOX_H / 2)}" width="${n1(n.w)}" height="${BOX_H}" rx="5"/>`
    + `<text x="${n1(n.x)}" y="${n1(n.y + 4)}" text-anchor="middle">${esc(n.label)}</text></g>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="${n1(size)}" height="${n1(size)}" viewBox="0 0 ${n1(size)} ${n1(size)}" role="img" aria-label="relationship graph">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#4a5a78"/></marker></defs>',
    ...edges, ...boxes, '</svg>',
  ].join('\n');
}

// A quadratic curve from box edge to box edge, bent to the left of its direction (so A→B and
// B→A bend apart); a table related to itself gets a loop above its box.
function edge(a: Node, b: Node, name: string, kind: 'object' | 'array', title: string, loop: number): string {
  const cls = `edge ${kind}`;
  if (a === b) {
    // Several loops on one table: side by side along the top of its box, right to left.
    const x = a.x + a.w / 2 - 22 - loop * 48;
    const y = a.y - BOX_H / 2;
    const d = `M${n1(x - 16)},${n1(y)} C${n1(x - 26)},${n1(y - 42)} ${n1(x + 26)},${n1(y - 42)} ${n1(x + 6)},${n1(y)}`;
    return `<g class="${cls}"><title>${esc(title)}</title><path d="${d}" marker-end="url(#arrow)"/><text x="${n1(x)}" y="${n1(y - 36)}" text-anchor="middle">${esc(name)}</text></g>`;
  }
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy);
  const [nx, ny] = [-dy / len, dx / len];
  const bend = Math.min(60, len * 0.18);
  const cx = (a.x + b.x) / 2 + nx * bend;
  const cy = (a.y + b.y) / 2 + ny * bend;
  const start = clip(a, cx, cy);
  const end = clip(b, cx, cy);
  const mx = 0.25 * start[0] + 0.5 * cx + 0.25 * end[0];
  const my = 0.25 * start[1] + 0.5 * cy + 0.25 * end[1];
  const d = `M${n1(start[0])},${n1(start[1])} Q${n1(cx)},${n1(cy)} ${n1(end[0])},${n1(end[1])}`;
  return `<g class="${cls}"><title>${esc(title)}</title><path d="${d}" marker-end="url(#arrow)"/>`
    + `<text x="${n1(mx)}" y="${n1(my - 3)}" text-anchor="middle">${esc(name)}</text></g>`;
}

// Where the segment from the box centre towards (px, py) leaves the box.
function clip(n: Node, px: number, py: number): [number, number] {
  const dx = px - n.x;
  const dy = py - n.y;
  const sx = dx === 0 ? Infinity : (n.w / 2 + 2) / Math.abs(dx);
  const sy = dy === 0 ? Infinity : (BOX_H / 2 + 2) / Math.abs(dy);
  const s = Math.min(sx, sy, 1);
  return [n.x + dx * s, n.y + dy * s];
}
