// aij2022 view (docs/specs/aij2022.md 8): the official print lines, the tasks with their eligibility thresholds and
// weights, a per-id table of the text tasks (normalised forms, per-option scores, the letter fallback, carry-over),
// the METEOR alignment of one id (links coloured by stage, chunks, P/R/Fmean/penalty), the TRitW character diff
// and the FID terms. Everything comes from the report (items[].detail, readings, display.footer).

import { h, auto, naturalCompare, uniqueId } from '../util.js';
import { missingReason } from '../reasons.js';

const MAX_ROWS = 300;
const TASKS = [
  ['textqa', 'TextQA', 0.2], ['mathqa', 'MathQA', 0.25], ['generation', 'ImageGeneration', 0.21],
  ['captioning', 'ImageCaptioning', 0.15], ['vqa', 'VisualQA', 0.24], ['titw', 'TRitW', 0.13],
];

const txt = (v) => (v == null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
const num = (v) => (v == null ? '—' : auto(v));

function officialOutput(report) {
  const f = report.display?.footer ?? '';
  const body = f.replace(/^Official scorer output:\n/, '');
  if (!body) return null;
  return h('div', { class: 'aij-print' },
    h('h4', {}, 'What the official scripts print'),
    h('pre', { class: 'aij-pre' }, body));
}

function tasksTable(report) {
  const rows = TASKS.filter(([id]) => report.groups?.some((g) => g.id === id) || report.scores?.[id] != null).map(([id, name, thr]) => {
    const v = report.scores?.[id];
    const pass = v == null ? null : v >= thr;
    const why = v == null ? missingReason(report, id) : null;
    return h('tr', { dataset: { task: id } },
      h('th', { scope: 'row' }, name),
      h('td', { class: 'num', title: why, 'aria-label': why ? `— ${why}` : null }, num(v)),
      h('td', { class: 'num' }, String(thr)),
      h('td', { class: pass == null ? 'aij-why' : pass ? 'aij-pass' : 'aij-fail' }, pass == null ? why.replace(/^not computed: /, 'not available: ') : pass ? 'pass' : 'below'),
      h('td', { class: 'num' }, '1/15'));
  });
  const integral = report.scores?.integral;
  return h('div', {},
    h('h4', {}, 'Tasks, eligibility thresholds and weights'),
    h('div', { class: 'table-scroll' }, h('table', { class: 'data aij-tasks' },
      h('thead', {}, h('tr', {}, ['task', 'score', 'threshold', 'eligibility', 'weight in S'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows))),
    h('p', { class: 'muted small' }, integral == null
      ? 'Integral S: not available (it needs all six open tasks and the six hidden values, option hidden_scores).'
      : `Integral S = Σ open / 15 + Σ hidden / 10 = ${auto(integral)}`));
}

function textTable(items, onAlign) {
  const rows0 = items.filter((it) => ['textqa', 'mathqa', 'titw', 'vqa', 'captioning'].includes(it.group));
  if (!rows0.length) return null;
  const st = { below: false };
  const id = uniqueId('aij-below');
  const tbody = h('tbody');
  const count = h('span', { class: 'muted small', 'aria-live': 'polite' });
  const draw = () => {
    const rows = rows0.filter((it) => !st.below || (it.scores?.score ?? it.scores?.meteor ?? 0) < 1);
    count.textContent = `${rows.length} of ${rows0.length} ids${rows.length > MAX_ROWS ? ` (first ${MAX_ROWS} shown)` : ''}`;
    tbody.replaceChildren(...rows.slice(0, MAX_ROWS).map((it) => {
      const d = it.detail ?? {};
      const opts = Array.isArray(d.options) ? d.options.map((o) => (typeof o === 'string' ? o : o.option))
        : Array.isArray(d.option_scores) ? d.option_scores.map((_, i) => `option ${i + 1}`) : [];
      const optScores = d.option_scores ?? (Array.isArray(d.options) ? d.options.map((o) => o?.score) : []);
      const fb = d.fallback;
      const alignable = onAlign && (it.group === 'vqa' || it.group === 'captioning');
      return h('tr', { dataset: { item: it.id } },
        h('th', { scope: 'row' }, it.id, alignable ? h('button', { type: 'button', class: 'btn btn-small aij-align-btn', title: 'Show the METEOR alignment', onclick: () => onAlign(it.id) }, 'align') : null),
        h('td', {}, h('ol', { class: 'aij-opts' }, opts.map((o, i) => h('li', {}, txt(o), ' ', h('span', { class: 'muted num' }, num(optScores[i])), d.normalised_options ? h('div', { class: 'muted small' }, '→ ', txt(d.normalised_options[i])) : null)))),
        h('td', {}, txt(d.answer), d.element != null ? h('span', { class: 'muted small' }, ` [element ${d.element}]`) : null,
          d.carry_over_from != null ? h('div', { class: 'aij-warn small' }, `carried over from id ${d.carry_over_from}`) : null,
          d.error ? h('div', { class: 'aij-warn small' }, d.error) : null),
        h('td', {}, d.best === undefined && d.option_scores ? h('span', { class: 'muted small' }, 'align to see it') : txt(d.normalised_prediction ?? d.best?.hyp)),
        h('td', {}, fb ? `“${fb.letter}” → ${num(fb.score)}` : '—'),
        h('td', { class: 'num' }, num(it.scores?.score ?? it.scores?.meteor)));
    }));
  };
  draw();
  return h('div', {},
    h('h4', {}, 'Text tasks per id'),
    h('div', { class: 'table-tools' },
      h('label', { for: id }, h('input', { type: 'checkbox', id, onchange: (e) => { st.below = e.target.checked; draw(); } }), ' below 1 only'),
      count),
    h('div', { class: 'table-scroll table-tall' },
      h('table', { class: 'data aij-items' },
        h('thead', {}, h('tr', {}, ['id', 'GT options (score, normalised)', 'answer used', 'normalised answer', 'letter fallback', 'score'].map((c) => h('th', { scope: 'col' }, c)))),
        tbody)));
}

/** The METEOR alignment of id `it` (its detail's `best`) into `box`: tokens coloured by stage, chunks, the terms. */
function drawAlignment(box, it) {
  const b = it.detail?.best;
  const a = b?.alignment;
  if (!a) {
    box.replaceChildren(h('p', { class: 'small' }, `${it.id}: no option scores above 0${b?.numeric ? ' (numeric answer)' : ''}, so there is no alignment to draw.`));
    return;
  }
  const hStage = new Map(a.links.map((l) => [l.h, l.stage]));
  const rStage = new Map(a.links.map((l) => [l.r, l.stage]));
  // chunk boxes on the hypothesis: a new chunk starts where the next link is not (h+1, r+1)
  const chunkOf = new Map();
  let c = 0;
  a.links.forEach((l, i) => {
    if (i > 0 && !(l.h === a.links[i - 1].h + 1 && l.r === a.links[i - 1].r + 1)) c++;
    chunkOf.set(l.h, c);
  });
  const tok = (t, stage, chunk) => h('span', { class: ['aij-tok', stage ? `aij-${stage}` : 'aij-none'], title: stage ? `${stage} match${chunk != null ? `, chunk ${chunk + 1}` : ''}` : 'unmatched' }, t);
  box.replaceChildren(
    h('p', { class: 'small' }, h('strong', {}, it.id), ` best option: ${txt(b.option)}`),
    h('p', {}, h('strong', {}, 'hypothesis '), ...b.hyp_tokens.map((t, i) => tok(t, hStage.get(i), chunkOf.get(i)))),
    h('p', {}, h('strong', {}, 'reference '), ...b.ref_tokens.map((t, i) => tok(t, rStage.get(i)))),
    h('p', { class: 'small' }, `links: ${a.links.map((l) => `${l.h}→${l.r} (${l.stage})`).join(', ') || 'none'}`),
    h('p', { class: 'small' }, `m = ${a.links.length}, chunks = ${a.chunks}, P = ${auto(a.precision)}, R = ${auto(a.recall)}, Fmean = ${auto(a.fmean)}, penalty = ${auto(a.penalty)}, METEOR = ${auto(a.score)}`),
    h('p', { class: 'muted small' }, 'Green: exact, blue: stem, purple: synonym; greedy alignment from the last token backwards, as NLTK aligns.'));
}

// Above this many METEOR ids the alignment view takes a typed id instead of a list.
const MAX_SELECT = 300;

function alignmentView(items, ctx, report) {
  const cands = items.filter((it) => (it.group === 'vqa' || it.group === 'captioning') && (it.detail?.best?.alignment || it.detail?.option_scores));
  if (!cands.length) return null;
  const byId = new Map(cands.map((it) => [it.id, it]));
  const selId = uniqueId('aij-align');
  const box = h('div', { class: 'aij-align', 'aria-live': 'polite' });
  const show = (it) => drawAlignment(box, it);
  let asked = 0;
  const draw = async (itemId) => {
    const it = byId.get(itemId);
    if (!it) {
      box.replaceChildren(h('p', { class: 'small aij-warn' }, `No VisualQA or captioning id “${itemId}” in this report (ids look like ${cands[0].id}).`));
      return;
    }
    if (it.detail?.best !== undefined || !ctx?.session) {
      show(it);
      return;
    }
    // Light detail (a large file): the worker scores this one id again with its full detail (option explain), on the
    // run's session (the files it read; the report is not kept for the explanation).
    const ticket = ++asked;
    box.replaceChildren(h('p', { class: 'muted small' }, `Computing the alignment of ${it.id}…`));
    try {
      const mode = ctx.mode ?? report.mode;
      const { report: one } = await ctx.session.score({ mode, set: { ...(ctx.set ?? {}), explain: it.id } });
      const full = one.items?.find((x) => x.id === it.id);
      if (ticket !== asked) return;
      if (!full) throw new Error('the id was not scored');
      it.detail = full.detail;
      show(it);
    } catch (e) {
      if (ticket === asked) box.replaceChildren(h('p', { class: 'small aij-warn' }, `The alignment could not be computed: ${e?.message ?? e}`));
    }
  };
  const sorted = cands.slice().sort((x, y) => naturalCompare(x.id, y.id));
  let picker;
  if (sorted.length <= MAX_SELECT) {
    picker = h('select', { id: selId, onchange: (e) => draw(e.target.value) }, sorted.map((it) => h('option', { value: it.id }, it.id)));
  } else {
    const input = h('input', { type: 'search', id: selId, value: sorted[0].id, placeholder: sorted[0].id, autocomplete: 'off', spellcheck: 'false', onkeydown: (e) => { if (e.key === 'Enter') draw(input.value.trim()); } });
    picker = h('span', {}, input, ' ', h('button', { type: 'button', class: 'btn btn-small', onclick: () => draw(input.value.trim()) }, 'Show'),
      h('span', { class: 'muted small' }, ` ${sorted.length} ids; each is aligned on demand`));
  }
  draw(sorted[0].id);
  const section = h('div', {},
    h('h4', {}, 'METEOR alignment'),
    h('label', { for: selId }, 'id '),
    picker,
    box);
  section.showId = (id) => {
    const el = section.querySelector(`#${selId}`);
    if (el) el.value = id;
    draw(id);
    section.scrollIntoView?.({ block: 'nearest' });
  };
  return section;
}

/** Levenshtein alignment of two code-point arrays as ops: ['=', a, b] | ['~', a, b] | ['-', a, ''] | ['+', '', b]. */
export function charDiff(a, b) {
  const A = [...a];
  const B = [...b];
  const D = Array.from({ length: A.length + 1 }, (_, i) => Array.from({ length: B.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= A.length; i++) {
    for (let j = 1; j <= B.length; j++) {
      D[i][j] = Math.min(D[i - 1][j] + 1, D[i][j - 1] + 1, D[i - 1][j - 1] + (A[i - 1] === B[j - 1] ? 0 : 1));
    }
  }
  const ops = [];
  let i = A.length;
  let j = B.length;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && D[i][j] === D[i - 1][j - 1] + (A[i - 1] === B[j - 1] ? 0 : 1)) {
      ops.push([A[i - 1] === B[j - 1] ? '=' : '~', A[i - 1], B[j - 1]]);
      i--; j--;
    } else if (i > 0 && D[i][j] === D[i - 1][j] + 1) {
      ops.push(['-', A[i - 1], '']); i--;
    } else {
      ops.push(['+', '', B[j - 1]]); j--;
    }
  }
  return ops.reverse();
}

function titwView(items) {
  const rows = items.filter((it) => it.group === 'titw' && typeof it.detail?.answer === 'string' && Array.isArray(it.detail?.options));
  if (!rows.length) return null;
  const cls = { '=': 'aij-same', '~': 'aij-sub', '-': 'aij-del', '+': 'aij-ins' };
  return h('div', {},
    h('h4', {}, 'TRitW: prediction vs best option, character by character'),
    h('div', { class: 'table-scroll' }, h('table', { class: 'data aij-diff' },
      h('thead', {}, h('tr', {}, ['id', 'best option (GT)', 'prediction', '1 − NED'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.slice(0, MAX_ROWS).map((it) => {
        const d = it.detail;
        const gt = d.options[d.best_option ?? 0] ?? '';
        const ops = charDiff(gt, d.answer);
        return h('tr', { dataset: { item: it.id } },
          h('th', { scope: 'row' }, it.id),
          h('td', { class: 'aij-chars' }, ops.filter((o) => o[0] !== '+').map((o) => h('span', { class: cls[o[0]] }, o[1]))),
          h('td', { class: 'aij-chars' }, ops.filter((o) => o[0] !== '-').map((o) => h('span', { class: cls[o[0]] }, o[2]))),
          h('td', { class: 'num' }, num(it.scores?.score)));
      })))),
    h('p', { class: 'muted small' }, 'Red: substituted, struck: deleted from the GT, underlined: inserted by the prediction. Case, ё/е, spaces and punctuation all count.'));
}

function fidView(report) {
  const r = (report.readings ?? []).find((x) => x.id === 'fid_terms');
  if (!r) return null;
  const s = r.scores;
  const singular = (s.n_ref != null && s.n_ref <= s.d) || (s.n_gen != null && s.n_gen <= s.d);
  return h('div', {},
    h('h4', {}, `FID (${r.label})`),
    h('p', {}, `FID = ‖μ₁ − μ₂‖² + tr Σ₁ + tr Σ₂ − 2·tr √(Σ₁Σ₂) = ${num(s.mean_term)} + ${num(s.trace_ref)} + ${num(s.trace_gen)} − 2·${num(s.tr_covmean)} = ${num(s.fid)}`),
    h('p', { class: 'small' }, `d = ${num(s.d)}; N reference = ${s.n_ref ?? 'statistics'}; N generated = ${s.n_gen ?? 'statistics'}`),
    singular ? h('p', { class: 'aij-warn' }, 'Fewer samples than dimensions: the covariance is singular (rank < d); FID is then large and the FID term of S_gen is often 0.') : null);
}

export function render(entry, ctx) {
  const report = entry.report;
  const items = report.items ?? [];
  const align = alignmentView(items, ctx, report);
  const parts = [officialOutput(report), tasksTable(report), fidView(report), align, titwView(items), textTable(items, align?.showId)].filter(Boolean);
  if (!parts.length) return null;
  return h('section', { class: 'aij-view', 'aria-labelledby': 'aij-view-title' },
    h('h3', { id: 'aij-view-title' }, 'AI Journey 2022: how each number was computed'),
    parts);
}
