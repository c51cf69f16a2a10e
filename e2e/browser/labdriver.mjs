// labdriver.mjs drives a notebook in JupyterLab 4 and in Notebook 7 (which
// is built from JupyterLab's components) the way a user does: menus,
// toolbar buttons and keys. What the page knows (cells, their outputs,
// the kernel's state) is read from the application the server exposes as
// window.jupyterapp (--LabApp.expose_app_in_browser).

import { setTimeout as sleep } from 'node:timers/promises';

// LabDriver works on one page showing one notebook.
export class LabDriver {
  constructor(page, kind) {
    this.page = page;
    this.kind = kind; // 'lab' or 'nb7'
  }

  // waitReady waits until the notebook is open, its kernel is connected and
  // idle, and starts recording iopub traffic (see quiet).
  async waitReady(ms) {
    await this.page.waitForFunction(() => {
      const p = window.jupyterapp?.shell?.currentWidget;
      const sc = p?.sessionContext;
      return p?.content?.widgets?.length > 0 && p.context?.isReady && sc?.session?.kernel &&
        sc.kernelDisplayStatus === 'idle';
    }, null, { timeout: ms, polling: 250 });
    await this.page.evaluate(() => {
      const p = window.jupyterapp.shell.currentWidget;
      window.__goclLastIopub = Date.now();
      p.sessionContext.iopubMessage.connect(() => { window.__goclLastIopub = Date.now(); });
    });
  }

  kernelName() {
    return this.page.evaluate(() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.name);
  }

  // idle reports whether the kernel is idle and iopub has been quiet for
  // quietMs (the last outputs of a cell can follow its execute_reply).
  idle(quietMs = 600) {
    return this.page.evaluate((q) => {
      const sc = window.jupyterapp.shell.currentWidget.sessionContext;
      return sc.kernelDisplayStatus === 'idle' && Date.now() - window.__goclLastIopub > q;
    }, quietMs);
  }

  // menu clicks a main-menu entry, then one of its items, by their labels.
  async menu(label, item) {
    await this.page.locator('.lm-MenuBar-item', { hasText: new RegExp(`^${label}$`) }).first().click();
    await this.page.locator('.lm-Menu-item .lm-Menu-itemLabel', { hasText: new RegExp(`^${item}$`) }).first().click();
  }

  runAll() {
    return this.menu('Run', 'Run All Cells');
  }

  // save presses the toolbar's save button.
  async save() {
    await this.toolbar('docmanager:save');
    await this.page.waitForFunction(() => !window.jupyterapp.shell.currentWidget.context.model.dirty, null, { timeout: 30_000 });
  }

  // panel is a CSS selector for the notebook on show.
  async panel() {
    this.panelSel ||= '#' + await this.page.evaluate(() => window.jupyterapp.shell.currentWidget.id);
    return this.panelSel;
  }

  // cells describes every code cell: source, execution count, tags,
  // whether it is running, its outputs' errors and texts.
  cells() {
    return this.page.evaluate(() => {
      const nb = window.jupyterapp.shell.currentWidget.content;
      return nb.widgets.map((c, index) => ({ index, c })).filter(({ c }) => c.model.type === 'code').map(({ index, c }) => {
        const outputs = c.model.outputs.toJSON();
        const prompt = c.node.querySelector('.jp-InputPrompt')?.textContent || '';
        return {
          index,
          empty: c.model.sharedModel.getSource().trim() === '',
          prompt: c.model.executionCount,
          running: prompt.includes('*'),
          // JupyterLab sets the execution count once the reply and the
          // idle status have both come (the future is done).
          finished: typeof c.model.executionCount === 'number',
          tags: c.model.getMetadata('tags') || [],
          errors: outputs.filter((o) => o.output_type === 'error').map((o) => `${o.ename}: ${o.evalue}`),
          domErrors: outputs.filter((o) => o.output_type === 'error').length ? 1 : 0,
          jsErrors: c.node.querySelectorAll('.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"] .jp-mod-error, .jp-OutputArea-output.jp-mod-error').length,
          text: outputs.map((o) => [].concat(o.text || (o.data && o.data['text/plain']) || '').join('')).join(''),
          source: c.model.sharedModel.getSource().slice(0, 80),
        };
      });
    });
  }

  // answerInput types into a stdin box if one is showing.
  async answerInput(text) {
    const box = this.page.locator('input.jp-Stdin-input:not([data-gocl-answered])');
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

  async toolbar(command) {
    return this.page.locator(`${await this.panel()} .jp-NotebookPanel-toolbar [data-command="${command}"]`).first().click();
  }

  interrupt() {
    return this.toolbar('notebook:interrupt-kernel');
  }

  // restart presses the toolbar's restart button and accepts the dialog.
  async restart() {
    await this.toolbar('notebook:restart-kernel');
    await this.page.locator('.jp-Dialog .jp-Dialog-button.jp-mod-accept').click();
    await this.page.locator('.jp-Dialog').waitFor({ state: 'detached' });
  }

  // editCell clicks into cell i's editor and puts the cursor at its end.
  async editCell(i) {
    const editor = this.page.locator(`${await this.panel()} .jp-Notebook .jp-Cell`).nth(i).locator('.cm-content');
    await editor.click();
    await this.page.keyboard.press('Control+End');
  }

  // runCell edits cell i and runs it with Shift+Enter.
  async runCell(i) {
    await this.editCell(i);
    await this.page.keyboard.press('Shift+Enter');
  }

  source(i) {
    return this.page.evaluate((n) => window.jupyterapp.shell.currentWidget.content.widgets[n].model.sharedModel.getSource(), i);
  }

  // complete presses Tab at the end of cell i, returns the labels the
  // popup lists (calling onPopup while it shows), and picks the first with Enter.
  async complete(i, onPopup = async () => {}) {
    await this.editCell(i);
    await this.page.keyboard.press('Tab');
    const items = this.page.locator('.jp-Completer .jp-Completer-item');
    await items.first().waitFor({ state: 'visible', timeout: 15_000 });
    const labels = (await this.page.locator('.jp-Completer .jp-Completer-item .jp-Completer-match').allTextContents()).map((t) => t.trim());
    await onPopup();
    await this.page.keyboard.press('Enter');
    await sleep(300);
    return labels;
  }

  // tooltip types text at the end of cell i, presses Shift+Tab and returns
  // the tooltip's text.
  async tooltip(i, text) {
    await this.editCell(i);
    await this.page.keyboard.type(text);
    await this.page.keyboard.press('Shift+Tab');
    const tip = this.page.locator('.jp-Tooltip');
    await tip.waitFor({ state: 'visible', timeout: 15_000 });
    // The tooltip can show before its rendered content does.
    await this.page.waitForFunction(() => (document.querySelector('.jp-Tooltip')?.textContent || '').trim() !== '',
      null, { timeout: 15_000 });
    const t = await tip.textContent();
    await this.page.keyboard.press('Escape');
    return t;
  }

  // contextualHelp opens Help → Show Contextual Help (the inspector panel,
  // which asks the kernel about the code at the cursor as it moves) and
  // returns its text for the end of cell i once it shows something other
  // than its placeholder.
  async contextualHelp(i) {
    await this.menu('Help', 'Show Contextual Help');
    // It follows the cursor: back into cell i, and move.
    await this.editCell(i);
    await this.page.keyboard.press('ArrowLeft');
    await this.page.keyboard.press('ArrowRight');
    const content = this.page.locator('.jp-Inspector .jp-Inspector-content:not(.jp-Inspector-placeholderContent)');
    await content.first().waitFor({ state: 'visible', timeout: 15_000 });
    return content.first().textContent();
  }

  // outputs counts what the lab notebooks draw, each with its drawn size:
  // event cards (HTML), timelines (SVG; JupyterLab shows image/svg+xml as
  // an <img>) and other plots.
  outputs() {
    return this.page.evaluate(() => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { w: Math.round(r.width), h: Math.round(r.height) };
      };
      const root = window.jupyterapp.shell.currentWidget.content.node;
      const cards = [...root.querySelectorAll('.gocl-event-card')].map((el) => ({ ...box(el), text: el.textContent.replace(/\s+/g, ' ').slice(0, 160) }));
      const timelines = [];
      const plots = [];
      for (const el of root.querySelectorAll('.jp-OutputArea-output svg, .jp-OutputArea-output img')) {
        const isTimeline = el.tagName === 'img' || el.tagName === 'IMG' ? decodeURIComponent(el.src).includes('gocl-timeline') : el.classList.contains('gocl-timeline');
        const b = { ...box(el), loaded: el.tagName !== 'IMG' || (el.complete && el.naturalWidth > 0) };
        (isTimeline ? timelines : plots).push(b);
      }
      return { cards, timelines, plots };
    });
  }
}
