// classicdriver.mjs drives a notebook in the classic Jupyter Notebook 6.4
// the way a user does: menus, toolbar buttons and keys. What the page knows
// is read from the front end's own window.Jupyter.notebook. The methods
// match labdriver.mjs, so one test drives both.

import { setTimeout as sleep } from 'node:timers/promises';

// ClassicDriver works on one page showing one notebook.
export class ClassicDriver {
  constructor(page) {
    this.page = page;
    this.kind = 'classic';
  }

  // waitReady waits until the notebook is loaded and its kernel connected
  // and idle, and starts recording when each cell's iopub traffic ends.
  async waitReady(ms) {
    await this.page.waitForFunction(
      () => window.Jupyter?.notebook?._fully_loaded && window.Jupyter.notebook.kernel?.is_connected?.() &&
        document.querySelector('#kernel_indicator_icon.kernel_idle_icon') !== null,
      null, { timeout: ms, polling: 250 },
    );
    await this.page.evaluate(() => {
      // finished_execute fires when the cell's iopub traffic ends (status
      // idle), which can come after its execute_reply; a new run clears it.
      window.__goclFinished = new Set();
      window.Jupyter.notebook.events.on('execute.CodeCell', (_e, d) => window.__goclFinished.delete(d.cell.cell_id));
      window.Jupyter.notebook.events.on('finished_execute.CodeCell', (_e, d) => window.__goclFinished.add(d.cell.cell_id));
    });
  }

  kernelName() {
    return this.page.evaluate(() => window.Jupyter.notebook.kernel.name);
  }

  idle() {
    return this.page.evaluate(() => document.querySelector('#kernel_indicator_icon')?.classList.contains('kernel_idle_icon') ?? false);
  }

  async runAll() {
    await this.page.click('#celllink');
    await this.page.click('#run_all_cells');
  }

  async save() {
    await this.page.click('#filelink');
    await this.page.click('#save_checkpoint');
    await this.page.waitForFunction(() => !window.Jupyter.notebook.dirty, null, { timeout: 30_000 });
  }

  cells() {
    return this.page.evaluate(() => {
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
        text: c.output_area.outputs.map((o) => [].concat(o.text || (o.data && o.data['text/plain']) || '').join('')).join(''),
        source: c.get_text().slice(0, 80),
      }));
    });
  }

  async answerInput(text) {
    const box = this.page.locator('input.raw_input:not([data-gocl-answered])');
    if (await box.count() > 0 && await box.first().isVisible()) {
      // Mark the box once answered (a locator of the mark would lose it).
      const el = await box.first().elementHandle();
      await el.fill(text);
      await el.press('Enter');
      await el.evaluate((e) => { e.dataset.goclAnswered = '1'; });
      return true;
    }
    return false;
  }

  interrupt() {
    return this.page.click('button[data-jupyter-action="jupyter-notebook:interrupt-kernel"]');
  }

  async restart() {
    await this.page.click('button[data-jupyter-action="jupyter-notebook:confirm-restart-kernel"]');
    await this.page.locator('.modal-dialog .modal-footer button.btn-danger').click();
    await this.page.locator('.modal-dialog').waitFor({ state: 'detached' });
    await this.page.waitForFunction(() => document.querySelector('#kernel_indicator_icon.kernel_idle_icon') !== null,
      null, { timeout: 30_000 });
  }

  async editCell(i) {
    await this.page.locator('#notebook-container .cell').nth(i).locator('.CodeMirror-lines').click();
    await this.page.keyboard.press('Control+End');
  }

  async runCell(i) {
    await this.editCell(i);
    await this.page.keyboard.press('Shift+Enter');
  }

  source(i) {
    return this.page.evaluate((n) => window.Jupyter.notebook.get_cell(n).get_text(), i);
  }

  async complete(i, onPopup = async () => {}) {
    await this.editCell(i);
    await this.page.keyboard.press('Tab');
    const items = this.page.locator('#complete select option');
    await items.first().waitFor({ state: 'attached', timeout: 15_000 });
    const labels = (await items.allTextContents()).map((t) => t.trim());
    await onPopup();
    await this.page.keyboard.press('Enter');
    await sleep(300);
    return labels;
  }

  async tooltip(i, text) {
    await this.editCell(i);
    await this.page.keyboard.type(text);
    await this.page.keyboard.press('Shift+Tab');
    const tip = this.page.locator('#tooltip .tooltiptext');
    await this.page.locator('#tooltip').waitFor({ state: 'visible', timeout: 15_000 });
    await this.page.waitForFunction(() => (document.querySelector('#tooltip .tooltiptext')?.textContent || '').trim() !== '',
      null, { timeout: 15_000 });
    const t = await tip.textContent();
    await this.page.keyboard.press('Escape');
    return t;
  }

  outputs() {
    return this.page.evaluate(() => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { w: Math.round(r.width), h: Math.round(r.height) };
      };
      const root = document.querySelector('#notebook-container');
      const cards = [...root.querySelectorAll('.gocl-event-card')].map((el) => ({ ...box(el), text: el.textContent.replace(/\s+/g, ' ').slice(0, 160) }));
      const timelines = [];
      const plots = [];
      for (const el of root.querySelectorAll('.output_area svg, .output_area img')) {
        const isTimeline = el.tagName === 'IMG' ? decodeURIComponent(el.src).includes('gocl-timeline') : el.classList.contains('gocl-timeline');
        const b = { ...box(el), loaded: el.tagName !== 'IMG' || (el.complete && el.naturalWidth > 0) };
        (isTimeline ? timelines : plots).push(b);
      }
      return { cards, timelines, plots };
    });
  }
}
