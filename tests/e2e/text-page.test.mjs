// The text family through the page (docs/specs/text.md 3): each built-in text example (HTR in PAGE XML, DocVQA's
// ANLS, SQuAD v2.0, translation) scored by "Try an example": the leaderboard metric first and big with the CLI's
// exact value (the page's Download JSON scores equal `dropscore text … --format json`, with DROPSCORE_BIN), the
// items worst first with their alignment in colour, for the single-reference HTR lines the per-item CER/WER
// histograms and the character confusions, for PAGE XML the pages with their lines (ids, CER, alignment), the
// page chooser reachable with the keyboard. Screenshots at 390 and 1280 px go to tests/e2e/artifacts/text-*.png.
// Every wait is for the result itself (the view's lists, the run's end), never for a progress message.
//
//   DROPSCORE_BIN=target/release/dropscore node --test tests/e2e/text-page.test.mjs     (needs www/pkg)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import childProcess from 'node:child_process';
import { setup, openPage, runOf, shot, downloadJson, findCli, registry, exampleFile } from './harness.mjs';

setup();
const text = (await registry()).find((p) => p.id === 'text');
const examples = Object.fromEntries(text.examples.map((ex) => [ex.id, ex]));

/** The CLI's scores for an example, on the files' own paths, with the example's options. */
function cliScores(ex) {
  const cli = findCli();
  if (!cli) return null;
  const args = ['text', ...ex.gt.flatMap((f) => ['--gt', exampleFile(f)]), ...ex.pred.flatMap((f) => ['--pred', exampleFile(f)]),
    '--format', 'json', ...(ex.set ?? []).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
  const r = childProcess.spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `dropscore ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout).scores;
}

/** Scores the example in a fresh page; returns the page, once the text view has drawn its worst items. */
async function scored(id, width) {
  const opened = await openPage('#/p/text', { width, height: 900 });
  const button = opened.page.locator(`.example-btn[data-example="${id}"]`);
  assert.equal(await runOf(opened.page, () => button.click()), 'done', await opened.page.textContent('#status-text'));
  await opened.page.waitForSelector('.text-view .text-worst li');
  return opened;
}

/** What the page shows: the headline's first metric and value, the worst items, plots, PAGE lines. */
function shown(page) {
  return page.evaluate(() => {
    const primary = document.querySelector('table.hl-main tr.hl-primary');
    const num = primary?.querySelector('td .num');
    return {
      metric: primary?.dataset.metric ?? null,
      value: num?.textContent.trim() ?? null,
      size: num ? parseFloat(getComputedStyle(num).fontSize) : 0,
      body: parseFloat(getComputedStyle(document.body).fontSize),
      note: document.querySelector('.text-view p.muted')?.textContent ?? '',
      worst: [...document.querySelectorAll('.text-worst > li')].map((li) => li.querySelector('strong')?.textContent),
      plots: [...document.querySelectorAll('figure.plot')].map((f) => f.dataset.plot),
      pages: document.querySelector('.text-pages') ? [...document.querySelectorAll('#text-page-select option')].map((o) => o.value) : null,
      pageTitle: document.querySelector('.text-pages h4')?.textContent ?? '',
      lines: [...document.querySelectorAll('.text-page-lines > li')].map((li) => li.dataset.line),
      coloured: [...document.querySelectorAll('.text-worst .text-alignment :is(mark, del, ins)')].map((e) => getComputedStyle(e).backgroundColor),
      pageColoured: document.querySelectorAll('.text-page-lines .text-alignment :is(mark, del, ins)').length,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

/** The items' per-item values of `key` in the page's report, by id. */
function perItem(report, key) {
  return Object.fromEntries(report.items.map((it) => [it.id, it.scores[key]]));
}

const CASES = [
  { id: 'htr_page', metric: 'cer', key: 'cer', worse: 1, plots: ['cer_histogram', 'wer_histogram', 'confusions'], page: true },
  { id: 'docvqa_anls', metric: 'anls', key: 'anls', worse: -1, plots: [], page: false },
  { id: 'squad', metric: 'f1', key: 'f1', worse: -1, plots: [], page: false },
  { id: 'translation', metric: 'bleu', key: 'anls', worse: -1, plots: [], page: false },
];

for (const c of CASES) {
  for (const width of [1280, 390]) {
    test(`text ${c.id} at ${width} px: ${c.metric} first with the CLI's value, worst items aligned in colour`, async () => {
      const { page, context, check } = await scored(c.id, width);
      // The alignments arrive after the list: wait for the coloured runs themselves.
      await page.waitForSelector('.text-worst .text-alignment :is(mark, del, ins)');
      if (c.page) await page.waitForSelector('.text-page-lines .text-alignment :is(mark, del, ins)');
      const s = await shown(page);
      const report = JSON.parse(await downloadJson(page, 'official'));
      assert.equal(s.metric, c.metric, 'the leaderboard metric first');
      assert.ok(s.size > s.body, `the headline value is big (${s.size} px over ${s.body} px)`);
      const value = report.scores[c.metric];
      assert.equal(typeof value, 'number');
      assert.ok(Math.abs(Number(s.value) - value) <= 0.5 * 10 ** -((s.value.split('.')[1] ?? '').length) + 1e-12,
        `${s.value} shows ${value}`);
      const cli = cliScores(examples[c.id]);
      if (cli) assert.deepEqual(report.scores, cli, 'the page\'s scores are the CLI\'s, exactly');
      // Worst first by the per-item key.
      const values = perItem(report, c.key);
      assert.match(s.note, new RegExp(`by per-item ${c.key}`));
      const ordered = s.worst.map((id) => values[id]);
      for (let i = 1; i < ordered.length; i++) {
        assert.ok(c.worse * (ordered[i - 1] - ordered[i]) >= 0, `worst first: ${ordered.join(', ')}`);
      }
      assert.ok(s.coloured.length > 0 && s.coloured.every((bg) => bg !== 'rgba(0, 0, 0, 0)'), 'errors in colour');
      for (const p of c.plots) assert.ok(s.plots.includes(p), `plot ${p} in ${s.plots}`);
      if (c.page) {
        assert.deepEqual(s.pages, ['page1', 'page2']);
        assert.match(s.pageTitle, /^Page page1: \d+ lines, CER \d+\.\d\d %$/);
        const ids = report.items.filter((it) => it.id.startsWith('page1/')).map((it) => it.id.slice(6));
        assert.deepEqual(s.lines, ids, 'page1\'s lines in file order, with their ids');
        assert.ok(s.pageColoured > 0);
      } else {
        assert.equal(s.pages, null, 'no PAGE section for other layouts');
      }
      assert.ok(s.overflow <= 0, `no horizontal scrolling (${s.overflow} px)`);
      await shot(page, `text-${c.id}-${width}`);
      check();
      await context.close();
    });
  }
}

test('text htr_page: the page chooser is reached with Tab and switches pages with the arrow keys', async () => {
  const { page, context, check } = await scored('htr_page', 1280);
  await page.waitForSelector('#text-page-select');
  let reached = false;
  for (let i = 0; i < 300 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.id === 'text-page-select');
  }
  assert.ok(reached, 'the page chooser is in the tab order');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('.text-pages h4')?.textContent.startsWith('Page page2:'));
  const s = await shown(page);
  const report = JSON.parse(await downloadJson(page, 'official'));
  assert.deepEqual(s.lines, report.items.filter((it) => it.id.startsWith('page2/')).map((it) => it.id.slice(6)));
  check();
  await context.close();
});
