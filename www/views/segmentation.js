// The segmentation view: per image, the overlay of the GT label map against the prediction (the wasm session's
// view `overlay`, src/protocols/segmentation/view.rs): correct green, wrong class magenta, not
// predicted blue, ignored (ignore_index or a value ≥ num_classes) hatched grey. A click (or Enter on the focused
// canvas, for the pixel at its centre) names the GT and predicted class of the pixel. Keyboard: www/viewer.js.

import { h } from '../util.js';
import { Zoom, imageNav, rgbaCanvas, swatch } from '../viewer.js';

const LEGEND = [['#00c800', 'correct'], ['#e600e6', 'wrong class'], ['#285aff', 'not predicted'], ['#787878', 'ignored (hatched)']];
const NONE = 65535;
const pct = (v) => (typeof v === 'number' ? (v * 100).toFixed(2) : '—');

export function render(entry, ctx) {
  const report = entry.report;
  const items = (report.items ?? []).filter((i) => i.group === 'image' && i.detail?.width);
  if (!items.length || !ctx?.session) return [];
  const nav = imageNav(items.map((it) => ({ value: it.id, text: `${it.id}  (pixel accuracy ${pct(it.detail.pixel_acc)}, mIoU ${pct(it.detail.mIoU)})` })), 'Image');
  const status = h('p', { class: 'muted small seg-status', 'aria-live': 'polite' }, '');
  const hint = () => h('p', { class: 'muted small' }, 'Click a pixel (or press Enter on the focused overlay for the pixel at its centre) to see its GT and predicted class.');
  const info = h('div', { class: 'seg-info', 'aria-live': 'polite' }, hint());
  const counts = h('p', { class: 'small seg-counts' });
  const figure = h('figure', { class: 'viewer-pane' });
  /** @type {{o: any, img: OffscreenCanvas} | null} */
  let shown = null;
  const className = (v) => {
    const names = shown?.o.meta.classes ?? [];
    if (v === NONE) return 'no prediction';
    return names[v] != null && names[v] !== String(v) ? `${names[v]} (${v})` : String(v);
  };
  const pick = (x, y) => {
    const o = shown?.o;
    if (!o || x < 0 || y < 0 || x >= o.width || y >= o.height) return;
    const i = y * o.width + x;
    const g = o.gt_labels[i];
    const p = o.pred_labels[i];
    const ignored = g === o.meta.ignore_index || g >= (o.meta.classes?.length ?? Infinity);
    const verdict = ignored ? 'ignored' : p === g ? 'correct' : p === NONE || p >= (o.meta.classes?.length ?? Infinity) ? 'not predicted' : 'wrong class';
    info.replaceChildren(h('p', { class: 'seg-pick', dataset: { verdict } },
      `pixel (${x}, ${y}): GT ${ignored ? `${g} (ignored)` : className(g)}, predicted ${className(p)}: `, h('strong', {}, verdict)));
  };
  const zoom = new Zoom({
    width: 1, height: 1,
    paint: (g) => {
      if (!shown) return;
      g.imageSmoothingEnabled = false;
      g.drawImage(shown.img, 0, 0);
    },
    pick,
    targets: () => [],
    page: (step) => nav.go(step),
  });
  const canvas = zoom.canvas({ label: 'Segmentation overlay', className: 'viewer-canvas seg-canvas' });
  canvas.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const x = Math.floor((canvas.width / 2 - zoom.ox) / zoom.scale);
    const y = Math.floor((canvas.height / 2 - zoom.oy) / zoom.scale);
    pick(x, y);
  });
  figure.append(canvas);
  const load = async () => {
    const id = nav.select.value;
    status.textContent = 'Drawing the overlay…';
    info.replaceChildren(hint());
    try {
      const o = await ctx.session.view('overlay', { image: id }, { mode: ctx.mode ?? report.mode, set: ctx.set ?? {} });
      shown = { o, img: rgbaCanvas(o.rgba, o.width, o.height) };
      canvas.setAttribute('aria-label', `Segmentation overlay of ${id}. Arrow keys pan, + and − zoom, 0 fits, Enter names the classes at the centre, PageUp/PageDown change the image.`);
      zoom.resize(o.width, o.height);
      const c = o.meta.counts;
      counts.textContent = `${id}: ${o.width}×${o.height} px; correct ${c.correct}, wrong class ${c.wrong}, not predicted ${c.missed}, ignored ${c.ignored} pixels.`;
      status.textContent = 'Wheel or + / − to zoom, drag or arrow keys to pan, click a pixel; PageUp/PageDown for the previous/next image.';
    } catch (e) {
      status.textContent = `The overlay could not be drawn: ${e?.message ?? e}`;
    }
  };
  nav.select.addEventListener('change', load);
  queueMicrotask(load);
  return h('section', { class: 'seg-view viewer' },
    h('h3', {}, 'Overlay: ground truth vs prediction'),
    h('div', { class: 'viewer-controls' }, h('button', { type: 'button', class: 'btn btn-small viewer-fit', onclick: () => zoom.fit() }, 'Fit'), nav.box),
    h('p', { class: 'viewer-legend small' }, LEGEND.map(([c, t]) => h('span', { class: 'viewer-key' }, swatch(c), t))),
    status, figure, counts, info);
}
