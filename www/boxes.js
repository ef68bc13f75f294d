// Boxes classified TP / FP / FN (the shape of src/protocols/box_view.rs: an image's `gt` and `dets` with their
// status, match and IoU) drawn on a canvas, one box's details, and the table of an image's boxes: shared by the
// views of detection (boxes on the dropped image) and of kaggle's PredictionString (boxes on a grey canvas of
// the boxes' extent). Every status and count comes from the engine; this file only draws them.

import { h } from './util.js';
import { swatch } from './viewer.js';

export const COLOUR = { TP: '#00c800', FP: '#e600e6', FN: '#285aff', ignored: '#9a9a9a' };
const num = (v, d = 3) => (typeof v === 'number' ? v.toFixed(d) : '—');

/** COCO [x, y, w, h] as inclusive pixel corners [x0, y0, x1, y1]. */
export const corners = ([x, y, w, hh]) => [x, y, x + Math.max(w, 0) - 1, y + Math.max(hh, 0) - 1];
export const area = (t) => (t.bbox[2] - t.bbox[0] + 1) * (t.bbox[3] - t.bbox[1] + 1);

/** `scale`: screen pixels per image pixel (line widths and labels keep their size on screen). */
export function paint(g, shown, scale, gt, dets) {
  if (!shown) return;
  const { v, bitmap } = shown;
  if (bitmap) g.drawImage(bitmap, 0, 0);
  else {
    g.fillStyle = '#505050';
    g.fillRect(0, 0, zoomWidth(shown), zoomHeight(shown));
  }
  const lw = Math.max(2 / scale, 0.5);
  const box = (b, colour, dash, width = lw) => {
    g.lineWidth = width;
    g.setLineDash(dash.map((d) => d / scale));
    g.strokeStyle = colour;
    g.strokeRect(b[0], b[1], b[2], b[3]);
  };
  if (gt) for (const b of v.gt) box(b.bbox, b.status === 'FN' ? COLOUR.FN : b.status === 'TP' ? COLOUR.TP : COLOUR.ignored, b.crowd ? [2, 3] : [], b.status === 'FN' ? lw * 1.5 : lw);
  if (dets) {
    g.font = `${12 / scale}px system-ui, sans-serif`;
    for (const d of v.dets) {
      if (d.status === 'beyond maxDets') continue;
      const c = d.status === 'TP' ? COLOUR.TP : d.status === 'FP' ? COLOUR.FP : COLOUR.ignored;
      box(d.bbox, c, [6, 4]);
      g.fillStyle = c;
      g.fillText(`${v.categories[d.category]} ${num(d.score, 2)}`, d.bbox[0] + 2 / scale, d.bbox[1] - 3 / scale);
    }
  }
  g.setLineDash([]);
}
const zoomWidth = (s) => Math.max(1, ...s.targets.map((t) => t.bbox[2] + 1));
const zoomHeight = (s) => Math.max(1, ...s.targets.map((t) => t.bbox[3] + 1));

export function details(v, t) {
  const b = t.b;
  const cat = v.categories[b.category];
  if (t.kind === 'gt') {
    const d = b.det == null ? null : v.dets[b.det];
    return h('p', { class: 'det-pick', dataset: { kind: 'gt', status: b.status } }, swatch(COLOUR[b.status] ?? COLOUR.ignored),
      h('strong', {}, ` GT box ${b.id}`), ` ${cat}${b.crowd ? ' (crowd)' : ''}, [${b.bbox.map((x) => num(x, 1)).join(', ')}], area ${num(b.area, 1)}: `,
      h('strong', {}, b.status), d ? ` — matched by the detection of score ${num(d.score)} (IoU ${num(d.iou)})` : b.status === 'FN' ? ' — no detection reached IoU 0.5' : '');
  }
  const g = b.gt == null ? null : v.gt[b.gt];
  return h('p', { class: 'det-pick', dataset: { kind: 'det', status: b.status } }, swatch(COLOUR[b.status] ?? COLOUR.ignored),
    h('strong', {}, ` detection ${cat}`), `, score ${num(b.score)} (rank ${b.rank} in its image and category), [${b.bbox.map((x) => num(x, 1)).join(', ')}]: `,
    h('strong', {}, b.status), g ? ` — matched GT box ${g.id}${g.crowd ? ' (crowd)' : ''} at IoU ${num(b.iou)}` : b.status === 'FP' ? ' — no unmatched GT box of its category at IoU ≥ 0.5' : '');
}

export function boxTable(v) {
  const row = (kind, b) => h('tr', { dataset: { status: b.status } },
    h('td', {}, kind), h('td', {}, v.categories[b.category]), h('td', { class: 'num' }, b.score == null ? '' : num(b.score)),
    h('td', {}, b.bbox.map((x) => num(x, 1)).join(', ')), h('td', {}, b.status),
    h('td', { class: 'num' }, kind === 'GT' ? (b.det == null ? '—' : num(v.dets[b.det].iou)) : num(b.iou)));
  return h('table', { class: 'data det-boxes' },
    h('caption', {}, `Boxes of image ${v.name ?? v.image_id}`),
    h('thead', {}, h('tr', {}, ['Box', 'Category', 'Score', 'x, y, w, h', 'Status', 'IoU'].map((c) => h('th', {}, c)))),
    h('tbody', {}, [...v.gt.map((b) => row('GT', b)), ...v.dets.map((b) => row('detection', b))]));
}
