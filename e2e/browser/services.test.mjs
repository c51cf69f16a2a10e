// services.test.mjs drives gocl through jupyter_server (from gocl's venv)
// with @jupyterlab/services, the library JupyterLab itself talks to kernels
// with, in Node: once over the v1.kernel.websocket.jupyter.org websocket
// subprotocol (binary frames, what JupyterLab 4 picks) and once over the
// legacy JSON one (what older servers and clients speak). Each run checks
// kernel_info, execute with rich output, complete and inspect with
// non-ASCII text before the cursor (offsets in code points, as protocol 5.2
// says), is_complete, comm_info, a comm to an unknown target (the kernel
// closes it), interrupt and restart. When notebooks/07-explore-transfers.ipynb
// exists (the widgets work is merged) it also opens, messages and closes
// widget comms.
//
// Run it with e2e/browser/run.sh, or `node --test services.test.mjs` here
// with GOCL_BIN and GOCL_VENV set.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { KernelManager, KernelMessage, ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import { Harness, jupyterFor } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const withWidgets = fs.existsSync(path.join(ROOT, 'notebooks', '07-explore-transfers.ipynb'));
const V1 = KernelMessage.supportedKernelWebSocketProtocols.v1KernelWebsocketJupyterOrg;

// socketsFor returns a WebSocket class that records the subprotocol the
// server chose for each socket; legacy offers none, so the server falls
// back to the JSON protocol.
function socketsFor(legacy, chosen) {
  return class extends WebSocket {
    constructor(url, protocols) {
      super(url, legacy ? [] : protocols);
      this.on('open', () => chosen.push(this.protocol));
    }
  };
}

// run sends one request and collects its iopub messages until it is done.
async function run(kernel, code, opts = {}) {
  const future = kernel.requestExecute({ code, stop_on_error: false, ...opts });
  const iopub = [];
  future.onIOPub = (msg) => { iopub.push(msg); };
  const reply = await future.done;
  return { reply: reply.content, iopub };
}

const text = (iopub) => iopub.map((m) => {
  const c = m.content;
  return c.text || (c.data && c.data['text/plain']) || '';
}).join('');

for (const legacy of [false, true]) {
  describe(`@jupyterlab/services over the ${legacy ? 'legacy JSON' : V1} websocket protocol`, () => {
    const chosen = [];
    const harness = new Harness({
      goclBin: process.env.GOCL_BIN ? path.resolve(process.env.GOCL_BIN) : path.join(ROOT, 'bin', 'gocl'),
      notebooks: [],
      frontend: 'server',
      jupyter: jupyterFor('server'),
      browser: false,
      env: {},
      log: (...a) => console.log(...a),
    });
    process.on('exit', () => harness.stopNow());
    let manager;
    let kernel;

    before(async () => {
      await harness.start();
      const serverSettings = ServerConnection.makeSettings({
        baseUrl: `http://127.0.0.1:${harness.port}/`,
        wsUrl: `ws://127.0.0.1:${harness.port}/`,
        token: harness.token,
        appendToken: true,
        WebSocket: socketsFor(legacy, chosen),
      });
      manager = new KernelManager({ serverSettings });
      await manager.ready;
      kernel = await manager.startNew({ name: 'gocl' });
      await kernel.info;
    }, { timeout: 90_000 });

    after(async () => {
      if (kernel) await kernel.shutdown().catch(() => {});
      manager?.dispose();
      await harness.stop();
    }, { timeout: 40_000 });

    test('the server chose the subprotocol asked for', () => {
      assert.ok(chosen.length > 0, 'a websocket was opened');
      assert.equal(chosen[0], legacy ? '' : V1);
    });

    test('kernel_info', async () => {
      const info = (await kernel.requestKernelInfo()).content;
      assert.equal(info.status, 'ok');
      assert.equal(info.implementation, 'gocl');
      assert.equal(info.language_info.name, 'go');
      assert.match(info.protocol_version, /^5\.\d+$/);
    });

    test('execute with rich output, and an error at its line', async () => {
      const { reply, iopub } = await run(kernel, 'x := 41\ndisplay.HTML("<b>rich</b>")\nfmt.Println("héllo🙂")\nx + 1');
      assert.equal(reply.status, 'ok');
      const html = iopub.find((m) => m.header.msg_type === 'display_data' && m.content.data['text/html']);
      assert.ok(html, 'a display_data with text/html');
      assert.match(html.content.data['text/html'], /<b>rich<\/b>/);
      const stream = iopub.find((m) => m.header.msg_type === 'stream');
      assert.equal(stream?.content.text, 'héllo🙂\n', 'non-ASCII output arrives intact');
      const result = iopub.find((m) => m.header.msg_type === 'execute_result');
      assert.equal(result?.content.data['text/plain'], '42');
      assert.equal(result.content.execution_count, reply.execution_count);
      const bad = await run(kernel, '// a typo on line 2\nfmt.Println(undefinedName)');
      assert.equal(bad.reply.status, 'error');
      const err = bad.iopub.find((m) => m.header.msg_type === 'error');
      assert.match(err?.content.evalue || '', /undefined: undefinedName/);
      assert.ok(err.content.traceback.join('\n').includes('line 2'), `the error points at line 2: ${err.content.traceback}`);
    });

    test('complete after non-ASCII text counts code points', async () => {
      const code = 's := "héllo🙂"; strings.ToUp';
      const points = [...code].length; // 🙂 is one code point, two UTF-16 units
      const r = (await kernel.requestComplete({ code, cursor_pos: points })).content;
      assert.equal(r.status, 'ok');
      assert.ok(r.matches.includes('ToUpper'), `matches: ${r.matches}`);
      assert.equal(r.cursor_start, [...'s := "héllo🙂"; strings.'].length);
      assert.equal(r.cursor_end, points);
    });

    test('inspect after non-ASCII text', async () => {
      const code = 's := "🙂🙂"; strings.ToUpper(s)';
      const cursor = [...'s := "🙂🙂"; strings.ToUp'].length;
      const r = (await kernel.requestInspect({ code, cursor_pos: cursor, detail_level: 0 })).content;
      assert.equal(r.status, 'ok');
      assert.equal(r.found, true);
      assert.match(r.data['text/plain'], /ToUpper/);
      assert.match(r.data['text/plain'], /upper case/i);
    });

    test('is_complete', async () => {
      assert.equal((await kernel.requestIsComplete({ code: 'for i := 0; i < 3; i++ {' })).content.status, 'incomplete');
      assert.equal((await kernel.requestIsComplete({ code: 'z := 1' })).content.status, 'complete');
    });

    test('comm_info, and a comm to an unknown target is closed by the kernel', async () => {
      const info = (await kernel.requestCommInfo({})).content;
      assert.equal(info.status, 'ok');
      assert.equal(typeof info.comms, 'object');
      const comm = kernel.createComm('gocl.no.such.target');
      const closed = new Promise((resolve) => { comm.onClose = resolve; });
      comm.open({});
      const msg = await Promise.race([closed, sleep(10_000).then(() => null)]);
      assert.ok(msg, 'the kernel answered a comm_open to an unknown target with comm_close');
      const again = await run(kernel, 'x');
      assert.equal(again.reply.status, 'ok', 'the kernel keeps serving');
    });

    test('widget comms: open, message, close', { skip: !withWidgets && 'notebooks/07-explore-transfers.ipynb is absent (no widgets yet)' }, async () => {
      const opened = [];
      kernel.registerCommTarget('jupyter.widget', (comm, msg) => { opened.push({ comm, msg }); });
      const shown = await run(kernel, 'sl := widgets.NewIntSlider("n", 0, 10, 3)\nwidgets.Show(sl)');
      assert.equal(shown.reply.status, 'ok', JSON.stringify(shown.reply));
      assert.ok(shown.iopub.some((m) => m.content.data && m.content.data['application/vnd.jupyter.widget-view+json']),
        'the slider is displayed as a widget view');
      const slider = opened.find((o) => o.msg.content.data.state?._model_name === 'IntSliderModel');
      assert.ok(slider, `the kernel opened the slider's comm (opened: ${opened.map((o) => o.msg.content.data.state?._model_name)})`);
      assert.equal(slider.msg.content.data.state.value, 3);
      // The user drags the slider to 7: the front end sends an update.
      slider.comm.send({ method: 'update', state: { value: 7 }, buffer_paths: [] });
      await sleep(500);
      const ctl = kernel.createComm('jupyter.widget.control');
      const answer = new Promise((resolve) => { ctl.onMsg = resolve; });
      ctl.open({});
      ctl.send({ method: 'request_states' });
      const states = (await Promise.race([answer, sleep(10_000).then(() => null)]))?.content.data;
      assert.equal(states?.method, 'update_states');
      assert.equal(states.states[slider.comm.commId]?.state.value, 7, 'the kernel holds the value the front end set');
      ctl.close();
      slider.comm.close();
      assert.equal((await run(kernel, '1 + 1')).reply.status, 'ok', 'the kernel keeps serving after the comms closed');
    });

    test('interrupt: for {} stops and variables survive', async () => {
      const future = kernel.requestExecute({ code: 'for {\n}' });
      await sleep(1000);
      await kernel.interrupt();
      const reply = await Promise.race([future.done.then((r) => r.content), sleep(20_000).then(() => null)]);
      assert.ok(reply, 'the interrupted cell answered within 20 s');
      assert.equal(reply.status, 'error');
      const after = await run(kernel, 'x + 1');
      assert.equal(after.reply.status, 'ok');
      assert.equal(text(after.iopub), '42');
    });

    test('restart: a fresh interpreter', async () => {
      await kernel.restart();
      await kernel.info;
      const r = await run(kernel, 'x');
      assert.equal(r.reply.status, 'error');
      assert.ok(r.iopub.some((m) => m.header.msg_type === 'error' && /undefined: x/.test(m.content.evalue)), 'x is gone after the restart');
      assert.equal(r.reply.execution_count, 1);
    });
  });
}
