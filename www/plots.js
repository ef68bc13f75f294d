// Inline SVG plots, drawn generically from report.plots (kinds: bars, histogram, lines, heatmap). Each plot is
// redrawn at its container's width (so text stays readable on a phone) and carries <title>, <desc>,
// aria-label and a "data" table for screen readers and copy-paste.

import { h, s, auto, uniqueId } from './util.js';
import { distinctLabels, middle } from './viewer.js';

const MAX_TABLE_ROWS = 500;

function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/** Domain [lo, hi] rounded outwards to nice ticks, and the ticks. */
function niceScale(min, max, count = 5, { integer = false } = {}) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) {
    min = 0;
    max = 1;
  }
  if (min === max) {
    if (min === 0) max = 1;
    else if (min > 0) min = 0;
    else max = 0;
  }
  const step = integer ? Math.max(1, niceStep(max - min, count)) : niceStep(max - min, count);
  const lo = Math.floor(min / step + 1e-9) * step;
  const hi = Math.ceil(max / step - 1e-9) * step;
  const ticks = [];
  for (let v = lo, i = 0; v <= hi + step * 1e-6 && i < 50; v = lo + step * ++i) ticks.push(Number(v.toPrecision(12)));
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return { lo, hi, ticks, fmt: (v) => v.toFixed(Math.min(decimals, 6)) };
}

function yRange(values, { counts = false } = {}) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (!finite.length) return [0, 1];
  const lo = Math.min(0, ...finite);
  let hi = Math.max(0, ...finite);
  if (!counts && lo >= 0 && hi <= 1) hi = 1; // scores in [0, 1]: show the whole unit range
  return [lo, hi];
}

const isCounts = (values) => values.every((v) => v === null || v === undefined || Number.isInteger(v));

function shorten(text, max) {
  const t = String(text);
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

function fmtVal(v) {
  return typeof v === 'number' ? auto(v) : '—';
}

function summary(plot) {
  const kind = plot.kind === 'lines' ? 'line chart' : plot.kind === 'histogram' ? 'histogram' : plot.kind === 'heatmap' ? `${(plot.labels ?? []).length}×${(plot.labels ?? []).length} heat map` : 'bar chart';
  const parts = [`${plot.title || 'Plot'}: ${kind}`];
  if (plot.kind === 'lines') {
    const series = plot.series ?? [];
    parts.push(`${series.length} series (${series.slice(0, 5).map((x) => x.label).join(', ')}${series.length > 5 ? ', …' : ''})`);
  } else {
    const vals = (plot.values ?? []).filter((v) => typeof v === 'number');
    parts.push(`${(plot.values ?? []).length} values`);
    if (vals.length) parts.push(`from ${auto(Math.min(...vals))} to ${auto(Math.max(...vals))}`);
  }
  if (plot.x_label) parts.push(`x axis: ${plot.x_label}`);
  if (plot.y_label) parts.push(`y axis: ${plot.y_label}`);
  return parts.join('; ');
}

/** Axes, grid and labels; returns helpers to map data to pixels. */
function frame(svg, { W, H, m, yScale, xLabel, yLabel }) {
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const y = (v) => m.t + ph - ((v - yScale.lo) / (yScale.hi - yScale.lo)) * ph;
  const grid = s('g', { class: 'plot-grid', 'aria-hidden': 'true' });
  for (const t of yScale.ticks) {
    const yy = y(t);
    grid.append(
      s('line', { x1: m.l, x2: m.l + pw, y1: yy, y2: yy, class: t === 0 ? 'plot-zero' : 'plot-gridline' }),
      s('text', { x: m.l - 8, y: yy, class: 'plot-tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, yScale.fmt(t)),
    );
  }
  svg.append(grid);
  svg.append(
    s('line', { x1: m.l, x2: m.l, y1: m.t, y2: m.t + ph, class: 'plot-axis', 'aria-hidden': 'true' }),
    s('line', { x1: m.l, x2: m.l + pw, y1: m.t + ph, y2: m.t + ph, class: 'plot-axis', 'aria-hidden': 'true' }),
  );
  if (xLabel) svg.append(s('text', { x: m.l + pw / 2, y: H - 8, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true' }, xLabel));
  if (yLabel) {
    svg.append(s('text', {
      x: 0, y: 0, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true',
      transform: `translate(14 ${m.t + ph / 2}) rotate(-90)`,
    }, yLabel));
  }
  return { pw, ph, y };
}

function drawBars(svg, plot, W, H, readout) {
  const values = plot.values ?? [];
  const labels = plot.labels ?? [];
  const n = values.length;
  const hist = plot.kind === 'histogram';
  const counts = hist && isCounts(values);
  const [lo, hi] = yRange(values, { counts });
  const yScale = niceScale(lo, hi, H < 260 ? 4 : 5, { integer: counts });
  const showAll = n <= Math.floor((W - 80) / 44);
  const m = { l: 56, r: 16, t: 14, b: showAll ? 52 : 46 };
  // Tick labels without their common prefix (named once on the x axis); full names on hover and focus.
  const { prefix, short } = hist ? { prefix: '', short: labels.map(String) } : distinctLabels(labels.slice(0, n));
  const xLabel = prefix ? `${plot.x_label || 'label'} (${prefix}…)` : plot.x_label;
  const { pw, ph, y } = frame(svg, { W, H, m, yScale, xLabel, yLabel: plot.y_label });
  const show = (text) => { if (readout) readout.textContent = text; };
  const band = Math.min(pw / Math.max(1, n), hist ? 120 : 72); // a few bars stay bar-shaped
  const x0 = m.l + (pw - band * n) / 2;
  const gap = hist ? Math.min(1, band * 0.1) : band > 6 ? band * 0.22 : band > 2 ? 1 : 0;
  const g = s('g', { class: hist ? 'plot-hist' : 'plot-bars' });
  const y0 = y(Math.max(yScale.lo, Math.min(0, yScale.hi)));
  values.forEach((v, i) => {
    const label = labels[i] ?? String(i + 1);
    const x = x0 + i * band + gap / 2;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      g.append(s('text', { x: x + (band - gap) / 2, y: y0 - 4, class: 'plot-null', 'text-anchor': 'middle' }, band > 10 ? '—' : '',
        s('title', {}, `${label}: no value`)));
      return;
    }
    const yy = y(v);
    const text = `${label}: ${fmtVal(v)}`;
    const bar = s('rect', {
      x, y: Math.min(yy, y0), width: Math.max(0.5, band - gap), height: Math.max(v === 0 ? 0 : 0.75, Math.abs(y0 - yy)),
      class: 'plot-bar', ...(showAll && !hist ? { tabindex: '0', role: 'img', 'aria-label': text } : {}),
    }, s('title', {}, text));
    bar.addEventListener('mouseenter', () => show(text));
    bar.addEventListener('focus', () => show(text));
    g.append(bar);
  });
  svg.append(g);
  // x tick labels: all of them when they fit, else a few positions (1-based)
  const xt = s('g', { class: 'plot-xticks', 'aria-hidden': 'true' });
  if (showAll) {
    labels.slice(0, n).forEach((lab, i) => {
      xt.append(s('text', { x: x0 + (i + 0.5) * band, y: m.t + ph + 16, class: 'plot-tick', 'text-anchor': 'middle' },
        middle(short[i], Math.max(4, Math.floor(band / 7))), s('title', {}, String(lab))));
    });
  } else if (n > 0) {
    const step = niceStep(n, Math.max(2, Math.floor(pw / 70)));
    const marks = new Set([1]);
    for (let k = step; k < n; k += step) marks.add(Math.round(k));
    marks.add(n);
    for (const k of marks) {
      const xx = x0 + (k - 0.5) * band;
      xt.append(s('line', { x1: xx, x2: xx, y1: m.t + ph, y2: m.t + ph + 4, class: 'plot-axis' }));
      xt.append(s('text', { x: xx, y: m.t + ph + 16, class: 'plot-tick', 'text-anchor': 'middle' }, hist && labels[k - 1] ? shorten(labels[k - 1], 10) : String(k)));
    }
  }
  svg.append(xt);
}

function drawLines(svg, plot, W, H, legend) {
  const series = plot.series ?? [];
  const xs = series.flatMap((se) => se.x ?? []).filter(Number.isFinite);
  const ys = series.flatMap((se) => se.y ?? []);
  const [lo, hi] = yRange(ys);
  const yScale = niceScale(lo, hi, H < 260 ? 4 : 5);
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const xScale = niceScale(xMin, xMax === xMin ? xMin + 1 : xMax, Math.max(2, Math.floor(W / 90)));
  const m = { l: 56, r: 16, t: 14, b: 46 };
  const { pw, ph, y } = frame(svg, { W, H, m, yScale, xLabel: plot.x_label, yLabel: plot.y_label });
  const x = (v) => m.l + ((v - xScale.lo) / (xScale.hi - xScale.lo)) * pw;
  const xt = s('g', { class: 'plot-xticks', 'aria-hidden': 'true' });
  for (const t of xScale.ticks) {
    xt.append(
      s('line', { x1: x(t), x2: x(t), y1: m.t + ph, y2: m.t + ph + 4, class: 'plot-axis' }),
      s('text', { x: x(t), y: m.t + ph + 16, class: 'plot-tick', 'text-anchor': 'middle' }, xScale.fmt(t)),
    );
  }
  svg.append(xt);
  const many = series.length > 8;
  series.forEach((se, k) => {
    const emphasis = !many || /mean|all|average/i.test(se.label ?? '');
    const cls = ['plot-line', `series-${many ? (emphasis ? 0 : 'faint') : k % 8}`];
    const g = s('g', { class: cls.join(' ') }, s('title', {}, se.label ?? `series ${k + 1}`));
    let d = '';
    let pen = false;
    const pts = [];
    (se.x ?? []).forEach((xv, i) => {
      const yv = se.y?.[i];
      if (!Number.isFinite(xv) || typeof yv !== 'number' || !Number.isFinite(yv)) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${x(xv).toFixed(2)} ${y(yv).toFixed(2)}`;
      pen = true;
      pts.push([xv, yv]);
    });
    // Optional series.style: 'fill' shades the area down to 0 under the line, 'dashed' dashes it,
    // 'points' draws markers only (no line).
    const style = se.style ?? '';
    if (style === 'fill' && pts.length > 1) {
      const base = y(Math.max(yScale.lo, Math.min(0, yScale.hi))).toFixed(2);
      const area = `M${x(pts[0][0]).toFixed(2)} ${base}` + pts.map(([xv, yv]) => `L${x(xv).toFixed(2)} ${y(yv).toFixed(2)}`).join('')
        + `L${x(pts[pts.length - 1][0]).toFixed(2)} ${base}Z`;
      g.append(s('path', { d: area, class: 'plot-fill' }));
    }
    if (style !== 'points') g.append(s('path', { d, class: ['plot-path', style === 'dashed' && 'plot-dashed'].filter(Boolean).join(' '), fill: 'none' }));
    if (style === 'points' || (emphasis && pts.length <= 30 && style !== 'dashed' && style !== 'fill')) {
      for (const [xv, yv] of pts) {
        g.append(s('circle', { cx: x(xv), cy: y(yv), r: style === 'points' ? 2.5 : 3.5, class: 'plot-point' },
          s('title', {}, `${se.label ? se.label + ': ' : ''}${plot.x_label || 'x'} ${fmtVal(xv)}, ${plot.y_label || 'y'} ${fmtVal(yv)}`)));
      }
    }
    svg.append(g);
  });
  if (series.length > 1) {
    const shown = many ? series.filter((se) => /mean|all|average/i.test(se.label ?? '')) : series;
    legend.replaceChildren(
      ...shown.slice(0, 10).map((se) => {
        const k = series.indexOf(se);
        return h('li', {}, h('span', { class: `legend-swatch series-${many ? 0 : k % 8}`, 'aria-hidden': 'true' }), se.label);
      }),
      ...(many ? [h('li', {}, h('span', { class: 'legend-swatch series-faint', 'aria-hidden': 'true' }), `${series.length - shown.length} more series`)] : []),
    );
    legend.hidden = false;
  }
}

/**
 * A heat map: `labels` name the n rows and the n columns, `values` holds n×n cells row-major (null = empty).
 * Darker = larger. Cells show their value when n ≤ 6; with many rows, runs of equal label prefixes (the text
 * before " #") are marked as blocks on both axes.
 */
function drawHeatmap(svg, plot, W, H) {
  const labels = plot.labels ?? [];
  const n = labels.length;
  const vals = plot.values ?? [];
  const finite = vals.filter((v) => typeof v === 'number' && Number.isFinite(v));
  const lo = finite.length ? Math.min(...finite) : 0;
  const hi = finite.length ? Math.max(...finite) : 1;
  const small = n <= 6;
  const m = { l: small ? 92 : 40, r: 16, t: 10, b: small ? 40 : 30 };
  const size = Math.max(40, Math.min(W - m.l - m.r, H - m.t - m.b));
  const cell = size / Math.max(1, n);
  const x0 = m.l + (W - m.l - m.r - size) / 2;
  const y0 = m.t;
  const g = s('g', { class: 'plot-heat' });
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = vals[i * n + j];
      const ok = typeof v === 'number' && Number.isFinite(v);
      const t = ok ? (hi > lo ? (v - lo) / (hi - lo) : 0.5) : 0;
      const rect = s('rect', {
        x: x0 + j * cell, y: y0 + i * cell, width: cell + 0.3, height: cell + 0.3,
        fill: ok ? `hsl(214 70% ${94 - 62 * t}%)` : 'transparent', class: ok ? 'heat-cell' : 'heat-cell heat-null',
      }, s('title', {}, `${plot.y_label || 'row'} ${labels[i]}, ${plot.x_label || 'column'} ${labels[j]}: ${ok ? fmtVal(v) : 'no value'}`));
      g.append(rect);
      if (small && ok) {
        g.append(s('text', {
          x: x0 + (j + 0.5) * cell, y: y0 + (i + 0.5) * cell, 'text-anchor': 'middle', 'dominant-baseline': 'middle',
          class: 'heat-value', fill: t > 0.55 ? '#fff' : '#111', 'aria-hidden': 'true',
        }, fmtVal(v)));
      }
    }
  }
  svg.append(g);
  const ticks = s('g', { class: 'plot-xticks', 'aria-hidden': 'true' });
  if (small) {
    labels.forEach((lab, k) => {
      ticks.append(s('text', { x: x0 + (k + 0.5) * cell, y: y0 + size + 14, class: 'plot-tick', 'text-anchor': 'middle' }, shorten(lab, 12)));
      ticks.append(s('text', { x: x0 - 6, y: y0 + (k + 0.5) * cell, class: 'plot-tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, shorten(lab, 12)));
    });
  } else {
    const prefix = (l) => String(l).split(' #')[0];
    let start = 0;
    for (let k = 1; k <= n; k++) {
      if (k === n || prefix(labels[k]) !== prefix(labels[start])) {
        const mid = (start + k) / 2;
        ticks.append(s('text', { x: x0 + mid * cell, y: y0 + size + 14, class: 'plot-tick', 'text-anchor': 'middle' }, shorten(prefix(labels[start]), 14)));
        ticks.append(s('text', { x: 0, y: 0, class: 'plot-tick', 'text-anchor': 'middle', transform: `translate(${x0 - 8} ${y0 + mid * cell}) rotate(-90)` }, shorten(prefix(labels[start]), 14)));
        if (k < n) {
          ticks.append(s('line', { x1: x0 + k * cell, x2: x0 + k * cell, y1: y0, y2: y0 + size, class: 'plot-axis' }));
          ticks.append(s('line', { x1: x0, x2: x0 + size, y1: y0 + k * cell, y2: y0 + k * cell, class: 'plot-axis' }));
        }
        start = k;
      }
    }
  }
  svg.append(ticks);
  if (plot.x_label) svg.append(s('text', { x: x0 + size / 2, y: H - 6, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true' }, `${plot.x_label} →`));
  if (plot.y_label) svg.append(s('text', { x: 0, y: 0, class: 'plot-label', 'text-anchor': 'middle', 'aria-hidden': 'true', transform: `translate(12 ${y0 + size / 2}) rotate(-90)` }, `← ${plot.y_label}`));
}

function dataTable(plot) {
  const table = h('table', { class: 'data-table' });
  if (plot.kind === 'heatmap') {
    const labels = (plot.labels ?? []).slice(0, 60);
    const n = (plot.labels ?? []).length;
    table.append(
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `${plot.y_label || 'row'} \\ ${plot.x_label || 'column'}`), labels.map((l) => h('th', { scope: 'col' }, l)))),
      h('tbody', {}, labels.map((l, i) => h('tr', {}, h('th', { scope: 'row' }, l), labels.map((_, j) => h('td', {}, fmtVal(plot.values?.[i * n + j])))))));
    return table;
  }
  if (plot.kind === 'lines') {
    const series = plot.series ?? [];
    const head = h('tr', {}, h('th', { scope: 'col' }, plot.x_label || 'x'), series.slice(0, 12).map((se) => h('th', { scope: 'col' }, se.label)));
    const xs = series[0]?.x ?? [];
    const rows = xs.slice(0, MAX_TABLE_ROWS).map((xv, i) =>
      h('tr', {}, h('th', { scope: 'row' }, fmtVal(xv)), series.slice(0, 12).map((se) => h('td', {}, fmtVal(se.y?.[i])))));
    table.append(h('thead', {}, head), h('tbody', {}, rows));
  } else {
    const labels = plot.labels ?? [];
    const rows = (plot.values ?? []).slice(0, MAX_TABLE_ROWS).map((v, i) =>
      h('tr', {}, h('th', { scope: 'row' }, labels[i] ?? String(i + 1)), h('td', {}, fmtVal(v))));
    table.append(h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, plot.x_label || 'label'), h('th', { scope: 'col' }, plot.y_label || 'value'))), h('tbody', {}, rows));
  }
  return table;
}

/** A <figure> with the plot, redrawn whenever its width changes. */
export function renderPlot(plot) {
  const titleId = uniqueId('plot-title');
  const descId = uniqueId('plot-desc');
  const canvas = h('div', { class: 'plot-canvas' });
  const legend = h('ul', { class: 'plot-legend', hidden: true });
  const readout = h('p', { class: 'plot-readout small', 'aria-live': 'polite' });
  const fig = h('figure', { class: 'plot', dataset: { plot: plot.id ?? '' } },
    h('figcaption', { class: 'plot-title' }, plot.title || plot.id || 'Plot'),
    canvas,
    readout,
    legend,
    h('details', { class: 'plot-data' }, h('summary', {}, 'Data'), dataTable(plot)));
  let lastWidth = -1;
  const draw = (width) => {
    const W = Math.max(260, Math.round(width));
    if (W === lastWidth) return;
    lastWidth = W;
    const H = W < 480 ? 230 : 270;
    readout.textContent = '';
    const svg = s('svg', {
      class: 'plot-svg', role: 'img', width: W, height: H, viewBox: `0 0 ${W} ${H}`,
      'aria-labelledby': `${titleId} ${descId}`, 'aria-label': summary(plot),
    }, s('title', { id: titleId }, plot.title || 'Plot'), s('desc', { id: descId }, summary(plot)));
    try {
      if (plot.kind === 'lines') drawLines(svg, plot, W, H, legend);
      else if (plot.kind === 'bars' || plot.kind === 'histogram') drawBars(svg, plot, W, H, readout);
      else if (plot.kind === 'heatmap') drawHeatmap(svg, plot, W, H);
      else svg.append(s('text', { x: 16, y: 24, class: 'plot-tick' }, `(unknown plot kind “${plot.kind}”)`));
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
