// notebook.test.mjs is gocl's real-browser end-to-end test: it opens a
// notebook in Debian's classic Jupyter Notebook in headless Chromium, runs
// all cells through the menu (Cell → Run All), waits for every cell to
// finish, checks what a user would see and saves a screenshot.
//
// Run it with e2e/browser/run.sh (which installs playwright-core and builds
// gocl), or `node --test notebook.test.mjs` here with GOCL_BIN set.
//
// Environment:
//   GOCL_BIN         the gocl binary (default: ../../bin/gocl)
//   GOCL_NOTEBOOK    the notebook (default: notebooks/01-blocking-vs-nonblocking.ipynb)
//   GOCL_N           the problem size the notebook reads (default: 1000000 float64 values, 8 MB)
//   GOCL_CHROMIUM    the browser (default: /usr/bin/chromium)
//   GOCL_SCREENSHOT  where a passing run copies its screenshot (e.g. docs/screenshot.png);
//                    every run writes out/<notebook>.png here, failing or not
//   GOCL_E2E_KEEP=1  keep the temporary directory (server log, profile)

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Harness } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const fromRoot = (p) => path.resolve(ROOT, p);

const notebook = fromRoot(process.env.GOCL_NOTEBOOK || 'notebooks/01-blocking-vs-nonblocking.ipynb');
const nbName = path.basename(notebook, '.ipynb');
// The lab notebook (01) must show an event card and a timeline; other
// notebooks (the tour) are held only to the rules every notebook obeys.
const isLab = nbName.startsWith('01-');

const RUN_ALL_TIMEOUT = 110_000; // hang guard for the cells themselves
const log = (...a) => console.log(...a);

const harness = new Harness({
  goclBin: process.env.GOCL_BIN ? path.resolve(process.env.GOCL_BIN) : fromRoot('bin/gocl'),
  notebook,
  chromium: process.env.GOCL_CHROMIUM || '/usr/bin/chromium',
  env: { GOCL_N: process.env.GOCL_N || '1000000' },
  keep: process.env.GOCL_E2E_KEEP === '1',
  log,
});
process.on('exit', () => harness.stopNow());
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    harness.stopNow();
    process.exit(1);
  });
}

let url;
before(async () => {
  url = await harness.start();
}, { timeout: 60_000 });

after(async () => {
  await harness.stop();
}, { timeout: 30_000 });

// cellStates reads, in the page, what the notebook front end knows about
// each code cell: its index, whether it is empty, its prompt number, its
// tags, whether it is running and whether its iopub traffic has ended.
function cellStates(page) {
  return page.evaluate(() => {
    const nb = window.Jupyter.notebook;
    const finished = window.__goclFinished || new Set();
    return nb.get_cells().map((c, index) => ({ index, c })).filter(({ c }) => c.cell_type === 'code').map(({ index, c }) => ({
      index,
      empty: c.get_text().trim() === '',
      prompt: c.input_prompt_number,
      running: c.element.hasClass('running'),
      finished: finished.has(c.cell_id),
      tags: (c.metadata && c.metadata.tags) || [],
      errors: c.output_area.outputs.filter((o) => o.output_type === 'error').map((o) => `${o.ename}: ${o.evalue}`),
      domErrors: c.element[0].querySelectorAll('.output_error').length,
      jsErrors: c.element[0].querySelectorAll('.js-error').length,
      source: c.get_text().slice(0, 80),
    }));
  });
}

// kernelIdle reports whether the kernel indicator shows idle.
function kernelIdle(page) {
  return page.evaluate(() => document.querySelector('#kernel_indicator_icon')?.classList.contains('kernel_idle_icon') ?? false);
}

// answerInput types into a stdin prompt (input_request) if one is showing,
// as a user would, so a notebook that reads stdin cannot hang the test.
async function answerInput(page) {
  const box = page.locator('input.raw_input');
  if (await box.count() > 0 && await box.first().isVisible()) {
    log('answering a stdin prompt with "gocl"');
    await box.first().fill('gocl');
    await box.first().press('Enter');
  }
}

// waitForAllCells polls until every non-empty code cell has its prompt
// number and has finished its output, and the kernel is idle; it fails
// early when the kernel sits idle with cells that will never run (aborted).
async function waitForAllCells(page, ms) {
  const deadline = Date.now() + ms;
  let idleSince = 0;
  let states = [];
  while (Date.now() < deadline) {
    await answerInput(page);
    states = await cellStates(page);
    const pending = states.filter((s) => !s.empty && (typeof s.prompt !== 'number' || s.running || !s.finished));
    const idle = await kernelIdle(page);
    if (pending.length === 0 && idle) return states;
    if (idle && !states.some((s) => s.running)) {
      idleSince ||= Date.now();
      if (Date.now() - idleSince > 5_000) {
        const failed = states.filter((s) => s.errors.length > 0);
        assert.fail(`the kernel is idle but these cells never ran:\n${describe(pending)}\n` +
          `after errors in:\n${describe(failed)}`);
      }
    } else {
      idleSince = 0;
    }
    await sleep(250);
  }
  const pending = states.filter((s) => !s.empty && (typeof s.prompt !== 'number' || !s.finished));
  assert.fail(`cells still not finished after ${ms / 1000} s:\n${describe(pending)}`);
}

// waitFor polls a condition in this process until it holds.
async function waitFor(cond, ms, what) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}

function describe(states) {
  return states.map((s) => `  cell ${s.index} [${s.prompt ?? ' '}] ${JSON.stringify(s.source)}` +
    s.errors.map((e) => `\n    ${e}`).join('')).join('\n') || '  (none)';
}

// fullScreenshot grows the viewport to the notebook's height (the classic
// notebook scrolls inside #site, so a plain full-page shot would cut it),
// then saves the page as PNG.
async function fullScreenshot(page, file) {
  const height = await page.evaluate(() => {
    // Down to the end of the last cell, leaving out the empty space the
    // notebook keeps below it for scrolling.
    const site = document.querySelector('#site');
    const cells = document.querySelector('#notebook-container');
    if (!site || !cells) return document.body.scrollHeight;
    return Math.ceil(cells.getBoundingClientRect().bottom + site.scrollTop + 30);
  });
  await page.setViewportSize({ width: 1280, height: Math.min(Math.max(height + 20, 600), 16_000) });
  await page.evaluate(() => {
    window.dispatchEvent(new Event('resize'));
    document.querySelector('#site')?.scrollTo(0, 0);
  });
  await sleep(500);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, timeout: 30_000 });
  log(`screenshot: ${file}`);
}

test(`${nbName} runs in Jupyter Notebook in headless Chromium`, { timeout: 170_000 }, async () => {
  const page = harness.context.pages()[0] || (await harness.context.newPage());
  const pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.setDefaultTimeout(30_000);
  const shot = path.join(HERE, 'out', `${nbName}.png`);
  let passed = false;
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(
      () => window.Jupyter?.notebook?._fully_loaded && window.Jupyter.notebook.kernel?.is_connected?.() &&
        document.querySelector('#kernel_indicator_icon.kernel_idle_icon') !== null,
      null, { timeout: 60_000 },
    ).catch((err) => {
      throw new Error(`the notebook page never connected to a kernel: ${err.message}\nserver log:\n${harness.serverLogTail()}`);
    });
    const kernelName = await page.evaluate(() => window.Jupyter.notebook.kernel.name);
    assert.equal(kernelName, 'gocl', 'the notebook runs on the gocl kernel from the temporary kernelspec');

    // Record when each cell's iopub traffic ends (its status: idle).
    await page.evaluate(() => {
      window.__goclFinished = new Set();
      window.Jupyter.notebook.events.on('finished_execute.CodeCell', (_e, d) => window.__goclFinished.add(d.cell.cell_id));
    });

    log('Cell → Run All');
    await page.click('#celllink');
    await page.click('#run_all_cells');
    const states = await waitForAllCells(page, RUN_ALL_TIMEOUT);

    // Save through the menu, as a user would: the outputs must survive the
    // round trip to .ipynb (and the header then shows a clean state).
    log('File → Save and Checkpoint');
    const before = fs.statSync(harness.savedNotebook).mtimeMs;
    await page.click('#filelink');
    await page.click('#save_checkpoint');
    await page.waitForFunction(() => !window.Jupyter.notebook.dirty, null, { timeout: 30_000 });
    await waitFor(() => fs.statSync(harness.savedNotebook).mtimeMs > before, 10_000, 'the notebook file to be saved');
    const saved = JSON.parse(fs.readFileSync(harness.savedNotebook, 'utf8'));
    const savedCounts = saved.cells.filter((c) => c.cell_type === 'code' && [].concat(c.source).join('').trim() !== '')
      .map((c) => c.execution_count);
    await fullScreenshot(page, shot);

    const ran = states.filter((s) => !s.empty);
    assert.ok(ran.length > 0, 'the notebook has code cells');

    // No cell shows an error, except those tagged raises-exception (the
    // Jupyter convention for cells meant to fail), which must show one.
    for (const s of ran) {
      const expectError = s.tags.includes('raises-exception');
      const where = `cell ${s.index} [${s.prompt}] ${JSON.stringify(s.source)}`;
      assert.equal(s.jsErrors, 0, `${where}: an output failed to render in the browser`);
      if (expectError) {
        assert.ok(s.errors.length > 0 && s.domErrors > 0, `${where} is tagged raises-exception but shows no error`);
      } else {
        assert.deepEqual(s.errors, [], `${where} shows an error`);
        assert.equal(s.domErrors, 0, `${where} shows an error on the page`);
      }
    }

    // Every non-empty code cell ran once, in order, on a fresh kernel.
    assert.deepEqual(ran.map((s) => s.prompt), ran.map((_, i) => i + 1), 'cells ran in order, each once, starting at In [1]');
    assert.deepEqual(savedCounts, ran.map((s) => s.prompt), 'the saved notebook holds the execution counts shown on the page');

    if (isLab) {
      await assertLabOutputs(page);
    }
    passed = true;
  } finally {
    if (!passed) {
      await fullScreenshot(page, shot).catch((err) => log(`no failure screenshot: ${err.message}`));
      if (pageErrors.length) log(`errors in the page:\n${pageErrors.join('\n')}`);
      log(`server log (end):\n${harness.serverLogTail(20)}`);
    }
  }
  if (process.env.GOCL_SCREENSHOT) {
    const dest = fromRoot(process.env.GOCL_SCREENSHOT);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(shot, dest);
    log(`screenshot copied to ${dest}`);
  }
});

// assertLabOutputs checks the outputs that make the lab notebook worth
// reading: at least one event card (clapi/viz EventCardHTML) and a timeline
// (clapi/viz TimelineSVG), each actually drawn with a visible size.
async function assertLabOutputs(page) {
  const found = await page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { w: Math.round(r.width), h: Math.round(r.height) };
    };
    const areas = [...document.querySelectorAll('.output_area')];
    // An event card: an HTML output with the card's figures table (rows
    // "mode" and "device time") and a verdict.
    const cards = [];
    for (const a of areas) {
      for (const el of a.querySelectorAll('.gocl-event-card, .output_html > div')) {
        const labels = [...el.querySelectorAll('td')].map((td) => td.textContent.trim());
        if (el.classList.contains('gocl-event-card') || (labels.includes('mode') && labels.includes('device time'))) {
          cards.push({ ...box(el), text: el.textContent.replace(/\s+/g, ' ').slice(0, 160) });
        }
      }
    }
    // A timeline: an SVG with a time axis ("time (unit)") and bars.
    const timelines = [];
    for (const a of areas) {
      for (const svg of a.querySelectorAll('svg')) {
        const axis = [...svg.querySelectorAll('text')].some((t) => /^time \(/.test(t.textContent.trim()));
        const bars = svg.querySelectorAll('g > rect').length;
        if (axis) timelines.push({ ...box(svg), bars });
      }
    }
    return { cards, timelines };
  });
  log(`event cards: ${JSON.stringify(found.cards)}`);
  log(`timelines: ${JSON.stringify(found.timelines)}`);
  assert.ok(found.cards.length > 0, 'an event card (EventCardHTML) is on the page');
  for (const c of found.cards) {
    assert.ok(c.w > 100 && c.h > 40, `the event card is drawn with a visible size (${c.w}x${c.h}): ${c.text}`);
  }
  assert.ok(found.timelines.length > 0, 'a timeline SVG (TimelineSVG) is on the page');
  for (const t of found.timelines) {
    assert.ok(t.w > 200 && t.h > 50, `the timeline is drawn with a visible size (${t.w}x${t.h})`);
    assert.ok(t.bars > 0, 'the timeline has bars');
  }
}
