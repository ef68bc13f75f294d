// A report with more rows than the page is handed: a generated 25,000-row regression GT and submission
// are dropped and scored; the report comes with its first 20,000 rows and `items_total`, and the per-item table
// asks the worker for its rows (src/items_query.rs). The table is filtered (by id and by the shown score texts),
// sorted and paged, each checked against the CLI's report of the same files; Download CSV and Download JSON
// (streamed out of wasm) are compared byte for byte with the CLI's --format csv / --format json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setup, openPage, score, headline, dropFiles, findCli, assertSameText, shot, repoRoot } from './harness.mjs';

const { formatValue, naturalCompare } = await import(path.join(repoRoot, 'www', 'util.js'));

const N = 25000;
setup();

/** gt.csv and pred.csv (rows shuffled) with N ids, seeded; a few predictions equal their target. */
function generate(dir) {
  let x = 0x9e3779b9;
  const rand = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const ids = Array.from({ length: N }, (_, i) => `r${String(i).padStart(5, '0')}`);
  const target = ids.map(() => Math.round(rand() * 200000) / 1000);
  const pred = target.map((t, i) => (i % 97 === 0 ? t : Math.round((t + (rand() - 0.5) * 40) * 1000) / 1000));
  const order = ids.map((_, i) => i);
  for (let i = N - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  fs.writeFileSync(path.join(dir, 'gt.csv'), `id,target\n${ids.map((id, i) => `${id},${target[i]}`).join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'pred.csv'), `id,prediction\n${order.map((i) => `${ids[i]},${pred[i]}`).join('\n')}\n`);
}

/** `dropscore regression --gt gt.csv --pred pred.csv --mode MODE --format FORMAT`, in the files' folder. */
const cliOut = (cli, dir, mode, format) => execFileSync(cli, ['regression', '--gt', 'gt.csv', '--pred', 'pred.csv', '--mode', mode, '--format', format],
  { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });

const firstIds = (page, n) => page.$$eval('table.items-table tbody tr.item-row', (trs, k) => trs.slice(0, k).map((tr) => tr.dataset.item), n);
const countText = (page) => page.textContent('section.items .table-tools [aria-live]');
/** Waits until the table's count reads `count` and its first ids are `ids`. */
async function waitTable(page, count, ids) {
  await page.waitForFunction(([c, want]) => {
    const got = [...document.querySelectorAll('table.items-table tbody tr.item-row')].slice(0, want.length).map((tr) => tr.dataset.item);
    return document.querySelector('section.items .table-tools [aria-live]')?.textContent === c && JSON.stringify(got) === JSON.stringify(want)
      && document.querySelector('section.items')?.dataset.state === 'ready';
  }, [count, ids], { timeout: 30000 });
}

test(`regression, ${N} rows: the table is paged from the worker and the downloads are the CLI's bytes`, async () => {
  const cli = findCli();
  assert.ok(cli, 'DROPSCORE_BIN: the CLI built from the same source');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dropscore-large-'));
  generate(dir);
  const gt = path.join(dir, 'gt.csv');
  const pred = path.join(dir, 'pred.csv');
  const cliReport = JSON.parse(cliOut(cli, dir, 'official', 'json'));
  const items = cliReport.items;
  assert.equal(items.length, N);

  const { page, context, check } = await openPage('#/p/regression');
  await dropFiles(page, '#zone-gt', [gt]);
  await dropFiles(page, '#zone-pred', [pred]);
  await score(page);

  // The headline: the CLI's leaderboard metric, as the page rounds it.
  const official = await headline(page, 'official');
  const cols = cliReport.display.columns;
  const lead = cliReport.display.headline[0];
  assert.equal(official[lead.id], formatValue(cliReport.scores[lead.id], lead.decimals), JSON.stringify(official));

  // The table has every row's count, and shows the first page.
  assert.equal(await page.getAttribute('section.items', 'data-rows'), 'paged');
  assert.equal(await countText(page), `${N} ids`);
  assert.deepEqual(await firstIds(page, 3), items.slice(0, 3).map((it) => it.id));

  // Filters: by id (case-insensitive) and by the score texts as the table shows them (5 decimals).
  const texts = (it) => [it.id, ...cols.map((c) => formatValue(it.scores[c.id] ?? null, c.decimals))].map((t) => t.toLowerCase());
  for (const q of ['R0012', '12.5', '0.00000']) {
    const want = items.filter((it) => texts(it).some((t) => t.includes(q.toLowerCase())));
    assert.ok(want.length > 0 && want.length < N, `${q}: ${want.length}`);
    await page.fill('section.items input.filter-input', q);
    await waitTable(page, `${want.length} of ${N} ids match`, want.slice(0, 5).map((it) => it.id));
  }

  // Sorted by the error, largest first (the page's first click on a score column), then ascending; ties keep
  // the report's order.
  await page.fill('section.items input.filter-input', '');
  await waitTable(page, `${N} ids`, items.slice(0, 3).map((it) => it.id));
  const byError = (dir) => items.map((it, i) => [it, i])
    .sort((a, b) => dir * (a[0].scores.error - b[0].scores.error) || a[1] - b[1]).map(([it]) => it.id);
  const desc = byError(-1);
  await page.click('section.items button.sort-btn[data-col="error"]');
  await waitTable(page, `${N} ids`, desc.slice(0, 5));
  // Paging: the next 1,000 rows, and back.
  await page.click('section.items button[data-page="next"]');
  await waitTable(page, `${N} ids`, desc.slice(1000, 1005));
  assert.match(await page.textContent('section.items .page-range'), /rows 1001–2000 of 25000/);
  await page.click('section.items button[data-page="previous"]');
  await waitTable(page, `${N} ids`, desc.slice(0, 5));
  await page.click('section.items button.sort-btn[data-col="error"]');
  await waitTable(page, `${N} ids`, byError(1).slice(0, 5));
  // Ids in natural order, descending.
  await page.click('section.items button.sort-btn[data-col="__id"]');
  await page.click('section.items button.sort-btn[data-col="__id"]');
  const ids = items.map((it) => it.id).sort(naturalCompare).reverse();
  await waitTable(page, `${N} ids`, ids.slice(0, 5));
  await shot(page, 'large-report-1280');

  // Downloads: the CLI's bytes, in both modes.
  for (const mode of ['official', 'corrected']) {
    await page.check(`input[name=view-mode][value=${mode}]`);
    await page.waitForFunction((m) => document.querySelector('.r-details')?.dataset.view === m, mode);
    for (const format of ['json', 'csv']) {
      const label = `Download ${format.toUpperCase()}`;
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`button:has-text("${label}")`)]);
      assert.match(dl.suggestedFilename(), new RegExp(`-${mode}\\.${format}$`));
      const got = fs.readFileSync(await dl.path(), 'utf8');
      const want = cliOut(cli, dir, mode, format);
      assertSameText(got, want, `${mode}: ${label} vs the CLI's --format ${format}`);
    }
  }
  check();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
