// The text view (src/protocols/text/view.rs): the items worst first (by per-item CER, else WER, ANLS, F1 or
// Jaccard), each with its character alignment as jiwer's visualize_alignment shows it, in colour: substitutions
// (reference over hypothesis), deletions (reference text struck through), insertions (hypothesis text
// underlined). The alignment is the protocol's view request `alignment`, computed in Rust. For PAGE XML input,
// the pages and their lines come first (www/views/text-page.js). The histograms of
// per-item CER/WER and the most frequent character substitutions are the report's plots, drawn by the page.

import { h } from '../util.js';
import { run, legend, pageSection } from './text-page.js';

const SHOWN = 50;
// Error rates: higher is worse; similarities: lower is worse.
const ORDER = [['cer', 1], ['wer', 1], ['anls', -1], ['f1', -1], ['jaccard', -1], ['ned', -1]];

/** The key the items are sorted by and its direction, from the first row's scores. */
function sortKey(items) {
  const first = items[0]?.scores ?? {};
  return ORDER.find(([k]) => typeof first[k] === 'number') ?? null;
}

export async function render(entry, ctx) {
  const report = entry.report;
  const items = (report.items ?? []).slice();
  const key = sortKey(items);
  if (!items.length || !key) return [];
  const [k, dir] = key;
  items.sort((a, b) => dir * ((b.scores[k] ?? -Infinity * dir) - (a.scores[k] ?? -Infinity * dir)));
  const worst = items.slice(0, SHOWN);
  const total = report.items_total ?? report.items.length;
  const note = h('p', { class: 'muted small', 'aria-live': 'polite' },
    `The ${worst.length} worst of ${total} items by per-item ${k}${report.items_total ? ' (of the rows loaded)' : ''}.`);
  const list = h('ol', { class: 'text-worst' });
  for (const it of worst) {
    const line = h('div', { class: 'text-alignment' }, it.detail?.hypothesis ?? '');
    const value = typeof it.scores[k] === 'number' ? it.scores[k].toFixed(4) : '—';
    list.append(h('li', {},
      h('p', { class: 'small' }, h('strong', {}, it.id), `  ${k} ${value}`),
      h('p', { class: 'small muted' }, 'reference: ', it.detail?.reference ?? ''),
      line));
    if (ctx?.session) {
      ctx.session.view('alignment', { id: it.id }, { mode: ctx.mode ?? report.mode, set: ctx.set ?? {} })
        .then((out) => line.replaceChildren(...out.runs.map(run)))
        .catch(() => {});
    }
  }
  const worstSection = h('section', { class: 'text-view' }, h('h3', {}, 'Items, worst first'), note, legend(), list);
  const opts = { mode: ctx?.mode ?? report.mode, set: ctx?.set ?? {} };
  const pages = ctx?.session
    ? await pageSection((args) => ctx.session.view('page_lines', args, opts)).catch(() => null)
    : null;
  return pages ? [pages, worstSection] : worstSection;
}
