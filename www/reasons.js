// @ts-check
// Why a value is missing: the short reason shown next to every "—" of a report (the headline table, the groups
// table), so a participant does not have to look for it 2,000 px further down. From the report's own
// diagnostics for that metric when there are any, else from what the protocol needs to compute it.

import { locationOf, sortedDiagnostics } from './report.js';

/** @typedef {import('./api').Report} Report */
/** @typedef {import('./api').Diagnostic} Diagnostic */

const CLIP = 'needs CLIP scores (option clip_scores or a clip_scores.json)';
const GEN = 'needs the ImageGeneration features (option fid_inputs)';

/**
 * Per protocol and metric: the diagnostic code prefixes that concern it, and the reason when none is present.
 * `group`: the task's group; when the report has no such group, no files of that task were given.
 * @type {Record<string, Record<string, {codes: string[], need?: string, group?: string}>>}
 */
const METRICS = {
  aij2022: {
    textqa: { codes: ['aij.textqa.'], group: 'textqa' },
    mathqa: { codes: ['aij.mathqa.'], group: 'mathqa' },
    vqa: { codes: ['aij.vqa.'], group: 'vqa' },
    titw: { codes: ['aij.titw.'], group: 'titw' },
    captioning: { codes: ['aij.cap.', 'aij.clip.'], need: CLIP, group: 'captioning' },
    captioning_meteor: { codes: ['aij.cap.'], group: 'captioning' },
    captioning_clip: { codes: ['aij.clip.'], need: CLIP, group: 'captioning' },
    generation: { codes: ['aij.gen.', 'aij.clip.'], need: GEN, group: 'generation' },
    generation_fid: { codes: ['aij.gen.'], need: GEN, group: 'generation' },
    generation_clip: { codes: ['aij.clip.'], need: CLIP, group: 'generation' },
    integral: { codes: [], need: 'needs all six open tasks and the six hidden values (option hidden_scores)' },
  },
  falsid: Object.fromEntries(['top1', 'top3', 'top5'].map((k) => [k, {
    codes: ['falsid.matrix.', 'falsid.topk.'], need: 'needs distance matrices (dist_<subset>.csv or .npy among the predictions)',
  }])),
};

/** "message (file:line)" of a diagnostic, short. @param {Diagnostic} d */
function said(d) {
  const loc = locationOf(d);
  return `${d.message ?? d.code}${loc ? ` (${loc})` : ''}`;
}

/**
 * The reason `report.scores[id]` (or a group's score) is missing, as one short phrase, e.g.
 * "not computed: needs CLIP scores (option clip_scores, …)".
 * @param {Report} report @param {string} id
 */
export function missingReason(report, id) {
  const diags = sortedDiagnostics(report.diagnostics);
  const errors = diags.filter((d) => d.severity === 'error');
  if (report.mode === 'official' && report.official_fails) {
    // The first error is the root cause (the report lists causes before what follows from them).
    const d = errors[0];
    const loc = d ? locationOf(d) : '';
    return `not computed: the official scorer fails on this input${loc ? ` (${loc})` : ''}`;
  }
  const spec = METRICS[report.protocol]?.[id];
  const codes = spec?.codes ?? [];
  const own = diags.find((d) => d.severity !== 'info' && (codes.some((c) => d.code?.startsWith(c)) || (d.code ?? '').split('.').includes(id)));
  if (own) return `not computed: ${said(own)}`;
  if (spec?.group && Array.isArray(report.groups) && !report.groups.some((g) => g.id === spec.group)) {
    return 'not computed: no files of this task among the inputs';
  }
  if (spec?.need) return `not computed: ${spec.need}`;
  if (errors.length) return `not computed: the input has errors (first: ${said(errors[0])})`;
  return 'not computable on this input (0/0 or no items to average)';
}
