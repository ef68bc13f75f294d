// @ts-check
// <dropscore-evaluator config="dropscore.json">: the dropscore app as a custom element for an organizer's
// competition page. One ES module, added with one <script type="module" src=".../embed.js">. The app lives in
// an open shadow root with its own constructable stylesheet, so the host page's CSS neither leaks in nor gets
// broken; theming goes through CSS custom properties set on the element (--accent, --bg, --surface, --text,
// --muted, --border, --radius, --sans, --mono, ...). The config (the JSON form of dropscore.toml, see
// `dropscore config`) is fetched from the same origin and validated by the engine; its ground truth is
// preloaded, so participants only drop predictions. No request leaves the host's origin.
//
// Attributes: config (URL of the JSON config, relative to the page; required).
// Exposes data-run (idle | running | done | cancelled | failed) and data-runs on the element, like <body> on
// the standalone page.

import { MARKUP } from './markup.js';
import { mountApp } from './app.js';
import { sameResource } from './config.js';

const CSS_URL = new URL('./style.css', import.meta.url);
let sheetPromise = null;

/**
 * style.css adapted to a shadow root: `:root` → `:host`, the page's html/body rules → the app's root box,
 * rem → px (rem follows the host page's <html> font size), and `:host` reset with `all: initial` so inherited
 * properties (font, color, line-height, ...) set by the host page stop at the element.
 */
export function shadowCss(css) {
  const adapted = css
    .replace(/:root\b/g, ':host')
    .replace(/(^|[}\s,])html\s*\{/g, '$1.ds-body {')
    .replace(/(^|[}\s,])body\s*\{/g, '$1.ds-body {')
    .replace(/(\d*\.?\d+)rem\b/g, 'calc($1 * 16px)');
  return `:host { all: initial; display: block; contain: content; }
:host([hidden]) { display: none; }
${adapted}
.ds-body { min-height: 100%; text-align: start; }
.ds-body main.wrap { padding-top: 16px; padding-bottom: 16px; }
`;
}

function sheet() {
  sheetPromise ??= (async () => {
    let css = globalThis.DROPSCORE_CSS; // inlined by scripts/build-dist
    if (typeof css !== 'string') {
      const resp = await fetch(CSS_URL);
      if (!resp.ok) throw new Error(`${CSS_URL.pathname}: HTTP ${resp.status}`);
      css = await resp.text();
    }
    const s = new CSSStyleSheet();
    await s.replace(shadowCss(css));
    return s;
  })();
  return sheetPromise;
}

async function fetchConfig(attr) {
  if (!attr) return { error: 'the element has no config attribute (config="dropscore.json")' };
  let url;
  try {
    url = new URL(attr, document.baseURI);
  } catch {
    return { error: `config="${attr}" is not a URL` };
  }
  if (url.origin !== location.origin) return { url: url.href, error: `config="${attr}": not on this site (${url.origin}); serve it from ${location.origin}` };
  try {
    // No redirect is followed, and the answer must come from the URL asked (www/config.js sameResource).
    const resp = await fetch(url, { credentials: 'same-origin', redirect: 'error' });
    if (!resp.ok) return { url: url.href, error: `config="${attr}": HTTP ${resp.status}` };
    if (!sameResource(resp.url, url)) return { url: url.href, error: `config="${attr}": answered from ${resp.url}, not from this site's ${url.pathname}` };
    return { url: url.href, text: await resp.text() };
  } catch (e) {
    return { url: url.href, error: `config="${attr}": ${e?.message ?? e}` };
  }
}

export class DropscoreEvaluator extends HTMLElement {
  async connectedCallback() {
    if (this.shadowRoot) return; // mounted once; moving the element keeps it
    const shadow = this.attachShadow({ mode: 'open' });
    const body = document.createElement('div');
    body.className = 'ds-body';
    body.setAttribute('part', 'body');
    const main = document.createElement('main');
    main.className = 'wrap';
    main.insertAdjacentHTML('beforeend', MARKUP);
    body.append(main);
    try {
      shadow.adoptedStyleSheets = [await sheet()];
    } catch (e) {
      console.warn(`dropscore: no stylesheet (${e?.message ?? e})`);
    }
    shadow.append(body);
    const cfg = await fetchConfig(this.getAttribute('config'));
    this.app = mountApp(main, {
      page: false,
      stateEl: this,
      configUrl: cfg.url ?? null,
      configText: cfg.text ?? null,
      configError: cfg.error ?? null,
    });
  }
}

if (!customElements.get('dropscore-evaluator')) customElements.define('dropscore-evaluator', DropscoreEvaluator);
