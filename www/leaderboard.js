// The leaderboard preview of an embedded competition: the organizer's columns (titles, order, decimals, sort
// direction) filled with this submission's scores, as the leaderboard will show them. The values come from the
// report of the config's mode, whatever mode the details show.

import { h, fixed } from './util.js';

/** @param {object} config the validated config (src/config.rs JSON form); @param {object} run see app.js */
export function renderLeaderboard(config, run) {
  const mode = config.mode ?? 'official';
  const report = run.reports[mode]?.report;
  const cols = config.leaderboard.columns;
  const cells = cols.map((c) => {
    const v = report?.scores?.[c.metric];
    const text = !report ? (run.pending.has(mode) ? '…' : '—') : typeof v === 'number' ? fixed(v, c.decimals) : '—';
    return h('td', { class: 'num lb-value', dataset: { key: c.key }, title: typeof v === 'number' ? String(v) : 'not computable' }, text);
  });
  return h('section', { class: 'leaderboard-preview', 'aria-label': 'Leaderboard preview' },
    h('h3', { class: 'lb-title' }, 'Your submission on the leaderboard', h('span', { class: 'lb-mode' }, ` (${mode} mode)`)),
    h('div', { class: 'table-scroll' },
      h('table', { class: 'leaderboard' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Submission'), cols.map((c) => h('th', { scope: 'col', dataset: { key: c.key }, title: c.sort === 'asc' ? 'lower is better' : 'higher is better' },
          c.title, h('span', { class: 'lb-sort', 'aria-hidden': 'true' }, c.sort === 'asc' ? ' ↑' : ' ↓'))))),
        h('tbody', {}, h('tr', {}, h('th', { scope: 'row' }, 'yours'), cells)))),
    // The same row as title/value pairs, which the style sheet shows instead of the table on a narrow screen.
    h('dl', { class: 'lb-stack' }, cols.map((c, i) => h('div', { class: 'lb-pair', dataset: { key: c.key } },
      h('dt', {}, c.title, c.sort === 'asc' ? ' ↑' : ' ↓'), h('dd', { class: 'num lb-value' }, cells[i].textContent)))));
}
