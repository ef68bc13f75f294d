// The fest view (specs/fest.md 8): per-manuscript table (×100), an overlay viewer per image (TP green, FP magenta,
// FN blue, lines the mode does not count hatched grey; GT lines outlined in their class colour; click a pixel for its
// GT line's IoU, precision, recall and class; wheel to zoom, drag to pan), official vs corrected side by side, and
// the per-GT-line and per-predicted-line tables of the chosen image. The RGBA buffer comes from the wasm
// (the session's fest_overlay, through the worker's 'fest-overlay' handler: the files the run read, not read again).

import { h } from '../util.js';

const CLASS_COLOUR = { CL: '#1a9c1a', ML: '#d62020', EL: '#f08c00', 'ML+EL': '#d62020', unmatched: '#d62020', 'not counted': '#888888' };
/** A colour swatch (CSSOM, as the page's CSP forbids style attributes). */
function swatch(colour) {
  const el = h('span', { class: 'fest-swatch' });
  if (colour) el.style.backgroundColor = colour;
  return el;
}
const cls = (c) => `fest-cls-${String(c).replace(/[^A-Za-z]+/g, '-')}`;
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
  out.push(viewer(report, scored, ctx));
  return out;
}

function viewer(report, items, ctx) {
  const select = h('select', { class: 'fest-image', 'aria-label': 'Image' },
    items.map((it) => h('option', { value: it.id }, `${it.id}  (Line IU ${pct(it.scores.line_iu)})`)));
  const compare = h('input', { type: 'checkbox', class: 'fest-compare' });
  const outline = h('input', { type: 'checkbox', class: 'fest-outline', checked: true });
  const status = h('p', { class: 'muted small fest-status' }, '');
  const info = h('div', { class: 'fest-info', 'aria-live': 'polite' }, h('p', { class: 'muted small' }, 'Click a line on the overlay to see its IoU, precision, recall and class.'));
  const panes = h('div', { class: 'fest-panes' });
  const tables = h('div', { class: 'fest-tables' });
  const view = { scale: 1, ox: 0, oy: 0 };
  let shown = [];

  const legend = h('p', { class: 'fest-legend small' },
    [['#00c800', 'TP (matched pair)'], ['#e600e6', 'FP'], ['#285aff', 'FN'], ['#787878', 'not counted'],
      ['#1a9c1a', 'CL outline'], ['#d62020', 'ML outline'], ['#f08c00', 'EL outline']]
      .map(([c, t]) => h('span', { class: 'fest-key' }, swatch(c), t)));

  const draw = () => {
    for (const p of shown) paint(p, view, outline.checked);
  };

  const load = async () => {
    const id = select.value;
    const modes = compare.checked ? ['official', 'corrected'] : [ctx.mode ?? report.mode];
    status.textContent = 'Drawing the overlay…';
    panes.replaceChildren();
    shown = [];
    try {
      for (const mode of modes) {
        const o = await ctx.session.request({ type: 'fest-overlay', options: { mode, set: mode === (ctx.mode ?? report.mode) ? ctx.set ?? {} : {} }, image: id });
        const pane = makePane(o, mode, view, draw, (x, y) => showInfo(info, o, x, y, mode));
        shown.push(pane);
        panes.append(pane.box);
      }
      fitView(view, shown[0], panes);
      draw();
      status.textContent = `${id}: ${shown[0].o.width}×${shown[0].o.height} px. Wheel to zoom, drag to pan, click a line.`;
      const it = items.find((i) => i.id === id);
      tables.replaceChildren(...lineTables(it, shown[0].o.meta));
    } catch (e) {
      status.textContent = `The overlay could not be drawn: ${e?.message ?? e}`;
    }
  };
  select.addEventListener('change', load);
  compare.addEventListener('change', load);
  outline.addEventListener('change', draw);
  queueMicrotask(load);
  return h('section', { class: 'fest-overlay-view' },
    h('h3', {}, 'Overlay'),
    h('div', { class: 'fest-controls' }, select,
      h('label', {}, outline, ' outline GT lines by class'),
      h('label', {}, compare, ' official and corrected side by side'),
      h('button', { type: 'button', class: 'btn btn-small', onclick: () => { fitView(view, shown[0], panes); draw(); } }, 'Fit')),
    legend, status, panes, info, tables);
}

function makePane(o, mode, view, redraw, onPick) {
  const img = new OffscreenCanvas(o.width, o.height);
  img.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(o.rgba.buffer, o.rgba.byteOffset, o.rgba.length), o.width, o.height), 0, 0);
  const canvas = h('canvas', { class: 'fest-canvas', width: 640, height: 480, dataset: { mode, drawn: '0' } });
  const box = h('figure', { class: 'fest-pane' }, canvas, h('figcaption', { class: 'small muted' }, mode));
  let drag = null;
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const mx = (e.clientX - r.left) * (canvas.width / r.width);
    const my = (e.clientY - r.top) * (canvas.height / r.height);
    const f = e.deltaY < 0 ? 1.25 : 0.8;
    view.ox = mx - (mx - view.ox) * f;
    view.oy = my - (my - view.oy) * f;
    view.scale *= f;
    redraw();
  }, { passive: false });
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, ox: view.ox, oy: view.oy, moved: false }; });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const k = canvas.width / canvas.getBoundingClientRect().width;
    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3) drag.moved = true;
    view.ox = drag.ox + (e.clientX - drag.x) * k;
    view.oy = drag.oy + (e.clientY - drag.y) * k;
    redraw();
  });
  canvas.addEventListener('pointerup', (e) => {
    const was = drag;
    drag = null;
    if (was?.moved) return;
    const r = canvas.getBoundingClientRect();
    const x = Math.floor(((e.clientX - r.left) * (canvas.width / r.width) - view.ox) / view.scale);
    const y = Math.floor(((e.clientY - r.top) * (canvas.height / r.height) - view.oy) / view.scale);
    onPick(x, y);
  });
  return { o, img, canvas, box };
}

function fitView(view, pane, container) {
  if (!pane) return;
  const s = Math.min(pane.canvas.width / pane.o.width, pane.canvas.height / pane.o.height);
  view.scale = s;
  view.ox = (pane.canvas.width - pane.o.width * s) / 2;
  view.oy = (pane.canvas.height - pane.o.height * s) / 2;
  void container;
}

function paint(p, view, outline) {
  const g = p.canvas.getContext('2d');
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.fillStyle = '#202020';
  g.fillRect(0, 0, p.canvas.width, p.canvas.height);
  g.imageSmoothingEnabled = false;
  g.setTransform(view.scale, 0, 0, view.scale, view.ox, view.oy);
  g.drawImage(p.img, 0, 0);
  if (outline) {
    g.lineWidth = Math.max(1 / view.scale, 0.5);
    for (const l of p.o.meta.gt_lines) {
      const [x0, y0, x1, y1] = l.bbox;
      g.strokeStyle = CLASS_COLOUR[l.class] ?? '#888888';
      g.strokeRect(x0 - 0.5, y0 - 0.5, x1 - x0 + 2, y1 - y0 + 2);
    }
  }
  p.canvas.dataset.drawn = '1';
}

function showInfo(info, o, x, y, mode) {
  if (x < 0 || y < 0 || x >= o.width || y >= o.height) return;
  const i = y * o.width + x;
  const g = o.gt_labels[i];
  const p = o.pred_labels[i];
  const rows = [h('p', { class: 'small' }, `${mode}: pixel (${x}, ${y})`)];
  if (g) {
    const l = o.meta.gt_lines[g - 1];
    rows.push(h('p', { class: 'fest-pick', dataset: { gt: String(g), cls: l.class } },
      h('strong', {}, `GT line ${g}`), ` (${l.pixels} px): `,
      l.pred ? [swatch(l.colour), ` prediction ${l.pred}, `] : 'no prediction, ',
      `IoU ${l.iou.toFixed(4)}, precision ${l.precision.toFixed(4)}, recall ${l.recall.toFixed(4)}, class `,
      h('strong', { class: cls(l.class) }, l.class)));
  }
  if (p) {
    const l = o.meta.pred_lines[p - 1];
    rows.push(h('p', { class: 'fest-pick-pred' },
      swatch(l?.colour), h('strong', {}, ` predicted line ${p}`),
      ` (${l?.pixels} px), matched GT lines: ${l?.gt?.length ? l.gt.join(', ') : 'none'}${l?.counted ? '' : ' (not counted)'}`));
  }
  if (!g && !p) rows.push(h('p', { class: 'small muted' }, 'background'));
  info.replaceChildren(...rows);
}

function lineTables(item, meta) {
  const gt = h('table', { class: 'data fest-gt-lines' },
    h('caption', {}, `GT lines of ${item.id}`),
    h('thead', {}, h('tr', {}, ['Line', 'Pixels', 'Bounding box', 'Best prediction', 'IoU', 'P', 'R', 'Class'].map((c) => h('th', {}, c)))),
    h('tbody', {}, meta.gt_lines.map((l) => h('tr', {},
      h('td', { class: 'num' }, String(l.label)), h('td', { class: 'num' }, String(l.pixels)),
      h('td', {}, `(${l.bbox[0]}, ${l.bbox[1]})–(${l.bbox[2]}, ${l.bbox[3]})`),
      h('td', {}, l.pred ? [swatch(l.colour), ` ${l.pred} ${l.colour}`] : '—'),
      h('td', { class: 'num' }, l.iou.toFixed(4)), h('td', { class: 'num' }, l.precision.toFixed(4)), h('td', { class: 'num' }, l.recall.toFixed(4)),
      h('td', { class: cls(l.class) }, l.class)))));
  const pred = h('table', { class: 'data fest-pred-lines' },
    h('caption', {}, `Predicted lines of ${item.id}`),
    h('thead', {}, h('tr', {}, ['Label', 'Colour', 'Pixels', 'Matched GT lines', 'Counted'].map((c) => h('th', {}, c)))),
    h('tbody', {}, meta.pred_lines.map((l) => h('tr', {},
      h('td', { class: 'num' }, String(l.label)),
      h('td', {}, swatch(l.colour), ` ${l.colour}`),
      h('td', { class: 'num' }, String(l.pixels)), h('td', {}, l.gt.join(', ') || '—'), h('td', {}, l.counted ? 'yes' : 'not counted')))));
  const c = meta.counts;
  return [h('p', { class: 'small' }, `N1 ${c.n1}, N2 ${c.n2}, M ${c.m}, TP ${c.tp}, FP ${c.fp}, FN ${c.fn}, CL ${c.cl}, ML ${c.ml}, EL ${c.el}`),
    h('div', { class: 'table-scroll' }, gt), h('div', { class: 'table-scroll' }, pred)];
}
