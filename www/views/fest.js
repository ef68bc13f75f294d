// The fest view (specs/fest.md 8): per-manuscript table (×100), then the overlay viewer of www/viewer-fest.js (per
// image, official vs corrected side by side, on the dropped page image, with the per-line tables).

import { h } from '../util.js';
import { festViewer } from '../viewer-fest.js';

const pct = (v) => (v == null ? '—' : (v * 100).toFixed(2));
const num = (v) => h('span', { class: 'num', title: v == null ? 'not computable' : String(v) }, pct(v));

export function render(entry, ctx) {
  const report = entry.report;
  const out = [];
  out.push(h('section', { class: 'fest-view' },
    h('h3', {}, 'FEST: per manuscript (×100)'),
    h('div', { class: 'table-scroll' }, h('table', { class: 'data fest-ms' },
      h('thead', {}, h('tr', {}, ['Manuscript', 'Images', 'Pixel IU', 'Line IU', 'DR', 'RA', 'FM'].map((c) => h('th', {}, c)))),
      h('tbody', {}, report.groups.map((g) => h('tr', { dataset: { ms: g.id } },
        h('td', {}, g.id),
        h('td', { class: 'num' }, String(report.items.filter((i) => i.group === g.id).length)),
        ['pixel_iu', 'line_iu', 'dr', 'ra', 'fm'].map((k) => h('td', {}, num(g.scores[k])))))),
      h('tfoot', {}, h('tr', {}, h('th', {}, 'Leaderboard (mean Line IU)'), h('td', {}), h('td', {}), h('td', {}, num(report.scores.line_iu))))))));
  const scored = report.items.filter((i) => i.detail && i.detail.n1 != null);
  if (!scored.length || !ctx?.session) return out;
  out.push(festViewer(report, scored, ctx));
  return out;
}
