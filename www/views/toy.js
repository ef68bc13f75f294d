// The toy protocol's view (src/protocols/toy/view.rs): the ground-truth lines the predictions do not repeat,
// asked of the session's files with the report's options (the view request `missed`). It shows the cost of a
// view: one module here, one declaration in the protocol's folder.

import { h } from '../util.js';

export async function render(entry, ctx) {
  const report = entry.report;
  if (!ctx?.session) return [];
  const list = h('ul', { class: 'toy-missed' });
  const status = h('p', { class: 'muted small', 'aria-live': 'polite' }, 'Finding the lines not repeated…');
  try {
    const out = await ctx.session.view('missed', {}, { mode: ctx.mode ?? report.mode, set: ctx.set ?? {} });
    list.replaceChildren(...out.missed.map((line) => h('li', {}, line)));
    status.textContent = `${out.missed.length} of ${out.of} ground-truth lines are not repeated by the predictions.`;
  } catch (e) {
    status.textContent = `The missed lines could not be listed: ${e?.message ?? e}`;
  }
  return h('section', { class: 'toy-view' }, h('h3', {}, 'Lines not repeated'), status, list);
}
