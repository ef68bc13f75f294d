// Small DOM and formatting helpers shared by the page modules.

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') node.textContent = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k in node && typeof v !== 'string' && !(node instanceof SVGElement)) node[k] = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * Creates an HTML element: h('p', {class: 'x'}, 'text', child, [more]).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  applyAttrs(node, attrs);
  append(node, children);
  return node;
}

/** Creates an SVG element. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  applyAttrs(node, attrs);
  append(node, children);
  return node;
}

export function $(sel, root = document) {
  return root.querySelector(sel);
}

/**
 * Formats a number with a fixed number of decimals, rounding exact ties to even (as Rust's `{:.N}` and C's
 * printf do; JavaScript's toFixed rounds ties up). `null`/non-finite → "—".
 */
export function fixed(v, decimals) {
  if (v === null || v === undefined || typeof v !== 'number' || !Number.isFinite(v)) return '—';
  const d = Math.max(0, Math.min(20, decimals | 0));
  const a = Math.abs(v);
  if (a >= 1e21) return String(v);
  const exact = a.toFixed(100);
  const dot = exact.indexOf('.');
  const rest = exact.slice(dot + 1 + d);
  let out;
  if (/^50*$/.test(rest)) {
    const kept = d === 0 ? exact.slice(0, dot) : exact.slice(0, dot + 1 + d);
    const last = Number(kept[kept.length - 1]);
    out = last % 2 === 0 ? kept : a.toFixed(d);
  } else {
    out = a.toFixed(d);
  }
  return v < 0 ? '-' + out : out; // as Rust and printf: -0.0000001 → "-0.000"
}

/** Formats a value without declared decimals: integers as is, others with up to 6 significant decimals. */
export function auto(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return '—';
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e9)) return v.toPrecision(4);
  return String(Number(v.toFixed(6)));
}

export function formatValue(v, decimals) {
  if (typeof v === 'number' && decimals !== undefined && decimals !== null) return fixed(v, decimals);
  return auto(v);
}

export function formatBytes(n) {
  if (!Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  do {
    v /= 1024;
    i++;
  } while (v >= 1024 && i < units.length - 1);
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[i]}`;
}

/**
 * Natural order, as the crate sorts ids (src/report.rs `natural_cmp`): digit runs compare by value ("q2" < "q10"),
 * the rest by code point. The per-item table does not use it (the worker sorts its rows); the protocol views
 * order their own small lists with it.
 */
export function naturalCompare(a, b) {
  const x = String(a);
  const y = String(b);
  let i = 0;
  let j = 0;
  const isDigit = (c) => c >= 48 && c <= 57;
  while (i < x.length && j < y.length) {
    const c = x.charCodeAt(i);
    const d = y.charCodeAt(j);
    if (isDigit(c) && isDigit(d)) {
      let ie = i;
      while (ie < x.length && isDigit(x.charCodeAt(ie))) ie++;
      let je = j;
      while (je < y.length && isDigit(y.charCodeAt(je))) je++;
      const tx = x.slice(i, ie).replace(/^0+/, '');
      const ty = y.slice(j, je).replace(/^0+/, '');
      if (tx.length !== ty.length) return tx.length - ty.length;
      if (tx !== ty) return tx < ty ? -1 : 1;
      i = ie;
      j = je;
    } else {
      if (c !== d) return c - d;
      i++;
      j++;
    }
  }
  if (i < x.length) return 1;
  if (j < y.length) return -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Saves text (or a Blob) as a file download (through a blob: URL; nothing leaves the tab). */
export function download(filename, text, type) {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

let uid = 0;
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** English plural of a (lower-case) noun: query → queries, box → boxes, image → images. */
export function pluralWord(word) {
  if (/[^aeiou]y$/i.test(word)) return word.slice(0, -1) + 'ies';
  if (/(s|x|z|ch|sh)$/i.test(word)) return word + 'es';
  return word + 's';
}

export function plural(n, one, many = pluralWord(one)) {
  return `${n} ${n === 1 ? one : many}`;
}
