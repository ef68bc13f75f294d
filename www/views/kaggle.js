// The kaggle view (src/protocols/kaggle/view.rs): for run-length-encoded masks, the images worst Dice first
// (the view `images`) and one image's overlay (the view `overlay`: one class per pixel, computed in Rust):
// both masks green, the submission alone magenta, the solution alone blue. For PredictionString boxes
// (src/protocols/kaggle/pstring_view.rs), the images most FP + FN first in a table whose ids choose the image
// drawn: its solution and submission boxes classified TP / FP / FN at IoU 0.5 as COCOeval matches them, drawn
// by www/boxes.js (the detection view's drawing) on a grey canvas of the boxes' extent. The other metrics have
// the report's per-item table only.

import { h } from '../util.js';
import { Zoom, imageNav, rgbaCanvas, swatch } from '../viewer.js';
import { COLOUR as BOX, corners, area, paint, details, boxTable } from '../boxes.js';

// Class 0 (neither) is transparent; 1 both, 2 the submission alone, 3 the solution alone.
const COLOURS = [[0, 0, 0, 0], [0, 200, 0, 255], [230, 0, 230, 255], [40, 90, 255, 255]];
const LEGEND = [['#00c800', 'both'], ['#e600e6', 'submission only'], ['#285aff', 'solution only']];
const fmt = (v) => (typeof v === 'number' ? v.toFixed(4) : '—');

export async function render(entry, ctx) {
  const report = entry.report;
  if (!ctx?.session) return [];
  const opts = { mode: ctx.mode ?? report.mode, set: ctx.set ?? {} };
  let list;
  try {
    list = await ctx.session.view('images', {}, opts);
    if (!list.masks) {
      const boxes = await ctx.session.view('box_images', {}, opts);
      return boxes.boxes && boxes.images.length ? boxView(boxes, ctx, opts) : [];
    }
  } catch {
    return [];
  }
  if (!list.images.length) return [];
  const nav = imageNav(list.images.map(([id, dice]) => ({ value: id, text: `${id}  (Dice ${fmt(dice)})` })), 'Image');
  const status = h('p', { class: 'muted small kaggle-status', 'aria-live': 'polite' }, '');
  const counts = h('p', { class: 'small kaggle-counts' });
  const canvas = /** @type {HTMLCanvasElement} */ (h('canvas', { class: 'viewer-canvas kaggle-canvas', role: 'img', 'aria-label': 'Mask overlay' }));
  const load = async () => {
    const id = nav.select.value;
    status.textContent = 'Drawing the overlay…';
    canvas.dataset.drawn = '0';
    try {
      const o = await ctx.session.view('overlay', { id }, opts);
      const rgba = new Uint8Array(o.width * o.height * 4);
      for (let i = 0; i < o.classes.length; i++) rgba.set(COLOURS[o.classes[i]] ?? COLOURS[0], i * 4);
      const scale = Math.max(1, Math.floor(512 / Math.max(o.width, o.height)));
      canvas.width = o.width * scale;
      canvas.height = o.height * scale;
      const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
      g.imageSmoothingEnabled = false;
      g.fillStyle = '#111';
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.drawImage(rgbaCanvas(rgba, o.width, o.height), 0, 0, canvas.width, canvas.height);
      canvas.setAttribute('aria-label', `Mask overlay of ${id}`);
      canvas.dataset.image = id;
      canvas.dataset.drawn = '1';
      counts.textContent = `${id}: ${o.width}×${o.height} px; solution ${o.gt_pixels} pixels, submission ${o.pred_pixels} pixels, Dice ${fmt(o.dice)}.`;
      status.textContent = `${list.images.length} of ${list.of} images, worst Dice first.`;
    } catch (e) {
      status.textContent = `The overlay could not be drawn: ${e?.message ?? e}`;
    }
  };
  nav.select.addEventListener('change', load);
  await load();
  return h('section', { class: 'kaggle-view viewer' },
    h('h3', {}, 'Masks: solution vs submission'),
    h('div', { class: 'viewer-controls' }, nav.box),
    h('ul', { class: 'viewer-legend' }, LEGEND.map(([c, t]) => h('li', {}, swatch(c), t))),
    h('figure', { class: 'viewer-pane' }, canvas), counts, status);
}

/** The per-image table of the listed images: each id a button that shows that image's boxes. */
function imageTable(list, show) {
  const head = ['Image', 'GT boxes', 'Detections', 'TP', 'FP', 'FN'];
  const about = `${list.images.length} of ${list.of} images, most FP + FN first (at IoU 0.5). Choose an image to draw its boxes.`;
  // The sentence above the table wraps at the page's width; the table, scrolled sideways on a phone, keeps it as its caption.
  return h('div', { class: 'pstring-images' }, h('p', { class: 'muted small', 'aria-hidden': 'true' }, about),
    h('div', { class: 'table-scroll table-tall' }, h('table', { class: 'data' }, h('caption', { class: 'visually-hidden' }, about),
    h('thead', {}, h('tr', {}, head.map((c, i) => h('th', { scope: 'col', class: i ? 'num' : '' }, c)))),
    h('tbody', {}, list.images.map(([id, ...n]) => h('tr', { dataset: { image: id } },
      h('th', { scope: 'row' }, h('button', { type: 'button', class: 'btn btn-small pstring-pick', 'aria-pressed': 'false', onclick: () => show(id) }, id)),
      n.map((v) => h('td', { class: 'num' }, String(v)))))))));
}

/** PredictionString boxes: the image table, an image picker and the chosen image's boxes (www/boxes.js). */
function boxView(list, ctx, opts) {
  const nav = imageNav(list.images.map(([id, , , tp, fp, fn]) => ({ value: id, text: `${id}  (TP ${tp}, FP ${fp}, FN ${fn})` })), 'Image');
  const status = h('p', { class: 'muted small pstring-status', 'aria-live': 'polite' }, '');
  const hint = () => h('p', { class: 'muted small' }, 'Click a box (or Tab to it on the focused canvas and press Enter) to see its class, confidence, IoU and match.');
  const info = h('div', { class: 'det-info', 'aria-live': 'polite' }, hint());
  const boxes = h('div', { class: 'table-scroll det-table' });
  let shown = null;
  const zoom = new Zoom({
    width: 1, height: 1,
    paint: (g, c, z) => paint(g, shown, z.scale * ((c.clientWidth || c.width) / c.width), true, true),
    pick: (x, y) => {
      const hits = (shown?.targets ?? []).filter((t) => x >= t.bbox[0] - 1 && x <= t.bbox[2] + 1 && y >= t.bbox[1] - 1 && y <= t.bbox[3] + 1);
      hits.sort((a, b) => area(a) - area(b));
      info.replaceChildren(...(hits.length ? hits.slice(0, 4).map((t) => details(shown.v, t)) : [h('p', { class: 'small muted' }, `(${x}, ${y}): no box`)]));
    },
    targets: () => shown?.targets ?? [],
    choose: (i) => info.replaceChildren(details(shown.v, shown.targets[i])),
    page: (step) => nav.go(step),
    announce: (t) => { status.textContent = t; },
  });
  const canvas = zoom.canvas({ label: 'Boxes of the chosen image', className: 'viewer-canvas det-canvas pstring-canvas' });
  const table = imageTable(list, (id) => {
    nav.select.value = id;
    nav.select.dispatchEvent(new Event('change'));
  });
  const load = async () => {
    const id = nav.select.value;
    for (const b of table.querySelectorAll('button.pstring-pick')) b.setAttribute('aria-pressed', String(b.textContent === id));
    status.textContent = 'Drawing…';
    canvas.dataset.drawn = '0';
    info.replaceChildren(hint());
    try {
      const v = await ctx.session.view('boxes', { id }, opts);
      const cat = (b) => v.categories[b.category];
      const targets = [
        ...v.gt.map((b, i) => ({ kind: 'gt', i, b, label: `GT box ${b.id} (${cat(b)}): ${b.status}`, bbox: corners(b.bbox) })),
        ...v.dets.filter((d) => d.status !== 'beyond maxDets').map((b, i) => ({ kind: 'det', i, b, label: `detection ${cat(b)} ${b.score}: ${b.status}`, bbox: corners(b.bbox) })),
      ];
      shown = { v, bitmap: null, targets };
      const w = Math.ceil(Math.max(1, ...targets.map((t) => t.bbox[2] + 1)));
      const hgt = Math.ceil(Math.max(1, ...targets.map((t) => t.bbox[3] + 1)));
      canvas.setAttribute('aria-label', `${id}: ${v.counts.tp} TP, ${v.counts.fp} FP, ${v.counts.fn} FN. Arrow keys pan, + and − zoom, Tab steps through the boxes, Enter shows the chosen box, PageUp/PageDown change the image.`);
      canvas.dataset.image = id;
      canvas.dataset.boxes = String(targets.length);
      zoom.resize(w, hgt);
      canvas.dataset.drawn = '1';
      status.textContent = `${id}: boxes within 0…${w} × 0…${hgt} (no image: a grey canvas of the boxes' extent); at IoU ${v.iou}, area ${v.area}, maxDets ${v.max_dets}: ${v.counts.tp} TP, ${v.counts.fp} FP, ${v.counts.fn} FN.`;
      boxes.replaceChildren(boxTable(v));
    } catch (e) {
      status.textContent = `The boxes could not be drawn: ${e?.message ?? e}`;
    }
  };
  nav.select.addEventListener('change', load);
  queueMicrotask(load);
  const key = (c, t, dashed) => h('span', { class: `viewer-key${dashed ? ' viewer-key-dashed' : ''}` }, swatch(c), t);
  return h('section', { class: 'kaggle-view pstring-view viewer' },
    h('h3', {}, 'Boxes: solution vs submission at IoU 0.5'),
    table,
    h('div', { class: 'viewer-controls' },
      h('button', { type: 'button', class: 'btn btn-small viewer-fit', onclick: () => zoom.fit() }, 'Fit'), nav.box),
    h('p', { class: 'viewer-legend small' },
      key(BOX.TP, 'solution box matched (solid) / submission box TP (dashed)'), key(BOX.FN, 'solution box missed: FN'),
      key(BOX.FP, 'submission box FP (dashed)', true), key(BOX.ignored, 'not evaluated (a class the solution lacks)')),
    status, h('figure', { class: 'viewer-pane' }, canvas), info, boxes);
}
