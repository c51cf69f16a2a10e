// debugger.test.mjs is the real-browser test of JupyterLab's debugger on Go
// cells (issue 20): in JupyterLab 4 (gocl's venv) in headless Chromium it
// switches the debugger on from the notebook toolbar's bug icon, opens the
// debugger sidebar, clicks the gutter of line 3 of a cell, runs the cell and
// checks that it stops there (the cell's line highlighted, the call stack
// naming the cell), that the variables panel shows the value of a variable
// the cell set before the stop, then steps over one line (the highlight
// moves, the panel shows the new variable), continues, and reads the cell's
// output. Then it picks the "panics" filter in the breakpoints panel's
// pause-on-exceptions menu, runs a cell whose line 3 panics, and checks it
// stops at that line with the variables there in the panel, and that
// continue ends the cell with the panic's error.
//
// Run it with e2e/browser/run.sh, or `node --test debugger.test.mjs` here
// with GOCL_BIN and GOCL_VENV set. GOCL_SCREENSHOTS: a folder (docs/) a
// passing run copies the screenshot of the stopped cell into
// (jupyterlab-debugger.png); every run writes out/lab-debugger.png.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Harness, jupyterFor } from './harness.mjs';
import { LabDriver } from './labdriver.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const log = (...a) => console.log(...a);

// The cell the test debugs: line 3 has the breakpoint; b is set before the
// stop, c by the line the test steps over.
const cell = 'a := 40\nb := a + 2\nc := b * 10\nfmt.Println(a, b, c)';
const panicCell = 'xs := []int{1, 2, 3}\ni := len(xs) + 1\nfmt.Println(xs[i])';

function writeNotebook(dir) {
  const nb = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'gocl', display_name: 'Go (gocl)', language: 'go' },
      language_info: { name: 'go' },
    },
    cells: [cell, panicCell].map((src, i) => ({
      cell_type: 'code', id: `debug-${i}`, metadata: {}, execution_count: null, outputs: [], source: src,
    })),
  };
  const file = path.join(dir, 'debugger.ipynb');
  fs.writeFileSync(file, JSON.stringify(nb, null, 1));
  return file;
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

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gocl-debugger-'));
const notebook = writeNotebook(dir);
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

describe('JupyterLab 4 debugger on Go cells in headless Chromium', () => {
  const harness = new Harness({
    goclBin: process.env.GOCL_BIN ? path.resolve(process.env.GOCL_BIN) : path.join(ROOT, 'bin/gocl'),
    notebooks: [notebook],
    frontend: 'lab',
    jupyter: jupyterFor('lab'),
    chromium: process.env.GOCL_CHROMIUM || '/usr/bin/chromium',
    keep: process.env.GOCL_E2E_KEEP === '1',
    log,
  });
  process.on('exit', () => harness.stopNow());
  before(async () => { await harness.start(); }, { timeout: 90_000 });
  after(async () => { await harness.stop(); }, { timeout: 40_000 });

  test('breakpoint in a cell\'s gutter, stop, variables panel, next, continue, output; stop on a panic', { timeout: 180_000 }, async () => {
    const page = await harness.context.newPage();
    page.setDefaultTimeout(30_000);
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    const shot = path.join(HERE, 'out', 'lab-debugger.png');
    let passed = false;
    try {
      await page.goto(harness.url(path.basename(notebook)), { waitUntil: 'load' });
      const d = new LabDriver(page, 'lab');
      await d.waitReady(90_000);
      assert.equal(await d.kernelName(), 'gocl');
      const panel = await d.panel();
      const dbg = new DebugPanel(page, panel);

      log('  switching the debugger on (the notebook toolbar\'s bug icon)');
      await dbg.switchOn();
      await dbg.openSidebar();

      log('  clicking the gutter of line 3 of cell 0');
      await dbg.clickGutter(0, 3);
      const bps = await waitUntil(() => dbg.breakpointLines(0), 20_000, 'the breakpoint to show in the cell\'s gutter');
      assert.deepEqual(bps, [3], 'one breakpoint, on line 3');
      await page.locator('.jp-DebuggerBreakpoints .jp-DebuggerBreakpoint').first().waitFor({ state: 'visible', timeout: 20_000 });

      log('  running the cell');
      await d.editCell(0);
      await page.keyboard.press('Control+Enter');
      const stopped = await waitUntil(async () => { const h = await dbg.highlighted(0); return h.length && h; }, 30_000, 'the cell to stop: a highlighted line');
      assert.deepEqual(stopped, [3], 'the cell stops at line 3, the breakpoint');
      const frames = await waitUntil(async () => { const f = await dbg.frames(); return f.length && f; }, 30_000, 'the call stack');
      assert.match(frames[0].name, /^cell\d+$/, `the top frame is the cell's top level (the call stack shows ${JSON.stringify(frames)})`);
      assert.match(frames[0].location, /\.go:3$/, `the top frame is at line 3 of the cell's source file (the call stack shows ${JSON.stringify(frames)})`);
      assert.equal((await d.cells())[0].finished, false, 'the cell has not finished while stopped');

      const vars = await waitUntil(async () => { const v = await dbg.variables(); return v.b && v; }, 30_000, 'b in the variables panel');
      log(`  variables panel: ${JSON.stringify(vars)}`);
      assert.equal(vars.b, '42', 'the variables panel shows b = 42 (set by line 2, before the stop)');
      assert.equal(vars.a, '40', 'the variables panel shows a = 40');
      // c is a session variable from the start (a cell's top-level names
      // are package-level variables), at its zero value until line 3 runs.
      assert.equal(vars.c, '0', 'c is 0: line 3 has not run');
      await dbg.screenshot(shot);

      log('  next (step over line 3)');
      await dbg.button('Next');
      await waitUntil(async () => (await dbg.highlighted(0))[0] === 4, 30_000, 'the highlight to move to line 4');
      const after = await waitUntil(async () => { const v = await dbg.variables(); return v.c && v.c !== '0' && v; }, 30_000, 'c to change in the variables panel');
      assert.equal(after.c, '420', 'after stepping over line 3 the panel shows c = 420');

      log('  continue');
      await dbg.button('Continue');
      const done = await waitUntil(async () => {
        const s = (await d.cells())[0];
        return s.finished && await d.idle() && s;
      }, 30_000, 'the cell to finish after continue');
      assert.deepEqual(done.errors, [], 'the cell ends without error');
      assert.equal(done.text, '40 42 420\n', 'the cell\'s output');
      assert.deepEqual(await dbg.highlighted(0), [], 'no line is highlighted once the cell ended');

      log('  pause on exceptions: the "panics" filter, then a cell that panics');
      await dbg.pauseOnPanics();
      await d.editCell(1);
      await page.keyboard.press('Control+Enter');
      const raised = await waitUntil(async () => { const h = await dbg.highlighted(1); return h.length && h; }, 30_000, 'the panicking cell to stop');
      assert.deepEqual(raised, [3], 'the cell stops at line 3, where xs[i] panics');
      const at = await waitUntil(async () => { const v = await dbg.variables(); return v.i && v; }, 30_000, 'i in the variables panel');
      assert.equal(at.i, '4', 'the variables panel shows i = 4 where the panic was raised');
      assert.equal((await d.cells())[1].finished, false, 'the cell has not ended while stopped on its panic');
      await dbg.button('Continue');
      const failed = await waitUntil(async () => {
        const s = (await d.cells())[1];
        return s.finished && await d.idle() && s;
      }, 30_000, 'the panicking cell to end after continue');
      assert.ok(failed.errors.some((e) => e.includes('index out of range [4] with length 3')),
        `after continue the cell shows the panic's error (it shows ${JSON.stringify(failed.errors)})`);
      passed = true;
    } finally {
      if (!passed) {
        await page.screenshot({ path: shot }).catch(() => {});
        if (errors.length) log(`errors in the page:\n${errors.join('\n')}`);
        log(`server log (end):\n${harness.serverLogTail(30)}`);
      }
      await harness.shutdownKernels();
      await page.close();
    }
    const dest = process.env.GOCL_SCREENSHOTS;
    if (dest) {
      const to = path.join(path.resolve(ROOT, dest), 'jupyterlab-debugger.png');
      fs.copyFileSync(shot, to);
      log(`  screenshot copied to ${to}`);
    }
  });
});

// DebugPanel drives JupyterLab's debugger UI for one notebook panel (a CSS
// selector): the toolbar's bug icon, the sidebar, the cells' breakpoint
// gutters and highlighted lines, the call stack and variables panels.
class DebugPanel {
  constructor(page, panel) {
    this.page = page;
    this.panel = panel;
  }

  // switchOn presses the toolbar's bug icon once it is enabled (the kernel
  // said it has a debugger) and waits for it to be on.
  async switchOn() {
    const bug = this.page.locator(`${this.panel} .jp-NotebookPanel-toolbar .jp-DebuggerBugButton`).first();
    await bug.waitFor({ state: 'visible', timeout: 30_000 });
    await waitUntil(async () => await bug.getAttribute('aria-disabled') !== 'true', 30_000, 'the bug icon to be enabled (the kernel offers the debugger)');
    await bug.click();
    await waitUntil(async () => await bug.getAttribute('aria-pressed') === 'true', 30_000, 'the debugger to be on');
  }

  // openSidebar shows the debugger's sidebar (the right-hand panel with
  // the variables, call stack and breakpoints) and waits for it.
  async openSidebar() {
    await this.page.evaluate(() => window.jupyterapp.commands.execute('debugger:show-panel'));
    await this.page.locator('#jp-debugger-sidebar').waitFor({ state: 'visible', timeout: 30_000 });
    await this.page.locator('#jp-debugger-sidebar .jp-DebuggerVariables').waitFor({ state: 'visible', timeout: 30_000 });
  }

  cell(i) {
    return this.page.locator(`${this.panel} .jp-Notebook .jp-Cell`).nth(i);
  }

  // clickGutter clicks the breakpoint gutter of line (from 1) of cell i;
  // the gutter's first element is CodeMirror's spacer.
  async clickGutter(i, line) {
    const gutter = this.cell(i).locator('.cm-gutters .cm-breakpoint-gutter .cm-gutterElement');
    await waitUntil(async () => await gutter.count() > line, 30_000, 'the cell\'s breakpoint gutter');
    await gutter.nth(line).click();
  }

  // breakpointLines are the lines of cell i that show a breakpoint.
  breakpointLines(i) {
    return this.cell(i).evaluate((c) => {
      const lines = [];
      const els = [...c.querySelectorAll('.cm-gutters .cm-breakpoint-gutter .cm-gutterElement')];
      // Element 0 is CodeMirror's hidden spacer, so element n is line n.
      els.forEach((el, n) => { if (n > 0 && el.querySelector('.cm-breakpoint-icon')) lines.push(n); });
      return lines.length ? lines : null;
    });
  }

  // highlighted are the lines (from 1) of cell i the debugger highlights.
  highlighted(i) {
    return this.cell(i).evaluate((c) => {
      const lines = [...c.querySelectorAll('.cm-content .cm-line')];
      return lines.map((l, n) => (l.classList.contains('jp-DebuggerEditor-highlight') ? n + 1 : 0)).filter(Boolean);
    });
  }

  // frames are the call stack panel's frames, as text.
  // (JupyterLab 4 names a frame's cell, "Cell [*]", only for ipykernel's
  // paths; others show the cell's source file, which debugInfo names.)
  frames() {
    return this.page.locator('#jp-debugger-sidebar .jp-DebuggerCallstackFrame').evaluateAll((els) => els.map((el) => ({
      name: el.querySelector('.jp-DebuggerCallstackFrame-name')?.textContent.trim(),
      location: el.querySelector('.jp-DebuggerCallstackFrame-location')?.textContent.trim(),
    })));
  }

  // variables maps each name the variables panel shows to its value.
  variables() {
    return this.page.locator('#jp-debugger-sidebar .jp-DebuggerVariables-body [role="treeitem"]').evaluateAll((items) => {
      const out = {};
      for (const it of items) {
        const name = it.querySelector('.jp-DebuggerVariables-name')?.textContent.trim();
        if (name && !(name in out)) out[name] = it.querySelector('.jp-DebuggerVariables-detail')?.textContent.trim();
      }
      return out;
    });
  }

  // pauseOnPanics picks the "panics" filter in the breakpoints panel's
  // pause-on-exceptions menu and waits for the button to show it is on.
  async pauseOnPanics() {
    const button = this.page.locator('#jp-debugger-sidebar .jp-debugger-pauseOnExceptions');
    await button.locator('button, jp-button').first().click();
    await this.page.locator('.jp-PauseOnExceptions-menu .lm-Menu-item', { hasText: 'panics' }).first().click();
    await waitUntil(async () => await button.locator('.jp-PauseOnExceptions').getAttribute('aria-pressed') === 'true', 20_000, 'the pause-on-exceptions button to be on');
  }

  // button presses one of the debugger's toolbar buttons (Continue, Next,
  // Step In, Step Out, Terminate) by its title.
  async button(title) {
    await this.page.locator(`#jp-debugger-sidebar jp-button[title^="${title}"]`).first().click();
  }

  // screenshot saves the page: the stopped cell and the sidebar.
  async screenshot(file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await sleep(500);
    await this.page.screenshot({ path: file, timeout: 30_000 });
    log(`  screenshot: ${file}`);
  }
}
