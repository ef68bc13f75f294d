// The detection view: when images are dropped with the COCO ground truth and detections, each
// image (matched by the annotation file's file_name) is drawn with its GT boxes and detections classified TP / FP /
// FN at IoU 0.5, area all, the largest maxDets, as COCOeval's evaluateImg matches them (computed in the wasm
// session: src/protocols/detection/viewer.rs, the views `images` and `image`).
// A click on a box (or Tab to it on the focused canvas, then Enter) shows its details. Keyboard: www/viewer.js.

import { h } from '../util.js';
import { Zoom, imageNav, decodeImage, swatch } from '../viewer.js';
import { COLOUR, corners, area, paint, details, boxTable } from '../boxes.js';

const IMAGE_FILE = /\.(jpe?g|png|gif|webp|bmp)$/i;
const base = (p) => String(p).split(/[/\\!]/).pop() ?? '';
const num = (v, d = 3) => (typeof v === 'number' ? v.toFixed(d) : '—');

/** The dropped image files by base name (the page's files of this run). */
function droppedImages(ctx) {
  const out = new Map();
  for (const f of ctx.session?.files ?? []) if (IMAGE_FILE.test(f.path) && !out.has(base(f.path))) out.set(base(f.path), f);
  return out;
}

export async function render(entry, ctx) {
  const report = entry.report;
  if (!ctx?.session || report.scores?.AP == null) return [];
  const files = droppedImages(ctx);
  if (!files.size) {
    return h('p', { class: 'muted small det-no-images' }, 'Drop the images too (their file names as in the annotation file’s file_name) to see the GT boxes and the detections (TP / FP / FN at IoU 0.5) drawn on them.');
  }
  const options = { mode: ctx.mode ?? report.mode, set: ctx.set ?? {} };
  const all = await ctx.session.view('images', {}, options);
  const byId = new Map((report.items ?? []).filter((i) => i.group === 'image').map((i) => [i.detail?.image_id, i]));
  const images = all.filter((im) => im.name && files.has(base(im.name)));
  if (!images.length) {
    return h('p', { class: 'notice det-no-images' }, `None of the ${files.size} dropped image(s) is named in the annotation file’s file_name (e.g. ${all[0]?.name ?? '—'}).`);
  }
  const label = (im) => {
    const d = byId.get(im.image_id)?.detail ?? {};
    return `${im.name}  (TP ${d.tp50 ?? '—'}, FP ${d.fp50 ?? '—'}, FN ${d.fn50 ?? '—'})`;
  };
  const nav = imageNav(images.map((im) => ({ value: String(im.image_id), text: label(im) })), 'Image');
  const status = h('p', { class: 'muted small det-status', 'aria-live': 'polite' }, '');
  const hint = () => h('p', { class: 'muted small' }, 'Click a box (or Tab to it on the focused image and press Enter) to see its category, score, IoU and match.');
  const info = h('div', { class: 'det-info', 'aria-live': 'polite' }, hint());
  const table = h('div', { class: 'table-scroll det-table' });
  const showGt = h('input', { type: 'checkbox', class: 'det-show-gt', checked: true });
  const showDet = h('input', { type: 'checkbox', class: 'det-show-dets', checked: true });
  /** @type {{v: any, bitmap: ImageBitmap | null, targets: any[]} | null} */
  let shown = null;
  const zoom = new Zoom({
    width: 1, height: 1,
    paint: (g, c, z) => paint(g, shown, z.scale * ((c.clientWidth || c.width) / c.width), showGt.checked, showDet.checked),
    pick: (x, y) => {
      const hits = (shown?.targets ?? []).filter((t) => x >= t.bbox[0] - 1 && x <= t.bbox[2] + 1 && y >= t.bbox[1] - 1 && y <= t.bbox[3] + 1);
      hits.sort((a, b) => area(a) - area(b));
      info.replaceChildren(...(hits.length ? hits.slice(0, 4).map((t) => details(shown.v, t)) : [h('p', { class: 'small muted' }, `pixel (${x}, ${y}): no box`)]));
    },
    targets: () => shown?.targets ?? [],
    choose: (i) => info.replaceChildren(details(shown.v, shown.targets[i])),
    page: (step) => nav.go(step),
    announce: (t) => { status.textContent = t; },
  });
  const canvas = zoom.canvas({ label: 'Detections on the image', className: 'viewer-canvas det-canvas' });
  const load = async () => {
    // The id as the GT writes it: a number or a string (pycocotools' dict keys).
    const im = images.find((x) => String(x.image_id) === nav.select.value);
    const id = im?.image_id;
    status.textContent = 'Drawing…';
    info.replaceChildren(hint());
    try {
      const v = await ctx.session.view('image', { image_id: id }, options);
      const bitmap = await decodeImage(files.get(base(im.name)).data);
      const targets = [
        ...v.gt.map((b, i) => ({ kind: 'gt', i, b, label: `GT box ${b.id} (${v.categories[b.category]}): ${b.status}`, bbox: corners(b.bbox) })),
        ...v.dets.filter((d) => d.status !== 'beyond maxDets').map((b, i) => ({ kind: 'det', i, b, label: `detection ${v.categories[b.category]} ${num(b.score)}: ${b.status}`, bbox: corners(b.bbox) })),
      ];
      shown = { v, bitmap, targets };
      const w = bitmap?.width ?? Math.ceil(Math.max(1, ...targets.map((t) => t.bbox[2] + 1)));
      const hgt = bitmap?.height ?? Math.ceil(Math.max(1, ...targets.map((t) => t.bbox[3] + 1)));
      canvas.setAttribute('aria-label', `${im.name}: ${v.counts.tp} TP, ${v.counts.fp} FP, ${v.counts.fn} FN. Arrow keys pan, + and − zoom, Tab steps through the boxes, Enter shows the chosen box, PageUp/PageDown change the image.`);
      canvas.dataset.image = im.name;
      zoom.resize(w, hgt);
      status.textContent = `${im.name}: ${w}×${hgt} px${bitmap ? '' : ' (the image could not be decoded: boxes on grey)'}; at IoU ${v.iou}, area ${v.area}, maxDets ${v.max_dets}: ${v.counts.tp} TP, ${v.counts.fp} FP, ${v.counts.fn} FN, ${v.counts.ignored} ignored.`;
      table.replaceChildren(boxTable(v));
    } catch (e) {
      status.textContent = `The image could not be drawn: ${e?.message ?? e}`;
    }
  };
  nav.select.addEventListener('change', load);
  showGt.addEventListener('change', () => zoom.draw());
  showDet.addEventListener('change', () => zoom.draw());
  queueMicrotask(load);
  const key = (c, t, dashed) => h('span', { class: `viewer-key${dashed ? ' viewer-key-dashed' : ''}` }, swatch(c), t);
  return h('section', { class: 'det-view viewer' },
    h('h3', {}, 'Images: GT boxes and detections at IoU 0.5'),
    h('div', { class: 'viewer-controls' },
      h('button', { type: 'button', class: 'btn btn-small viewer-fit', onclick: () => zoom.fit() }, 'Fit'), nav.box,
      h('label', {}, showGt, ' GT boxes'), h('label', {}, showDet, ' detections')),
    h('p', { class: 'viewer-legend small' },
      key(COLOUR.TP, 'GT matched (solid) / detection TP (dashed)'), key(COLOUR.FN, 'GT missed: FN'),
      key(COLOUR.FP, 'detection FP (dashed)', true), key(COLOUR.ignored, 'ignored (crowd box and detections matched to it)')),
    status, h('figure', { class: 'viewer-pane' }, canvas), info, table);
}
