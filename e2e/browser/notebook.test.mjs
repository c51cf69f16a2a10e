// notebook.test.mjs is gocl's real-browser end-to-end test. For each
// Jupyter front end (JupyterLab 4 and Notebook 7 from gocl's venv, classic
// Notebook 6.4 from Debian), in headless Chromium, it:
//   - opens every notebook in notebooks/, runs all cells from the menu at a
//     small size (GOCL_N), answers stdin boxes, waits for every output,
//     saves, and checks that no cell shows an error (except cells tagged
//     raises-exception, which must) and that the event cards, timelines and
//     plots the committed notebook holds are drawn on the page;
//   - in notebook 07 (when notebooks/07-explore-transfers.ipynb exists, and
//     in the front ends with ipywidgets 8), moves the size slider and
//     changes the memory dropdown and checks the card's numbers change;
//   - in a scratch notebook: interrupts `for {}` from the toolbar and checks
//     the variables survive and (with ipywidgets) that a slider's OnChange
//     registered before still writes its Output through a func value, completes with Tab after non-ASCII text and
//     checks what was inserted, opens the Shift-Tab tooltip, answers a stdin
//     box, and restarts from the toolbar.
//
// Run it with e2e/browser/run.sh, or `node --test notebook.test.mjs` here.
//
// Environment:
//   GOCL_BIN         the gocl binary (default: ../../bin/gocl)
//   GOCL_FRONTENDS   which front ends, comma-separated (default: lab,nb7,classic)
//   GOCL_VENV        gocl's venv holding JupyterLab and Notebook 7 (default ~/.local/share/gocl/venv)
//   GOCL_CLASSIC_JUPYTER  the jupyter of the classic Notebook (default /usr/bin/jupyter)
//   GOCL_NOTEBOOK    only this notebook (default: every notebooks/*.ipynb)
//   GOCL_N           the problem size the notebooks read (default: 100000 float64 values)
//   GOCL_CHROMIUM    the browser (default: /usr/bin/chromium)
//   GOCL_SCREENSHOTS a folder (e.g. docs/) that a passing run copies the JupyterLab screenshots into;
//                    every run writes out/<front end>-<notebook>.png here, failing or not
//   GOCL_E2E_KEEP=1  keep the temporary directories (server log, profile)

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ClassicDriver } from './classicdriver.mjs';
import { Harness, frontends, jupyterFor } from './harness.mjs';
import { LabDriver } from './labdriver.mjs';
import { exploreWidgets, widgetNotebook } from './widgets.mjs';
import { scratchCells, writeScratch } from './scratch.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const fromRoot = (p) => path.resolve(ROOT, p);
const log = (...a) => console.log(...a);

const notebooks = process.env.GOCL_NOTEBOOK ? [fromRoot(process.env.GOCL_NOTEBOOK)]
  : fs.readdirSync(fromRoot('notebooks')).filter((f) => f.endsWith('.ipynb')).sort().map((f) => fromRoot(path.join('notebooks', f)));
const kinds = (process.env.GOCL_FRONTENDS || 'lab,nb7,classic').split(',').map((k) => k.trim()).filter(Boolean);
for (const k of kinds) assert.ok(frontends[k], `GOCL_FRONTENDS names an unknown front end '${k}' (known: ${Object.keys(frontends)})`);

const RUN_ALL_TIMEOUT = 150_000; // hang guard for one notebook's cells
const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gocl-scratch-'));
const scratch = writeScratch(scratchDir);
process.on('exit', () => fs.rmSync(scratchDir, { recursive: true, force: true }));

// expected reads what the committed notebook's outputs hold, so the test
// asks the browser to draw what the notebook is known to draw.
function expected(file) {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
  const all = nb.cells.flatMap((c) => c.outputs || []).map((o) => JSON.stringify(o.data || {})).join('\n');
  return {
    cards: all.includes('gocl-event-card'),
    timelines: all.includes('gocl-timeline'),
    plots: all.replace(/<svg[^>]*gocl-timeline[^>]*>/g, '').includes('<svg'),
  };
}

// waitForAllCells polls until every non-empty code cell has its prompt
// number and has finished, and the kernel is idle, answering stdin boxes
// as they come; it fails early when the kernel sits idle with cells that
// will never run (aborted after an error).
async function waitForAllCells(d, ms) {
  const deadline = Date.now() + ms;
  let idleSince = 0;
  let states = [];
  while (Date.now() < deadline) {
    if (await d.answerInput('gocl')) log('  answered a stdin box with "gocl"');
    states = await d.cells();
    const pending = states.filter((s) => !s.empty && (typeof s.prompt !== 'number' || s.running || !s.finished));
    const idle = await d.idle();
    if (pending.length === 0 && idle) return states;
    if (idle && !states.some((s) => s.running)) {
      idleSince ||= Date.now();
      if (Date.now() - idleSince > 8_000) {
        assert.fail(`the kernel is idle but these cells never ran:\n${describe_(pending)}\nafter errors in:\n${describe_(states.filter((s) => s.errors.length))}`);
      }
    } else {
      idleSince = 0;
    }
    await sleep(250);
  }
  assert.fail(`cells still not finished after ${ms / 1000} s:\n${describe_(states.filter((s) => !s.empty && (typeof s.prompt !== 'number' || !s.finished)))}`);
}

function describe_(states) {
  return states.map((s) => `  cell ${s.index} [${s.prompt ?? ' '}] ${JSON.stringify(s.source)}` +
    s.errors.map((e) => `\n    ${e}`).join('')).join('\n') || '  (none)';
}

// waitUntil polls an async condition until it holds.
async function waitUntil(cond, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) assert.fail(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(200);
  }
}

// screenshot saves the whole notebook: the viewport grows to the
// notebook's height, since both front ends scroll inside an element.
async function screenshot(page, kind, file) {
  const height = await page.evaluate((k) => {
    const inner = k === 'classic' ? document.querySelector('#notebook-container')
      : window.jupyterapp?.shell?.currentWidget?.content?.node?.querySelector('.jp-WindowedPanel-viewport') ||
        window.jupyterapp?.shell?.currentWidget?.content?.node;
    return inner ? Math.ceil(inner.scrollHeight + 200) : document.body.scrollHeight;
  }, kind);
  await page.setViewportSize({ width: 1280, height: Math.min(Math.max(height, 700), 12_000) });
  await sleep(800);
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('#site, .jp-WindowedPanel-outer')) el.scrollTo(0, 0);
  });
  await sleep(300);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, timeout: 30_000 });
  await page.setViewportSize({ width: 1280, height: 900 });
  log(`  screenshot: ${file}`);
}

const shots = []; // JupyterLab screenshots a passing run copies to GOCL_SCREENSHOTS

for (const kind of kinds) {
  describe(`${frontends[kind].title} in headless Chromium`, () => {
    const harness = new Harness({
      goclBin: process.env.GOCL_BIN ? path.resolve(process.env.GOCL_BIN) : fromRoot('bin/gocl'),
      notebooks: [...notebooks, scratch],
      frontend: kind,
      jupyter: jupyterFor(kind),
      chromium: process.env.GOCL_CHROMIUM || '/usr/bin/chromium',
      env: { GOCL_N: process.env.GOCL_N || '100000' },
      keep: process.env.GOCL_E2E_KEEP === '1',
      log,
    });
    process.on('exit', () => harness.stopNow());

    before(async () => { await harness.start(); }, { timeout: 90_000 });
    after(async () => { await harness.stop(); }, { timeout: 40_000 });

    // open opens a notebook in a fresh page and waits for its kernel.
    async function open(name) {
      const page = await harness.context.newPage();
      page.setDefaultTimeout(30_000);
      page.__errors = [];
      page.on('pageerror', (err) => page.__errors.push(String(err)));
      await page.goto(harness.url(name), { waitUntil: 'load' });
      const d = kind === 'classic' ? new ClassicDriver(page) : new LabDriver(page, kind);
      await d.waitReady(90_000).catch((err) => {
        throw new Error(`${name} never connected to a kernel in ${kind}: ${err.message}\nserver log:\n${harness.serverLogTail()}`);
      });
      assert.equal(await d.kernelName(), 'gocl', 'the notebook runs on the gocl kernel from the temporary kernelspec');
      return { page, d };
    }

    // close shuts the page's kernel down (the REST API, as the server's
    // running tab does) and closes the page.
    async function close(page) {
      await harness.shutdownKernels();
      await page.close();
    }

    for (const file of notebooks) {
      const name = path.basename(file);
      test(`${name}: run all, every output, no errors`, { timeout: RUN_ALL_TIMEOUT + 60_000 }, async () => {
        const { page, d } = await open(name);
        const shot = path.join(HERE, 'out', `${kind}-${path.basename(name, '.ipynb')}.png`);
        let passed = false;
        try {
          log(`  ${name}: Run All`);
          await d.runAll();
          const states = await waitForAllCells(d, RUN_ALL_TIMEOUT);
          const before = fs.statSync(harness.savedPath(name)).mtimeMs;
          await d.save();
          await waitUntil(() => fs.statSync(harness.savedPath(name)).mtimeMs > before, 10_000, 'the notebook file to be saved');
          await screenshot(page, kind, shot);

          const ran = states.filter((s) => !s.empty);
          assert.ok(ran.length > 0, 'the notebook has code cells');
          for (const s of ran) {
            const where = `cell ${s.index} [${s.prompt}] ${JSON.stringify(s.source)}`;
            assert.equal(s.jsErrors, 0, `${where}: an output failed to render in the browser`);
            if (s.tags.includes('raises-exception')) {
              assert.ok(s.errors.length > 0 && s.domErrors > 0, `${where} is tagged raises-exception but shows no error`);
            } else {
              assert.deepEqual(s.errors, [], `${where} shows an error`);
              assert.equal(s.domErrors, 0, `${where} shows an error on the page`);
            }
          }
          assert.deepEqual(ran.map((s) => s.prompt), ran.map((_, i) => i + 1), 'cells ran in order, each once, starting at 1');
          const saved = JSON.parse(fs.readFileSync(harness.savedPath(name), 'utf8'));
          assert.deepEqual(saved.cells.filter((c) => c.cell_type === 'code' && [].concat(c.source).join('').trim() !== '').map((c) => c.execution_count),
            ran.map((s) => s.prompt), 'the saved notebook holds the execution counts shown on the page');

          const want = expected(file);
          const got = await d.outputs();
          log(`  ${name}: ${got.cards.length} event cards, ${got.timelines.length} timelines, ${got.plots.length} other plots`);
          if (want.cards) assert.ok(got.cards.length > 0, 'an event card is on the page');
          if (want.timelines) assert.ok(got.timelines.length > 0, 'a timeline is on the page');
          if (want.plots && got.plots.length === 0) {
            // Notebook 08 draws a rate only from copies long enough to time;
            // a small run on a busy machine (CI's PoCL) may have none, and the
            // notebook then says so in place of the plot. That sentence must
            // be on the page, or the plot is missing.
            const text = (await page.locator('.jp-OutputArea-output, .output_subarea').allInnerTexts()).join('\n');
            assert.ok(/no rate to plot/.test(text), 'a plot is on the page (or an output says why there is none)');
            log(`  ${name}: no plot; the notebook says no copy was long enough to time`);
          }
          for (const c of got.cards) assert.ok(c.w > 100 && c.h > 40, `an event card is drawn with a visible size (${c.w}x${c.h}): ${c.text}`);
          for (const t of [...got.timelines, ...got.plots]) {
            assert.ok(t.loaded && t.w > 50 && t.h > 20, `a plot is drawn with a visible size (${JSON.stringify(t)})`);
          }
          for (const t of got.timelines) assert.ok(t.w > 200 && t.h > 50, `a timeline is drawn with a visible size (${t.w}x${t.h})`);

          if (name === widgetNotebook && kind !== 'classic') await exploreWidgets(d, log);
          passed = true;
          if (kind === 'lab' && name.startsWith('01-')) shots.push(shot);
        } finally {
          if (!passed) {
            await screenshot(page, kind, shot).catch((err) => log(`no failure screenshot: ${err.message}`));
            if (page.__errors.length) log(`errors in the page:\n${page.__errors.join('\n')}`);
            log(`server log (end):\n${harness.serverLogTail(20)}`);
          }
          await close(page);
        }
      });
    }

    test('interrupt, Tab completion, Shift-Tab tooltip, stdin and restart from the page', { timeout: 150_000 }, async () => {
      const { page, d } = await open(path.basename(scratch));
      const c = scratchCells;
      let passed = false;
      try {
        await d.runCell(c.setX);
        await waitUntil(async () => { const s = (await d.cells()).find((x) => x.index === c.setX); return s.prompt === 1 && s.finished && await d.idle(); }, 30_000, 'x := 41 to run');

        const widgets = kind !== 'classic';
        if (widgets) {
          await d.runCell(c.widget);
          await waitUntil(async () => { const s = (await d.cells()).find((x) => x.index === c.widget); return s.finished && await d.idle(); }, 30_000, 'the slider cell to run');
        }

        log('  running for {} and interrupting it from the toolbar');
        await d.runCell(c.spin);
        await sleep(1500);
        assert.equal((await d.cells()).find((s) => s.index === c.spin).running, true, 'for {} is still running after 1.5 s');
        await d.interrupt();
        const spun = await waitUntil(async () => {
          const s = (await d.cells()).find((x) => x.index === c.spin);
          return typeof s.prompt === 'number' && s.finished && await d.idle() && s;
        }, 20_000, 'the interrupted cell to finish');
        assert.ok(spun.errors.length > 0, `the interrupted cell shows an error (it shows: ${JSON.stringify(spun.text)})`);
        await d.runCell(c.useX);
        const used = await waitUntil(async () => {
          const s = (await d.cells()).find((x) => x.index === c.useX);
          return typeof s.prompt === 'number' && s.finished && await d.idle() && s;
        }, 20_000, 'x + 1 to run');
        assert.deepEqual(used.errors, [], 'x + 1 after the interrupt runs without error');
        assert.match(used.text, /\b42\b/, 'x survived the interrupt');
        if (widgets) {
          log('  moving the slider registered before the interrupt');
          await moveSlider(d, c.widget);
          const shown = await waitUntil(async () => {
            const s = (await d.cells()).find((x) => x.index === c.widget);
            const text = await page.evaluate((i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node
              .querySelector('.jp-OutputArea')?.textContent || '', c.widget);
            return /twice \d+ = \d+/.test(text) && await d.idle() && { text, s };
          }, 30_000, 'the Output of the slider\'s OnChange to change after the interrupt');
          const [, n, twice] = shown.text.match(/twice (\d+) = (\d+)/);
          assert.equal(Number(twice), 2 * Number(n), `the callback's func value made before the interrupt computes (it shows ${JSON.stringify(shown.text)})`);
        }

        log('  Tab completion after non-ASCII text');
        const before = await d.source(c.complete);
        const labels = await d.complete(c.complete, async () => {
          if (kind === 'lab') await page.screenshot({ path: path.join(HERE, 'out', 'lab-completion.png'), clip: { x: 0, y: 0, width: 1280, height: 560 } });
        });
        assert.ok(labels.includes('ToUpper'), `the completion popup lists ToUpper (it lists ${JSON.stringify(labels)})`);
        const after = await d.source(c.complete);
        const prefix = before.slice(0, before.lastIndexOf('.') + 1);
        assert.ok(after.startsWith(prefix) && labels.includes(after.slice(prefix.length)),
          `completing ${JSON.stringify(before)} replaced exactly the word before the cursor; the cell reads ${JSON.stringify(after)}`);

        log('  Shift-Tab tooltip');
        const tip = await d.tooltip(c.complete, '(');
        assert.match(tip, /upper case/i, `the tooltip shows strings.ToUpper's documentation (it shows ${JSON.stringify(tip.slice(0, 200))})`);

        if (kind === 'lab') {
          log('  Help → Show Contextual Help');
          const help = await d.contextualHelp(c.complete);
          assert.match(help, /upper case/i, `the contextual help shows strings.ToUpper's documentation (it shows ${JSON.stringify(help.slice(0, 200))})`);
        }

        log('  stdin box');
        await d.runCell(c.stdin);
        await waitUntil(() => d.answerInput('Gopher'), 20_000, 'the stdin box');
        const read = await waitUntil(async () => {
          const s = (await d.cells()).find((x) => x.index === c.stdin);
          return typeof s.prompt === 'number' && s.finished && await d.idle() && s;
        }, 20_000, 'the stdin cell to finish');
        assert.match(read.text, /hello, Gopher/, 'the cell read the answer typed into the stdin box');

        log('  restart from the toolbar');
        await d.restart();
        await waitUntil(() => d.idle(), 30_000, 'the restarted kernel to be idle');
        await d.runCell(c.useX);
        const fresh = await waitUntil(async () => {
          const s = (await d.cells()).find((x) => x.index === c.useX);
          return typeof s.prompt === 'number' && s.finished && await d.idle() && s;
        }, 20_000, 'x + 1 to run after the restart');
        assert.equal(fresh.prompt, 1, 'the restarted kernel counts executions from 1');
        assert.ok(fresh.errors.some((e) => /undefined: x/.test(e)), `after the restart x is gone (errors: ${JSON.stringify(fresh.errors)})`);
        passed = true;
      } finally {
        if (!passed) {
          await screenshot(page, kind, path.join(HERE, 'out', `${kind}-scratch.png`)).catch(() => {});
          if (page.__errors.length) log(`errors in the page:\n${page.__errors.join('\n')}`);
          log(`server log (end):\n${harness.serverLogTail(20)}`);
        }
        await close(page);
      }
    });
  });
}

// moveSlider drags the first slider handle in cell i towards the middle
// of its track.
async function moveSlider(d, i) {
  const page = d.page;
  const cell = page.locator(`${await d.panel()} .jp-Notebook .jp-Cell`).nth(i);
  const handle = cell.locator('.widget-slider .noUi-handle').first();
  await handle.waitFor({ state: 'visible', timeout: 30_000 });
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  const track = await cell.locator('.widget-slider .noUi-target').first().boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * 0.6, y, { steps: 8 });
  await page.mouse.up();
}

after(() => {
  const dest = process.env.GOCL_SCREENSHOTS;
  if (!dest) return;
  const extra = path.join(HERE, 'out', 'lab-completion.png');
  for (const shot of [...shots, ...(fs.existsSync(extra) ? [extra] : [])]) {
    const to = path.join(fromRoot(dest), `jupyterlab-${path.basename(shot).replace(/^lab-/, '')}`);
    fs.copyFileSync(shot, to);
    log(`screenshot copied to ${to}`);
  }
});
