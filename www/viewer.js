// The image views' shared canvas (www/views/: overlays, boxes on images): one zoom/pan state drawn into one or more
// canvases (two modes' panes side by side share it). Each canvas is focusable and operated by mouse
// (wheel zooms, drag pans, click picks a pixel) and keyboard: arrows pan, + and − zoom, 0 fits, Tab and
// Shift+Tab step through the image's objects (lines, boxes) while there are more (then focus moves on as
// usual), Enter shows the chosen object's details (the same as a click on it), Escape clears the choice,
// PageUp/PageDown go to the previous/next image.

import { h } from './util.js';

/**
 * @typedef {{ label: string, bbox: [number, number, number, number] }} Target  an object Tab can reach
 * @typedef {{
 *   width: number, height: number,
 *   paint: (g: CanvasRenderingContext2D, canvas: HTMLCanvasElement, zoom: Zoom) => void,
 *   pick?: (x: number, y: number, canvas: HTMLCanvasElement) => void,
 *   targets?: () => Target[], choose?: (i: number | null, canvas: HTMLCanvasElement) => void,
 *   page?: (step: number) => void, announce?: (text: string) => void,
 * }} ZoomOptions
 */

export class Zoom {
  /** @param {ZoomOptions} o */
  constructor(o) {
    this.o = o;
    this.scale = 1;
    this.ox = 0;
    this.oy = 0;
    /** @type {HTMLCanvasElement[]} */
    this.canvases = [];
    /** @type {number | null} the object chosen with Tab (an index into targets()) */
    this.chosen = null;
  }

  /** Sets the content's size (a new image) and fits it. */
  resize(width, height) {
    this.o.width = width;
    this.o.height = height;
    this.chosen = null;
    this.fit();
  }

  fit() {
    const c = this.canvases[0];
    if (!c) return;
    const s = Math.min(c.width / this.o.width, c.height / this.o.height);
    this.scale = s;
    this.ox = (c.width - this.o.width * s) / 2;
    this.oy = (c.height - this.o.height * s) / 2;
    this.draw();
  }

  draw() {
    for (const c of this.canvases) {
      const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.fillStyle = '#202020';
      g.fillRect(0, 0, c.width, c.height);
      g.imageSmoothingEnabled = this.scale < 1;
      g.setTransform(this.scale, 0, 0, this.scale, this.ox, this.oy);
      this.o.paint(g, c, this);
      const t = this.chosen == null ? null : this.o.targets?.()[this.chosen];
      if (t) {
        const [x0, y0, x1, y1] = t.bbox;
        g.lineWidth = 3 / this.scale;
        g.setLineDash([6 / this.scale, 4 / this.scale]);
        g.strokeStyle = '#ffd400';
        g.strokeRect(x0 - 2 / this.scale, y0 - 2 / this.scale, x1 - x0 + 4 / this.scale, y1 - y0 + 4 / this.scale);
        g.setLineDash([]);
      }
      c.dataset.drawn = '1';
      c.dataset.scale = this.scale.toFixed(4);
    }
  }

  /** Zooms by factor f about canvas point (mx, my). */
  zoomAt(f, mx, my) {
    this.ox = mx - (mx - this.ox) * f;
    this.oy = my - (my - this.oy) * f;
    this.scale *= f;
    this.draw();
  }

  /** Pans so that the chosen object is in view (zooming out when it does not fit). */
  reveal(c) {
    const t = this.chosen == null ? null : this.o.targets?.()[this.chosen];
    if (!t) return;
    const [x0, y0, x1, y1] = t.bbox;
    const w = (x1 - x0 + 1) * this.scale;
    const hgt = (y1 - y0 + 1) * this.scale;
    if (w > c.width * 0.9 || hgt > c.height * 0.9) this.scale *= Math.min((c.width * 0.9) / w, (c.height * 0.9) / hgt);
    const sx = x0 * this.scale + this.ox;
    const sy = y0 * this.scale + this.oy;
    const ex = (x1 + 1) * this.scale + this.ox;
    const ey = (y1 + 1) * this.scale + this.oy;
    if (sx < 0 || ex > c.width) this.ox = c.width / 2 - ((x0 + x1 + 1) / 2) * this.scale;
    if (sy < 0 || ey > c.height) this.oy = c.height / 2 - ((y0 + y1 + 1) / 2) * this.scale;
    this.draw();
  }

  /**
   * A focusable canvas drawn with this zoom.
   * @param {{ label: string, mode?: string, width?: number, height?: number, className?: string }} a
   */
  canvas({ label, mode = '', width = 640, height = 480, className = 'viewer-canvas' }) {
    const c = /** @type {HTMLCanvasElement} */ (h('canvas', {
      class: className, width, height, tabindex: '0', role: 'application', 'aria-roledescription': 'image viewer',
      'aria-label': `${label}. Arrow keys pan, + and − zoom, 0 fits, Tab steps through the objects, Enter shows the chosen one's details.`,
      dataset: { mode, drawn: '0' },
    }));
    this.canvases.push(c);
    const toImage = (e) => {
      const r = c.getBoundingClientRect();
      return [(e.clientX - r.left) * (c.width / r.width), (e.clientY - r.top) * (c.height / r.height)];
    };
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [mx, my] = toImage(e);
      this.zoomAt(e.deltaY < 0 ? 1.25 : 0.8, mx, my);
    }, { passive: false });
    let drag = null;
    c.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, ox: this.ox, oy: this.oy, moved: false }; });
    c.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const k = c.width / c.getBoundingClientRect().width;
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3) drag.moved = true;
      this.ox = drag.ox + (e.clientX - drag.x) * k;
      this.oy = drag.oy + (e.clientY - drag.y) * k;
      this.draw();
    });
    c.addEventListener('pointerup', (e) => {
      const was = drag;
      drag = null;
      if (was?.moved) return;
      const [mx, my] = toImage(e);
      this.o.pick?.(Math.floor((mx - this.ox) / this.scale), Math.floor((my - this.oy) / this.scale), c);
    });
    c.addEventListener('keydown', (e) => this.key(e, c));
    return c;
  }

  /** @param {KeyboardEvent} e @param {HTMLCanvasElement} c */
  key(e, c) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = Math.max(c.width, c.height) / 10;
    const pan = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
    if (pan) {
      this.ox += pan[0];
      this.oy += pan[1];
      this.draw();
    } else if (e.key === '+' || e.key === '=') {
      this.zoomAt(1.25, c.width / 2, c.height / 2);
    } else if (e.key === '-' || e.key === '_' || e.key === '−') {
      this.zoomAt(0.8, c.width / 2, c.height / 2);
    } else if (e.key === '0') {
      this.fit();
    } else if (e.key === 'Tab') {
      const n = this.o.targets?.().length ?? 0;
      const next = this.chosen == null ? (e.shiftKey ? n - 1 : 0) : this.chosen + (e.shiftKey ? -1 : 1);
      if (!n || next < 0 || next >= n || (this.chosen == null && e.shiftKey)) {
        this.chosen = null; // let focus move on: no keyboard trap
        this.draw();
        return;
      }
      this.chosen = next;
      this.reveal(c);
      const t = this.o.targets?.()[next];
      this.o.announce?.(`${t?.label} (${next + 1} of ${n}). Enter shows its details.`);
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (this.chosen == null) return;
      this.o.choose?.(this.chosen, c);
    } else if (e.key === 'Escape') {
      this.chosen = null;
      this.draw();
    } else if ((e.key === 'PageDown' || e.key === 'PageUp') && this.o.page) {
      this.o.page(e.key === 'PageDown' ? 1 : -1);
    } else {
      return;
    }
    e.preventDefault();
  }
}

/**
 * An image picker with previous/next buttons: `select` holds the options; `go(step)` moves and fires `change`.
 * @param {{ value: string, text: string }[]} options @param {string} label
 */
export function imageNav(options, label) {
  const select = /** @type {HTMLSelectElement} */ (h('select', { class: 'viewer-image', 'aria-label': label },
    options.map((o) => h('option', { value: o.value }, o.text))));
  const go = (step) => {
    const i = select.selectedIndex + step;
    if (i < 0 || i >= select.options.length) return;
    select.selectedIndex = i;
    select.dispatchEvent(new Event('change'));
  };
  const prev = h('button', { type: 'button', class: 'btn btn-small viewer-prev', 'aria-label': `Previous ${label.toLowerCase()}`, onclick: () => go(-1) }, '‹ Prev');
  const next = h('button', { type: 'button', class: 'btn btn-small viewer-next', 'aria-label': `Next ${label.toLowerCase()}`, onclick: () => go(1) }, 'Next ›');
  const sync = () => {
    /** @type {HTMLButtonElement} */ (prev).disabled = select.selectedIndex <= 0;
    /** @type {HTMLButtonElement} */ (next).disabled = select.selectedIndex >= select.options.length - 1;
  };
  select.addEventListener('change', sync);
  queueMicrotask(sync);
  return { select, go, box: h('span', { class: 'viewer-nav' }, prev, select, next) };
}

/** Decodes image bytes (a Blob or Uint8Array) for drawing; `null` when the browser cannot decode them. */
export async function decodeImage(data) {
  try {
    const blob = data instanceof Blob ? data : new Blob([data]);
    return await createImageBitmap(blob);
  } catch {
    return null;
  }
}

/** An RGBA buffer as a drawable canvas; `transparent(i)` pixels are cleared, the others get `alpha`. */
export function rgbaCanvas(rgba, width, height, { transparent = null, alpha = 255 } = {}) {
  const img = new OffscreenCanvas(width, height);
  const px = new Uint8ClampedArray(rgba);
  if (transparent) {
    for (let i = 0; i < width * height; i++) px[i * 4 + 3] = transparent(i) ? 0 : alpha;
  }
  /** @type {OffscreenCanvasRenderingContext2D} */ (img.getContext('2d')).putImageData(new ImageData(px, width, height), 0, 0);
  return img;
}

/** A colour swatch (CSSOM, as the page's CSP forbids style attributes). */
export function swatch(colour, className = 'viewer-swatch') {
  const el = h('span', { class: className, 'aria-hidden': 'true' });
  if (colour) el.style.backgroundColor = colour;
  return el;
}

/**
 * Labels without the prefix they all share, cut back to a separator or a letter/digit boundary so that whole
 * words and numbers stay ("Latin14396/001", "Latin14396/002" → "001", "002"), and that prefix.
 * @param {unknown[]} labels
 */
export function distinctLabels(labels) {
  const strs = labels.map((l) => String(l ?? ''));
  if (strs.length < 2) return { prefix: '', short: strs };
  let n = strs[0].length;
  for (const t of strs) {
    let i = 0;
    while (i < n && i < t.length && t[i] === strs[0][i]) i++;
    n = i;
  }
  let cut = 0;
  for (let i = 1; i <= n; i++) {
    const a = strs[0][i - 1];
    const b = strs[0][i] ?? '';
    if (/[\\/_\-.\s#:|,;]/.test(a) || (/\p{L}/u.test(a) && /\d/.test(b)) || (/\d/.test(a) && /\p{L}/u.test(b))) cut = i;
  }
  if (strs.some((t) => t.length <= cut)) cut = 0; // never empty a label
  return { prefix: strs[0].slice(0, cut), short: strs.map((t) => t.slice(cut)) };
}

/** A label that fits `max` characters: its start and its end, with "…" between. */
export function middle(text, max) {
  const t = String(text);
  if (t.length <= max) return t;
  const head = Math.ceil((max - 1) / 2);
  return t.slice(0, head) + '…' + t.slice(t.length - (max - 1 - head));
}
