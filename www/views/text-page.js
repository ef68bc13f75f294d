// The PAGE XML part of the text view (src/protocols/text/page_view.rs, the view request `page_lines`): each page
// with its line count and CER, and the chosen page's text lines in the order of its PAGE XML, each with its
// line id, its CER and its alignment in colour. Also the alignment runs' drawing, shared with www/views/text.js.
// Every number and run comes from Rust; this file only draws.

import { h } from '../util.js';

export const COLOURS = { substitute: '#f5c26b', delete: '#f29b9b', insert: '#9bd3a0' };

/** A run of the alignment: [kind, reference text, hypothesis text]. */
export function run([kind, ref, hyp]) {
  const shownText = (t) => t.replace(/ /g, '\u2423') || '\u2205';
  if (kind === 'equal') return h('span', { class: 'text-equal' }, ref);
  const node = kind === 'delete'
    ? h('del', { class: 'text-delete', title: `deleted: ${ref}` }, shownText(ref))
    : kind === 'insert'
      ? h('ins', { class: 'text-insert', title: `inserted: ${hyp}` }, shownText(hyp))
      : h('mark', { class: 'text-substitute', title: `${ref} → ${hyp}` }, shownText(hyp));
  node.style.backgroundColor = COLOURS[kind];
  return node;
}

export function legend() {
  return h('p', { class: 'small text-legend' }, ...['substitute', 'delete', 'insert'].map((k) => {
    const chip = h('span', { class: `text-${k}` }, ` ${k === 'substitute' ? 'substitution' : k === 'delete' ? 'deletion' : 'insertion'} `);
    chip.style.backgroundColor = COLOURS[k];
    return [chip, ' '];
  }));
}

const pct = (v) => (typeof v === 'number' ? `${(100 * v).toFixed(2)} %` : '—');

/** The lines of one page as a list. */
function lines(out) {
  const list = h('ol', { class: 'text-page-lines' });
  for (const l of out.lines ?? []) {
    list.append(h('li', { 'data-line': l.id },
      h('p', { class: 'small' }, h('strong', {}, l.id), `  CER ${pct(l.cer)}`),
      h('div', { class: 'text-alignment' }, ...(l.runs ?? []).map(run))));
  }
  const more = out.more ? h('p', { class: 'muted small' }, `${out.more} more lines on this page are not shown.`) : '';
  return [list, more];
}

/**
 * The pages section, or null when the input is not PAGE XML. `ask(args)` is the session's `page_lines` request.
 */
export async function pageSection(ask) {
  const first = await ask({});
  if (!first?.pages?.length) return null;
  const body = h('div', { class: 'text-page-body' });
  const title = h('h4', {});
  const show = (out) => {
    const p = out.pages.find((x) => x.page === out.page);
    title.textContent = `Page ${out.page}: ${p?.lines ?? 0} lines, CER ${pct(p?.cer)}`;
    body.replaceChildren(...lines(out));
  };
  const select = h('select', { id: 'text-page-select', 'aria-label': 'Page' },
    ...first.pages.map((p) => h('option', { value: p.page }, `${p.page} (${p.lines} lines, CER ${pct(p.cer)})`)));
  select.addEventListener('change', async () => show(await ask({ page: select.value })));
  show(first);
  return h('section', { class: 'text-pages' },
    h('h3', {}, 'Pages (PAGE XML), lines in file order'),
    h('label', { class: 'small' }, 'Page ', select),
    legend(), title, body);
}
