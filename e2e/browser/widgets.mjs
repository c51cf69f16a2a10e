// widgets.mjs is the browser step for notebook 07 (live widgets): it moves
// the size slider and changes the host-memory dropdown, as a user would,
// and checks that the event card's numbers change each time. The test runs
// it only when notebooks/07-explore-transfers.ipynb exists, and only in the
// front ends that have ipywidgets 8 (JupyterLab 4 and Notebook 7 from the
// venv; Debian's classic Notebook has no widget front end).

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

export const widgetNotebook = '07-explore-transfers.ipynb';

// cardNumbers returns the numbers written on the page's event cards.
function cardNumbers(page) {
  return page.evaluate(() => [...document.querySelectorAll('.gocl-event-card')]
    .map((e) => (e.textContent.match(/\d+(\.\d+)?/g) || []).join(' ')).join(' | '));
}

async function waitChange(d, from, what) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await cardNumbers(d.page);
    if (now !== from && now !== '' && await d.idle()) return now;
    if (Date.now() > deadline) assert.fail(`the event card's numbers did not change after ${what} (still ${JSON.stringify(from.slice(0, 200))})`);
    await sleep(300);
  }
}

// exploreWidgets drives notebook 07's controls after Run All.
export async function exploreWidgets(d, log) {
  const page = d.page;
  const handle = page.locator('.widget-slider .noUi-handle').first();
  await handle.waitFor({ state: 'visible', timeout: 30_000 });
  const start = await cardNumbers(page);
  assert.ok(start !== '', 'notebook 07 shows an event card after Run All');

  log('  notebook 07: dragging the size slider');
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  const track = await page.locator('.widget-slider .noUi-target').first().boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // Towards the middle of the track, from wherever the handle starts.
  const to = Math.abs(x - (track.x + track.width * 0.5)) > 30 ? track.x + track.width * 0.5 : track.x + track.width * 0.8;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(to, y, { steps: 8 });
  await page.mouse.up();
  const moved = await waitChange(d, start, 'dragging the slider');

  log('  notebook 07: changing the host-memory dropdown');
  const select = page.locator('.widget-dropdown select').first();
  await select.waitFor({ state: 'visible', timeout: 10_000 });
  const current = await select.inputValue();
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
  const other = values.find((v) => v !== current);
  assert.ok(other !== undefined, `the dropdown offers more than one choice (${JSON.stringify(values)})`);
  await select.selectOption(other);
  await waitChange(d, moved, `choosing ${other} in the dropdown`);
}
