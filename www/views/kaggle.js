// The kaggle view (src/protocols/kaggle/view.rs): for run-length-encoded masks, the images worst Dice first
// (the view `images`) and one image's overlay (the view `overlay`: one class per pixel, computed in Rust):
// both masks green, the submission alone magenta, the solution alone blue. The other metrics have the report's
// per-item table only.

import { h } from '../util.js';
import { imageNav, rgbaCanvas, swatch } from '../viewer.js';

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
  } catch {
    return [];
  }
  if (!list.masks || !list.images.length) return [];
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
