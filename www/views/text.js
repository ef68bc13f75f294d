// The text view (src/protocols/text/view.rs): the items worst first (by per-item CER, else WER, ANLS, F1 or
// Jaccard), each with its character alignment as jiwer's visualize_alignment shows it, in colour: substitutions
// (reference over hypothesis), deletions (reference text struck through), insertions (hypothesis text
// underlined). The alignment is the protocol's view request `alignment`, computed in Rust. The histograms of
// per-item CER/WER and the most frequent character substitutions are the report's plots, drawn by the page.

import { h } from '../util.js';

const SHOWN = 50;
const COLOURS = { substitute: '#f5c26b', delete: '#f29b9b', insert: '#9bd3a0' };
// Error rates: higher is worse; similarities: lower is worse.
const ORDER = [['cer', 1], ['wer', 1], ['anls', -1], ['f1', -1], ['jaccard', -1], ['ned', -1]];

/** The key the items are sorted by and its direction, from the first row's scores. */
function sortKey(items) {
  const first = items[0]?.scores ?? {};
  return ORDER.find(([k]) => typeof first[k] === 'number') ?? null;
}

/** A run of the alignment: [kind, reference text, hypothesis text]. */
function run([kind, ref, hyp]) {
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

function legend() {
  return h('p', { class: 'small text-legend' }, ...['substitute', 'delete', 'insert'].map((k) => {
    const chip = h('span', { class: `text-${k}` }, ` ${k === 'substitute' ? 'substitution' : k === 'delete' ? 'deletion' : 'insertion'} `);
    chip.style.backgroundColor = COLOURS[k];
    return [chip, ' '];
  }));
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
  return h('section', { class: 'text-view' }, h('h3', {}, 'Items, worst first'), note, legend(), list);
}
