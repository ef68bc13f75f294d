// "Why official and corrected differ" in plain words: each line names the step where
// the two modes part and shows one example item, for the built-in examples of kws, falsid and chalearn-ce, and
// the shell's line names where the official scorer stops (file:line), not a diagnostic code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, runOf } from './harness.mjs';

setup();

async function explainLines(protocol, example) {
  const { page, context, check } = await openPage(`#/p/${protocol}`);
  const state = await runOf(page, () => page.click(`button.example-btn[data-example="${example}"]`));
  assert.equal(state, 'done', await page.textContent('#status-text'));
  await page.waitForSelector('.explain .explain-list, .explain p:not(.pending)');
  const lines = await page.$$eval('.explain .explain-list li', (li) => li.map((x) => x.textContent));
  check();
  await context.close();
  return lines;
}

test('falsid worked: the headline measure and the class balance, with a misclassified sample', async () => {
  const lines = await explainLines('falsid', 'worked');
  assert.match(lines[0], /Choosing the headline measure/);
  const pizan = lines.find((l) => l.startsWith('Pizan:'));
  assert.match(pizan, /Averaging over samples or over classes: the subset has 8 authentic and 2 imitation samples/);
  assert.match(pizan, /Example: `p\d+` is imitation and was predicted authentic\./);
});

test('chalearn-ce ap-missing: ordering equal confidences and completing the ranking, each with its category', async () => {
  const lines = await explainLines('chalearn-ce', 'ap-missing');
  assert.equal(lines[0], 'mAP: official 0.603175 vs corrected 0.625000.');
  assert.ok(lines.some((l) => /^Ordering equal confidences: .*Example: in La_Tomatina/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^Completing the ranking: .*Example: La_Tomatina does not list 1 of its positive images\./.test(l)), lines.join('\n'));
});

test('kws edge-blank: where the official scorer stops, in words, and that corrected mode scores it', async () => {
  const lines = await explainLines('kws', 'edge-blank');
  assert.match(lines[0], /^The official scorer fails on this input at (examples\/kws\/)?edge_res_blank\.xml:4: the official scorer stops on this line: the line is blank; corrected mode scores it/);
  for (const l of lines) assert.doesNotMatch(l, /kws\.official\.|out of bounds|byte index/);
});
