// The fest view (docs/specs/fest.md 8): per-manuscript table (×100), then the overlay viewer (per image, official vs
// corrected side by side, on the dropped page image, with the per-line tables).
//
// The overlay: TP green, FP magenta, FN blue, lines the mode does not count hatched grey; GT lines outlined in their
// class colour; official and corrected side by side (two columns from 1000 px); drawn on the dropped page image
// (img-<MS>/…/<stem>.jpg) when there is one, else on black. Mouse: wheel zooms, drag pans, a click on a line shows
// its IoU, precision, recall and class. Keyboard (www/viewer.js): arrows, + and −, Tab/Shift+Tab through the GT
// lines, Enter for the same details as a click, PageUp/PageDown for the image. The RGBA buffers come from the wasm
// session (the views `overlay` and `page-image`, src/protocols/fest/overlay.rs).

import { h } from '../util.js';
import { Zoom, imageNav, decodeImage, rgbaCanvas, swatch } from '../viewer.js';

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

const CLASS_COLOUR = { CL: '#1a9c1a', ML: '#d62020', EL: '#f08c00', 'ML+EL': '#d62020', unmatched: '#d62020', 'not counted': '#888888' };
const cls = (c) => `fest-cls-${String(c).replace(/[^A-Za-z]+/g, '-')}`;
const fest = (c) => swatch(c, 'fest-swatch');

/** The overlay section of the fest view: `items` are the report's scored images. */
function festViewer(report, items, ctx) {
  const nav = imageNav(items.map((it) => ({ value: it.id, text: `${it.id}  (Line IU ${pct(it.scores.line_iu)})` })), 'Image');
  nav.select.classList.add('fest-image');
  const compare = h('input', { type: 'checkbox', class: 'fest-compare' });
  const outline = h('input', { type: 'checkbox', class: 'fest-outline', checked: true });
  const status = h('p', { class: 'muted small fest-status', 'aria-live': 'polite' }, '');
  const hint = () => h('p', { class: 'muted small' }, 'Click a line on the overlay (or Tab to it on the focused overlay and press Enter) to see its IoU, precision, recall and class.');
  const info = h('div', { class: 'fest-info', 'aria-live': 'polite' }, hint());
  const panes = h('div', { class: 'fest-panes' });
  const tables = h('div', { class: 'fest-tables' });
  /** @type {{o: any, img: OffscreenCanvas, canvas: HTMLCanvasElement, mode: string, figure: HTMLElement}[]} */
  let shown = [];
  /** @type {ImageBitmap | null} */
  let page = null;
  const pane = (c) => shown.find((p) => p.canvas === c) ?? shown[0];
  const zoom = new Zoom({
    width: 1, height: 1,
    paint: (g, c, z) => paint(g, pane(c), page, outline.checked, z.scale),
    pick: (x, y, c) => { const p = pane(c); showInfo(info, p.o, x, y, p.mode); },
    targets: () => (shown[0]?.o.meta.gt_lines ?? []).map((l) => ({ label: `GT line ${l.label}, class ${l.class}`, bbox: l.bbox })),
    choose: (i, c) => {
      const p = pane(c);
      const l = p.o.meta.gt_lines[i];
      const at = firstPixel(p.o, l.label, l.bbox);
      if (at) showInfo(info, p.o, at[0], at[1], p.mode);
    },
    page: (step) => nav.go(step),
    announce: (t) => { status.textContent = t; },
  });

  const load = async () => {
    const id = nav.select.value;
    const mode0 = ctx.mode ?? report.mode;
    const modes = compare.checked ? ['official', 'corrected'] : [mode0];
    status.textContent = 'Drawing the overlay…';
    info.replaceChildren(hint());
    const focused = panes.contains(document.activeElement) ? [...panes.querySelectorAll('canvas')].indexOf(/** @type {any} */ (document.activeElement)) : -1;
    panes.replaceChildren();
    panes.classList.toggle('fest-panes-two', modes.length === 2);
    zoom.canvases = [];
    shown = [];
    try {
      const opts = (mode) => ({ mode, set: mode === mode0 ? ctx.set ?? {} : {} });
      const pageImg = await ctx.session.view('page-image', { image: id }, opts(mode0));
      page = pageImg ? await decodeImage(pageImg.bytes) : null;
      for (const mode of modes) {
        const o = await ctx.session.view('overlay', { image: id }, opts(mode));
        const p = overlayPane(o, page, zoom.canvas({ label: `${mode} overlay of ${id}`, mode, className: 'fest-canvas' }), mode);
        shown.push(p);
        panes.append(p.figure);
      }
      zoom.resize(shown[0].o.width, shown[0].o.height);
      if (focused >= 0) shown[Math.min(focused, shown.length - 1)].canvas.focus();
      const o0 = shown[0].o;
      const scaled = page && (page.width !== o0.width || page.height !== o0.height) ? ` (${page.width}×${page.height}, scaled to the mask)` : '';
      const under = pageImg ? `on the page image ${pageImg.path}${page ? scaled : ', which this browser cannot decode: on black'}` : 'on black (no page image img-<MS>/…/<stem>.jpg was dropped)';
      status.textContent = `${id}: ${shown[0].o.width}×${shown[0].o.height} px, ${under}. Wheel or + / − to zoom, drag or arrow keys to pan, click a line or Tab to it and press Enter.`;
      const it = items.find((i) => i.id === id);
      tables.replaceChildren(...lineTables(it, shown[0].o.meta));
    } catch (e) {
      status.textContent = `The overlay could not be drawn: ${e?.message ?? e}`;
    }
  };
  nav.select.addEventListener('change', load);
  compare.addEventListener('change', load);
  outline.addEventListener('change', () => zoom.draw());
  queueMicrotask(load);
  return h('section', { class: 'fest-overlay-view' },
    h('h3', {}, 'Overlay'),
    h('div', { class: 'fest-controls' },
      h('button', { type: 'button', class: 'btn btn-small', onclick: () => zoom.fit() }, 'Fit'),
      nav.box,
      h('label', {}, outline, ' outline GT lines by class'),
      h('label', {}, compare, ' official and corrected side by side')),
    legend(), status, panes, info, tables);
}

const legend = () => h('p', { class: 'fest-legend small' },
  [['#00c800', 'TP (matched pair)'], ['#e600e6', 'FP'], ['#285aff', 'FN'], ['#787878', 'not counted'],
    ['#1a9c1a', 'CL outline'], ['#d62020', 'ML outline'], ['#f08c00', 'EL outline']]
    .map(([c, t]) => h('span', { class: 'fest-key' }, fest(c), t)));

/**
 * One mode's overlay `o` in `canvas`, with its caption. On a page image the overlay's black (neither GT nor
 * prediction) is see-through and lines are blended.
 * @param {any} o @param {ImageBitmap | null} page @param {HTMLCanvasElement} canvas @param {string} mode
 */
function overlayPane(o, page, canvas, mode) {
  const img = rgbaCanvas(o.rgba, o.width, o.height, page ? { transparent: (i) => !o.gt_labels[i] && !o.pred_labels[i], alpha: 150 } : {});
  const figure = h('figure', { class: 'fest-pane' }, canvas, h('figcaption', { class: 'small muted' }, mode));
  return { o, img, canvas, mode, figure };
}

/** A pixel of GT line `label` (the first of its bounding box's rows), for Enter on a chosen line. */
function firstPixel(o, label, bbox) {
  const [x0, y0, x1, y1] = bbox;
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) if (o.gt_labels[y * o.width + x] === label) return [x, y];
  return null;
}

function paint(g, p, page, outline, scale) {
  if (!p) return;
  if (page) g.drawImage(page, 0, 0, p.o.width, p.o.height);
  else {
    g.fillStyle = '#000';
    g.fillRect(0, 0, p.o.width, p.o.height);
  }
  g.imageSmoothingEnabled = false;
  g.drawImage(p.img, 0, 0);
  if (outline) {
    g.lineWidth = Math.max(1 / scale, 0.5);
    for (const l of p.o.meta.gt_lines) {
      const [x0, y0, x1, y1] = l.bbox;
      g.strokeStyle = CLASS_COLOUR[l.class] ?? '#888888';
      g.strokeRect(x0 - 0.5, y0 - 0.5, x1 - x0 + 2, y1 - y0 + 2);
    }
  }
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
      l.pred ? [fest(l.colour), ` prediction ${l.pred}, `] : 'no prediction, ',
      `IoU ${l.iou.toFixed(4)}, precision ${l.precision.toFixed(4)}, recall ${l.recall.toFixed(4)}, class `,
      h('strong', { class: cls(l.class) }, l.class)));
  }
  if (p) {
    const l = o.meta.pred_lines[p - 1];
    rows.push(h('p', { class: 'fest-pick-pred' },
      fest(l?.colour), h('strong', {}, ` predicted line ${p}`),
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
      h('td', {}, l.pred ? [fest(l.colour), ` ${l.pred} ${l.colour}`] : '—'),
      h('td', { class: 'num' }, l.iou.toFixed(4)), h('td', { class: 'num' }, l.precision.toFixed(4)), h('td', { class: 'num' }, l.recall.toFixed(4)),
      h('td', { class: cls(l.class) }, l.class)))));
  const pred = h('table', { class: 'data fest-pred-lines' },
    h('caption', {}, `Predicted lines of ${item.id}`),
    h('thead', {}, h('tr', {}, ['Label', 'Colour', 'Pixels', 'Matched GT lines', 'Counted'].map((c) => h('th', {}, c)))),
    h('tbody', {}, meta.pred_lines.map((l) => h('tr', {},
      h('td', { class: 'num' }, String(l.label)),
      h('td', {}, fest(l.colour), ` ${l.colour}`),
      h('td', { class: 'num' }, String(l.pixels)), h('td', {}, l.gt.join(', ') || '—'), h('td', {}, l.counted ? 'yes' : 'not counted')))));
  const c = meta.counts;
  return [h('p', { class: 'small' }, `N1 ${c.n1}, N2 ${c.n2}, M ${c.m}, TP ${c.tp}, FP ${c.fp}, FN ${c.fn}, CL ${c.cl}, ML ${c.ml}, EL ${c.el}`),
    h('div', { class: 'table-scroll' }, gt), h('div', { class: 'table-scroll' }, pred)];
}
