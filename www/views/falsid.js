// falsid view: the per-sample table filtered to errors, each sample with its nearest neighbours (distance and
// GT class; same-class neighbours marked), so that one sees where the distance metric fails.
// Everything comes from the report (items[].detail: gt, pred, result, rank, nn = [[id, distance, label], ...]).

import { h, auto, naturalCompare, uniqueId } from '../util.js';

const MAX_ROWS = 300;
const CLASS = ['authentic', 'imitation'];

export function render(entry) {
  const report = entry.report;
  const items = report.items ?? [];
  if (!items.length) return null;
  const subsets = [...new Set(items.map((it) => it.group))].sort(naturalCompare);
  const hasPred = items.some((it) => it.detail?.result != null);
  const hasNn = items.some((it) => Array.isArray(it.detail?.nn));
  const st = { errors: hasPred, subset: '', missesOnly: false };
  const errId = uniqueId('falsid-errors');
  const nnId = uniqueId('falsid-nnmiss');
  const subId = uniqueId('falsid-subset');
  const count = h('span', { class: 'muted small', 'aria-live': 'polite' });
  const tbody = h('tbody');
  const draw = () => {
    const rows = items.filter((it) => (!st.subset || it.group === st.subset)
      && (!st.errors || it.detail?.result === 'error' || it.detail?.result === 'missing')
      && (!st.missesOnly || !(it.detail?.rank === 1)));
    count.textContent = `${rows.length} of ${items.length} samples${rows.length > MAX_ROWS ? ` (first ${MAX_ROWS} shown)` : ''}`;
    tbody.replaceChildren(...rows.slice(0, MAX_ROWS).map((it) => {
      const d = it.detail ?? {};
      const nn = Array.isArray(d.nn) ? d.nn : [];
      const mine = CLASS.indexOf(d.gt);
      return h('tr', { dataset: { item: it.id, result: d.result ?? '' } },
        h('th', { scope: 'row' }, it.id),
        h('td', {}, it.group ?? ''),
        h('td', {}, d.gt ?? '—'),
        h('td', { class: d.result === 'error' || d.result === 'missing' ? 'falsid-wrong' : null }, d.pred ?? '—'),
        h('td', { class: 'num' }, d.rank == null ? '—' : String(d.rank)),
        h('td', {}, nn.length ? h('ol', { class: 'falsid-nn' }, nn.map(([id, dist, label]) =>
          h('li', { class: label === mine ? 'nn-same' : 'nn-other', title: label === mine ? 'same class' : 'other class' },
            h('span', { class: 'nn-id' }, String(id)), ' ', h('span', { class: 'num' }, dist == null ? 'inf' : auto(dist)), ' ',
            h('span', { class: 'nn-label' }, CLASS[label] ?? String(label))))) : '—'));
    }));
  };
  const controls = h('div', { class: 'table-tools' },
    hasPred ? h('label', { for: errId }, h('input', { type: 'checkbox', id: errId, checked: st.errors, onchange: (e) => { st.errors = e.target.checked; draw(); } }), ' misclassified only') : null,
    hasNn ? h('label', { for: nnId }, h('input', { type: 'checkbox', id: nnId, onchange: (e) => { st.missesOnly = e.target.checked; draw(); } }), ' Top-1 misses only') : null,
    h('label', { for: subId }, 'subset '),
    h('select', { id: subId, onchange: (e) => { st.subset = e.target.value; draw(); } },
      h('option', { value: '' }, 'all'), subsets.map((s) => h('option', { value: s }, s))),
    count);
  draw();
  return h('section', { class: 'falsid-view', 'aria-labelledby': 'falsid-view-title' },
    h('h3', { id: 'falsid-view-title' }, 'Samples and their nearest neighbours'),
    h('p', { class: 'muted small' }, 'Neighbours in the order the Top-k diagnostic uses (distance, then column; the query itself excluded). Green: same GT class as the sample; red: other class.'),
    controls,
    h('div', { class: 'table-scroll table-tall' },
      h('table', { class: 'data falsid-samples' },
        h('thead', {}, h('tr', {}, ['sample', 'subset', 'GT', 'prediction', 'first same-class rank', 'nearest (distance, GT class)'].map((c) => h('th', { scope: 'col' }, c)))),
        tbody)));
}
