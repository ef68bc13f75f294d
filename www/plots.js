// Draws plot specs (src/render/plot.rs: axes with their ticks and texts, bars, series, heat-map cells, legend,
// summary and data table, all computed in Rust) as inline SVG, redrawn at its container's width so text stays
// readable on a phone. The layout is that of src/render/svg.rs, which draws the same specs into
// detailed_results.html. Nothing here decides what a plot shows.

import { h, s, uniqueId } from './util.js';
import { middle } from './viewer.js';

const yPx = (axis, v, m, ph) => m.t + ph - ((v - axis.lo) / (axis.hi - axis.lo)) * ph;

/** The y grid, both axes and the axis titles; returns the plotting area's size. */
function frame(svg, spec, xLabel, m, W, H) {
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const grid = s('g', { class: 'plot-grid', 'aria-hidden': 'true' });
  for (const t of spec.y.ticks) {
    const yy = yPx(spec.y, t.at, m, ph);
    grid.append(
      s('line', { x1: m.l, x2: m.l + pw, y1: yy, y2: yy, class: t.at === 0 ? 'plot-zero' : 'plot-gridline' }),
      s('text', { x: m.l - 8, y: yy, class: 'plot-tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, t.text),
    );
  }
  svg.append(grid,
    s('line', { x1: m.l, x2: m.l, y1: m.t, y2: m.t + ph, class: 'plot-axis', 'aria-hidden': 'true' }),
    s('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'plot-axis', 'aria-hidden': 'true' }));
  if (xLabel) svg.append(s('text', { x: m.l + pw / 2, y: H - 8, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true' }, xLabel));
  if (spec.y.label) {
    svg.append(s('text', { x: 0, y: 0, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true', transform: `translate(14 ${m.t + ph / 2}) rotate(-90)` }, spec.y.label));
  }
  return { pw, ph };
}

/** The ticks whose texts do not overlap at `x(at)`, from the left (the last one kept); as src/render/svg.rs. */
function fitting(ticks, x) {
  const half = (t) => [...t.text].length * 3.25 + 3;
  const out = [];
  ticks.forEach((t, i) => {
    const p = out[out.length - 1];
    if (!p || x(t.at) - x(p.at) >= half(p) + half(t)) out.push(t);
    else if (i === ticks.length - 1 && out.length > 1) out[out.length - 1] = t;
  });
  return out;
}

/** Bars: every label under its bar when they fit, else the spec's ticks; hover and focus show a bar's value. */
function drawBars(svg, spec, W, H, show) {
  const bars = spec.bars ?? [];
  const n = bars.length;
  const hist = spec.kind === 'histogram';
  const all = n <= Math.floor((W - 80) / 44);
  const m = { l: 56, r: 16, t: 14, b: all ? 52 : 46 };
  const { pw, ph } = frame(svg, spec, spec.x.label, m, W, H);
  const band = Math.min(pw / Math.max(1, n), hist ? 120 : 72);
  const x0 = m.l + (pw - band * n) / 2;
  const gap = hist ? Math.min(1, band * 0.1) : band > 6 ? band * 0.22 : band > 2 ? 1 : 0;
  const base = yPx(spec.y, Math.max(spec.y.lo, Math.min(0, spec.y.hi)), m, ph);
  const g = s('g', { class: hist ? 'plot-hist' : 'plot-bars' });
  bars.forEach((b, i) => {
    const x = x0 + i * band + gap / 2;
    if (b.value == null) {
      g.append(s('text', { x: x + (band - gap) / 2, y: base - 4, class: 'plot-null', 'text-anchor': 'middle' }, band > 10 ? '—' : '', s('title', {}, b.text)));
      return;
    }
    const yy = yPx(spec.y, b.value, m, ph);
    const bar = s('rect', {
      x, y: Math.min(yy, base), width: Math.max(0.5, band - gap), height: Math.max(b.value === 0 ? 0 : 0.75, Math.abs(base - yy)),
      class: 'plot-bar', ...(all && !hist ? { tabindex: '0', role: 'img', 'aria-label': b.text } : {}),
    }, s('title', {}, b.text));
    bar.addEventListener('mouseenter', () => show(b.text));
    bar.addEventListener('focus', () => show(b.text));
    g.append(bar);
  });
  const xt = s('g', { class: 'plot-xticks', 'aria-hidden': 'true' });
  const ty = m.t + ph + 16;
  if (all) {
    bars.forEach((b, i) => xt.append(s('text', { x: x0 + (i + 0.5) * band, y: ty, class: 'plot-tick', 'text-anchor': 'middle' },
      middle(b.short, Math.max(4, Math.floor(band / 7))), s('title', {}, b.label))));
  } else {
    for (const t of fitting(spec.x.ticks, (at) => x0 + (at - 0.5) * band)) {
      const xx = x0 + (t.at - 0.5) * band;
      xt.append(s('line', { x1: xx, x2: xx, y1: m.t + ph, y2: m.t + ph + 4, class: 'plot-axis' }),
        s('text', { x: xx, y: ty, class: 'plot-tick', 'text-anchor': 'middle' }, t.text));
    }
  }
  svg.append(g, xt);
}

function drawLines(svg, spec, W, H) {
  const m = { l: 56, r: 16, t: 14, b: 46 };
  const { pw, ph } = frame(svg, spec, spec.x.label, m, W, H);
  const x = (v) => (m.l + ((v - spec.x.lo) / (spec.x.hi - spec.x.lo)) * pw).toFixed(2);
  const y = (v) => yPx(spec.y, v, m, ph).toFixed(2);
  const xt = s('g', { class: 'plot-xticks', 'aria-hidden': 'true' });
  for (const t of spec.x.ticks) {
    xt.append(s('line', { x1: x(t.at), x2: x(t.at), y1: m.t + ph, y2: m.t + ph + 4, class: 'plot-axis' }),
      s('text', { x: x(t.at), y: m.t + ph + 16, class: 'plot-tick', 'text-anchor': 'middle' }, t.text));
  }
  svg.append(xt);
  const base = y(Math.max(spec.y.lo, Math.min(0, spec.y.hi)));
  for (const se of spec.series ?? []) {
    const g = s('g', { class: `plot-line ${se.class}` }, s('title', {}, se.label));
    let d = '';
    let pen = false;
    for (const p of se.points) {
      if (p) d += `${pen ? 'L' : 'M'}${x(p[0])} ${y(p[1])}`;
      pen = !!p;
    }
    const pts = se.points.filter(Boolean);
    if (se.style === 'fill' && pts.length > 1) {
      g.append(s('path', { d: `M${x(pts[0][0])} ${base}${pts.map((p) => `L${x(p[0])} ${y(p[1])}`).join('')}L${x(pts[pts.length - 1][0])} ${base}Z`, class: 'plot-fill' }));
    }
    if (se.style !== 'points') g.append(s('path', { d, class: se.style === 'dashed' ? 'plot-path plot-dashed' : 'plot-path', fill: 'none' }));
    (se.markers ?? []).forEach((title, i) => {
      g.append(s('circle', { cx: x(pts[i][0]), cy: y(pts[i][1]), r: se.style === 'points' ? 2.5 : 3.5, class: 'plot-point' }, s('title', {}, title)));
    });
    svg.append(g);
  }
}

function drawHeatmap(svg, spec, W, H) {
  const heat = spec.heat;
  const small = heat.values_shown;
  const m = small ? { l: 92, r: 16, t: 10, b: 40 } : { l: 40, r: 16, t: 10, b: 30 };
  const size = Math.max(40, Math.min(W - m.l - m.r, H - m.t - m.b));
  const cell = size / Math.max(1, heat.n);
  const x0 = m.l + (W - m.l - m.r - size) / 2;
  const y0 = m.t;
  const g = s('g', { class: 'plot-heat' });
  heat.cells.forEach((c, k) => {
    const i = Math.floor(k / heat.n);
    const j = k % heat.n;
    g.append(s('rect', { x: x0 + j * cell, y: y0 + i * cell, width: cell + 0.3, height: cell + 0.3, fill: c.fill ?? 'transparent', class: c.fill ? 'heat-cell' : 'heat-cell heat-null' }, s('title', {}, c.title)));
    if (small && c.fill) {
      g.append(s('text', { x: x0 + (j + 0.5) * cell, y: y0 + (i + 0.5) * cell, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: 'heat-value', fill: c.light ? '#fff' : '#111', 'aria-hidden': 'true' }, c.text));
    }
  });
  const ticks = s('g', { class: 'plot-xticks', 'aria-hidden': 'true' });
  // Labels that would overlap (11 px text, about 6.5 px a character) are thinned out from the left; the lines
  // between blocks only separate runs of several rows (one line per row would be a grid).
  const runs = heat.blocks.some((b) => b.end - b.start > 1);
  let last = -Infinity;
  for (const b of heat.blocks) {
    const mid = (b.start + b.end) / 2;
    const half = String(b.text).length * 3.25 + 3;
    const fits = small || mid * cell - half >= last;
    if (fits) last = mid * cell + half;
    if (fits) ticks.append(s('text', { x: x0 + mid * cell, y: y0 + size + 14, class: 'plot-tick', 'text-anchor': 'middle' }, b.text));
    if (small) ticks.append(s('text', { x: x0 - 6, y: y0 + mid * cell, class: 'plot-tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, b.text));
    else {
      if (fits) ticks.append(s('text', { x: 0, y: 0, class: 'plot-tick', 'text-anchor': 'middle', transform: `translate(${x0 - 8} ${y0 + mid * cell}) rotate(-90)` }, b.text));
      if (runs && b.end < heat.n) {
        const e = b.end * cell;
        ticks.append(s('line', { x1: x0 + e, x2: x0 + e, y1: y0, y2: y0 + size, class: 'plot-axis' }),
          s('line', { x1: x0, x2: x0 + size, y1: y0 + e, y2: y0 + e, class: 'plot-axis' }));
      }
    }
  }
  svg.append(g, ticks);
  if (spec.x.label) svg.append(s('text', { x: x0 + size / 2, y: H - 6, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true' }, spec.x.label));
  if (spec.y.label) svg.append(s('text', { x: 0, y: 0, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true', transform: `translate(12 ${y0 + size / 2}) rotate(-90)` }, spec.y.label));
}

function dataTable(spec) {
  const [first, ...rest] = spec.data.head;
  return h('table', { class: 'data-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, first), rest.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, spec.data.rows.map(([head, ...cells]) => h('tr', {}, h('th', { scope: 'row' }, head), cells.map((c) => h('td', {}, c))))));
}

function legendOf(spec) {
  const items = (spec.legend ?? []).map((l) => h('li', {}, h('span', { class: `legend-swatch ${l.class}`, 'aria-hidden': 'true' }), l.label));
  return h('ul', { class: 'plot-legend', hidden: !items.length }, items);
}

const DRAW = { bars: drawBars, histogram: drawBars, lines: drawLines, heatmap: drawHeatmap };

/** A <figure> with the plot of `spec`, redrawn whenever its width changes. */
export function renderPlot(spec) {
  const titleId = uniqueId('plot-title');
  const descId = uniqueId('plot-desc');
  const canvas = h('div', { class: 'plot-canvas' });
  const readout = h('p', { class: 'plot-readout small', 'aria-live': 'polite' });
  const fig = h('figure', { class: 'plot', dataset: { plot: spec.id ?? '' } },
    h('figcaption', { class: 'plot-title' }, spec.title || spec.id || 'Plot'),
    canvas, readout, legendOf(spec),
    h('details', { class: 'plot-data' }, h('summary', {}, 'Data'), dataTable(spec)));
  let lastWidth = -1;
  const draw = (width) => {
    const W = Math.max(260, Math.round(width));
    if (W === lastWidth) return;
    lastWidth = W;
    const H = W < 480 ? 230 : 270;
    readout.textContent = '';
    const svg = s('svg', {
      class: 'plot-svg', role: 'img', width: W, height: H, viewBox: `0 0 ${W} ${H}`,
      'aria-labelledby': `${titleId} ${descId}`, 'aria-label': spec.summary,
    }, s('title', { id: titleId }, spec.title || 'Plot'), s('desc', { id: descId }, spec.summary));
    const drawer = DRAW[spec.kind];
    try {
      if (drawer) drawer(svg, spec, W, H, (text) => { readout.textContent = text; });
      else svg.append(s('text', { x: 16, y: 24, class: 'plot-tick' }, `(unknown plot kind “${spec.kind}”)`));
    } catch (e) {
      svg.append(s('text', { x: 16, y: 24, class: 'plot-tick' }, `(cannot draw this plot: ${e.message})`));
    }
    canvas.replaceChildren(svg);
  };
  if (typeof ResizeObserver === 'function') {
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect?.width;
      if (w) requestAnimationFrame(() => draw(w));
    });
    ro.observe(canvas);
  }
  queueMicrotask(() => draw(canvas.clientWidth || 600));
  return fig;
}

/** A hit strip: one cell per rank, filled where the item at that rank is relevant ('1'). */
export function renderHitStrip(strip, label = 'Hits by rank') {
  const cells = String(strip).slice(0, 1000);
  const n = cells.length;
  const hits = [];
  for (let i = 0; i < n; i++) if (cells[i] === '1') hits.push(i + 1);
  const cw = 8;
  const svg = s('svg', {
    class: 'hit-strip', role: 'img', viewBox: `0 0 ${n * cw} 14`, preserveAspectRatio: 'none',
    'aria-label': `${label}: ${n} ranks, relevant at ${hits.length ? hits.slice(0, 30).join(', ') + (hits.length > 30 ? ', …' : '') : 'none'}`,
  }, s('title', {}, `${label}: relevant at ranks ${hits.join(', ') || 'none'}`));
  for (let i = 0; i < n; i++) {
    svg.append(s('rect', { x: i * cw + 0.5, y: 0, width: cw - 1, height: 14, class: cells[i] === '1' ? 'hit-1' : 'hit-0' }));
  }
  return h('div', { class: 'hit-strip-box' },
    svg,
    h('div', { class: 'hit-strip-axis', 'aria-hidden': 'true' }, h('span', {}, 'rank 1'), h('span', {}, `rank ${n}`)));
}
