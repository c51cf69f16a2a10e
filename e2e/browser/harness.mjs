// harness.mjs starts and stops what the browser test needs: a private
// kernelspec, one Jupyter server on 127.0.0.1 with a random token (Debian's
// classic Notebook 6.4, or JupyterLab 4 or Notebook 7 from gocl's venv; see
// frontends below), and headless Chromium with a fresh profile. Everything lives
// in one temporary directory, and stop() ends every process that start()
// began (the server, the kernels it launched and the browser), whether the
// test passed or not.

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';

// chromiumArgs are the flags the issue asks for; playwright-core adds
// --headless and a few automation flags of its own.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// freePort asks the kernel for an unused TCP port on 127.0.0.1.
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// frontends says how to start each Jupyter front end the test knows and
// where it opens a notebook. jupyter is the command (GOCL_CLASSIC_JUPYTER,
// or the venv's bin/jupyter: see jupyterFor); expose_app_in_browser puts
// the JupyterLab application on window.jupyterapp, which the lab driver
// reads the notebook model from.
export const frontends = {
  classic: {
    title: 'Jupyter Notebook 6 (classic, Debian)',
    args: (port, token, dir) => ['notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
      `--NotebookApp.token=${token}`, `--notebook-dir=${dir}`],
    path: (nb) => `/notebooks/${encodeURIComponent(nb)}`,
  },
  lab: {
    title: 'JupyterLab 4',
    args: (port, token, dir) => ['lab', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
      `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${dir}`, '--LabApp.expose_app_in_browser=True',
      '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'],
    path: (nb) => `/lab/tree/${encodeURIComponent(nb)}`,
    query: '&reset', // a fresh workspace: only this notebook open
  },
  server: {
    title: 'jupyter_server (no front end)',
    args: (port, token, dir) => ['server', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
      `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${dir}`],
    path: () => '/api',
  },
  nb7: {
    title: 'Jupyter Notebook 7',
    args: (port, token, dir) => ['notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
      `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${dir}`,
      '--JupyterNotebookApp.expose_app_in_browser=True'],
    path: (nb) => `/notebooks/${encodeURIComponent(nb)}`,
  },
};

// jupyterFor returns the jupyter command for a front end: Debian's for the
// classic Notebook, the venv's (GOCL_VENV) for JupyterLab and Notebook 7.
export function jupyterFor(kind, env = process.env) {
  if (kind === 'classic') return env.GOCL_CLASSIC_JUPYTER || '/usr/bin/jupyter';
  return path.join(env.GOCL_VENV || path.join(os.homedir(), '.local/share/gocl/venv'), 'bin', 'jupyter');
}

// Harness owns one run's temporary directory and processes.
export class Harness {
  // opts: goclBin, notebooks (paths of the .ipynb files to serve),
  // frontend (a key of frontends), jupyter (its command), chromium (executable;
  // browser: false starts none),
  // env (extra environment for the server and so the kernel), keep (leave
  // the temporary directory for inspection), log (function for progress).
  constructor(opts) {
    this.opts = opts;
    this.log = opts.log || (() => {});
    this.tmp = null;
    this.server = null; // the jupyter notebook child process
    this.serverExit = null; // promise of its exit
    this.context = null; // playwright BrowserContext
    this.port = 0;
    this.token = '';
  }

  // start installs the kernelspec, copies the notebooks into the server's
  // folder, and starts the server and the browser; url(name) then gives a
  // notebook's address (token included).
  async start() {
    const { goclBin, notebooks, chromium: chromiumBin, jupyter } = this.opts;
    this.frontend = frontends[this.opts.frontend || 'classic'];
    for (const [what, p, fix] of [
      ['the gocl binary', goclBin, 'build it first (go build -o bin/gocl .) or set GOCL_BIN'],
      ...notebooks.map((nb) => ['a notebook', nb, 'check GOCL_NOTEBOOK']),
      ...(this.opts.browser === false ? [] : [['Chromium', chromiumBin, 'install it (apt-get install chromium) or set GOCL_CHROMIUM']]),
      ['jupyter', jupyter, 'run ./install.sh --test (it builds the venv), or set GOCL_VENV / GOCL_CLASSIC_JUPYTER'],
    ]) {
      if (!fs.existsSync(p)) throw new Error(`${what} is not at ${p}: ${fix}`);
    }
    this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gocl-browser-'));
    const prefix = path.join(this.tmp, 'prefix');
    const inst = spawnSync(goclBin, ['install', '--prefix', prefix], { encoding: 'utf8', timeout: 30_000 });
    if (inst.status !== 0) {
      throw new Error(`gocl install --prefix ${prefix} failed (status ${inst.status}): ${inst.stderr || inst.error}`);
    }

    // nbdir holds the server's copies, which the browser saves into.
    this.nbdir = path.join(this.tmp, 'notebooks');
    fs.mkdirSync(this.nbdir);
    for (const nb of notebooks) fs.copyFileSync(nb, path.join(this.nbdir, path.basename(nb)));

    this.port = await freePort();
    this.token = crypto.randomBytes(24).toString('hex');
    const env = {
      ...process.env,
      ...this.opts.env,
      JUPYTER_PATH: path.join(prefix, 'share', 'jupyter'),
      JUPYTER_CONFIG_DIR: path.join(this.tmp, 'config'),
      JUPYTER_DATA_DIR: path.join(this.tmp, 'data'),
      JUPYTER_RUNTIME_DIR: path.join(this.tmp, 'runtime'),
    };
    // JupyterLab settings (Notebook 7 reads the same): draw every cell (no
    // windowing, so off-screen outputs exist and have their size) and ask
    // no one for news.
    const settings = path.join(env.JUPYTER_CONFIG_DIR, 'lab', 'user-settings', '@jupyterlab');
    for (const [ext, file, value] of [
      ['notebook-extension', 'tracker', { windowingMode: 'none' }],
      ['apputils-extension', 'notification', { fetchNews: 'false', checkForUpdates: false }],
    ]) {
      fs.mkdirSync(path.join(settings, ext), { recursive: true });
      fs.writeFileSync(path.join(settings, ext, `${file}.jupyterlab-settings`), JSON.stringify(value));
    }
    this.serverLog = path.join(this.tmp, 'jupyter.log');
    const logFd = fs.openSync(this.serverLog, 'w');
    const args = this.frontend.args(this.port, this.token, this.nbdir);
    if (process.getuid && process.getuid() === 0) args.push('--allow-root');
    this.log(`starting ${this.frontend.title} (${jupyter} ${args[0]}) on 127.0.0.1:${this.port}`);
    // detached: the server gets its own process group, so stop() can signal
    // it and anything it forks without touching the test runner.
    this.server = spawn(jupyter, args, { env, stdio: ['ignore', logFd, logFd], detached: true });
    fs.closeSync(logFd);
    this.serverExit = new Promise((resolve) => {
      this.server.on('exit', (code, sig) => resolve({ code, sig }));
      this.server.on('error', (err) => resolve({ err }));
    });
    await this.waitForServer(30_000);

    if (this.opts.browser === false) return;
    this.log(`starting ${chromiumBin}`);
    this.context = await chromium.launchPersistentContext(path.join(this.tmp, 'chromium-profile'), {
      executablePath: chromiumBin,
      headless: true,
      args: chromiumArgs,
      viewport: { width: 1280, height: 900 },
      timeout: 30_000,
    });
  }

  // url is the address of a served notebook (its file name), token included.
  url(name) {
    return `http://127.0.0.1:${this.port}${this.frontend.path(name)}?token=${this.token}${this.frontend.query || ''}`;
  }

  // savedPath is the server's copy of a notebook (its file name).
  savedPath(name) {
    return path.join(this.nbdir, name);
  }

  // shutdownKernels shuts down every session's kernel through the REST
  // API (what the Running tab does), so notebooks do not pile kernels up.
  async shutdownKernels() {
    const base = `http://127.0.0.1:${this.port}/api/sessions`;
    const headers = { Authorization: `token ${this.token}` };
    try {
      const sessions = await (await fetch(base, { headers, signal: AbortSignal.timeout(10_000) })).json();
      for (const s of sessions) {
        await fetch(`${base}/${s.id}`, { method: 'DELETE', headers, signal: AbortSignal.timeout(20_000) });
      }
    } catch (err) {
      this.log(`could not shut the kernels down: ${err.message}`);
    }
  }

  // waitForServer polls the REST API until the server answers, failing
  // early with its log when the server exits.
  async waitForServer(ms) {
    const deadline = Date.now() + ms;
    const url = `http://127.0.0.1:${this.port}/api/status`;
    let exited = null;
    this.serverExit.then((e) => { exited = e; });
    let last = '';
    while (Date.now() < deadline) {
      if (exited) {
        throw new Error(`the Jupyter server exited before answering (${JSON.stringify(exited)}); its log:\n${this.serverLogTail()}`);
      }
      try {
        const res = await fetch(url, { headers: { Authorization: `token ${this.token}` }, signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
        last = `HTTP ${res.status}`;
      } catch (err) {
        last = String(err.cause?.code || err.message);
      }
      await sleep(250);
    }
    throw new Error(`the Jupyter server did not answer on ${url} within ${ms / 1000} s (last: ${last}); its log:\n${this.serverLogTail()}`);
  }

  // serverLogTail returns the end of the server's log, for error messages.
  serverLogTail(n = 40) {
    try {
      const lines = fs.readFileSync(this.serverLog, 'utf8').split('\n');
      return lines.slice(-n).join('\n');
    } catch {
      return '(no log)';
    }
  }

  // stop closes the browser, shuts the server down (which shuts its kernels
  // down), kills whatever is left, and removes the temporary directory.
  // It never throws: it runs after failures too.
  async stop() {
    if (this.context) {
      const ctx = this.context;
      this.context = null;
      await Promise.race([ctx.close().catch(() => {}), sleep(10_000)]);
    }
    if (this.server && this.server.exitCode === null && this.server.signalCode === null) {
      // SIGTERM makes the notebook server stop its loop and shut its
      // kernels down; SIGKILL the group if it takes too long.
      this.signalServer('SIGTERM');
      const done = await Promise.race([this.serverExit.then(() => true), sleep(10_000).then(() => false)]);
      if (!done) this.signalServer('SIGKILL');
    }
    this.server = null;
    this.killStrays('SIGKILL');
    if (this.tmp && !this.opts.keep) {
      fs.rmSync(this.tmp, { recursive: true, force: true });
      this.tmp = null;
    }
  }

  // stopNow is the synchronous last resort for process exit: it kills the
  // server's group and the strays without waiting.
  stopNow() {
    if (this.server) this.signalServer('SIGKILL');
    this.killStrays('SIGKILL');
  }

  signalServer(sig) {
    try {
      process.kill(-this.server.pid, sig);
    } catch {
      // already gone
    }
  }

  // killStrays kills processes whose command line names this run's
  // temporary directory: kernels are started in their own session (so the
  // server's group signal misses them), but their connection file lies in
  // our JUPYTER_RUNTIME_DIR. Only processes of this run match.
  killStrays(sig) {
    if (!this.tmp) return;
    let pids = [];
    try {
      pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
    } catch {
      return;
    }
    for (const pid of pids) {
      if (Number(pid) === process.pid) continue;
      let cmd = '';
      try {
        cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (cmd.includes(this.tmp + path.sep)) {
        try {
          process.kill(Number(pid), sig);
        } catch {
          // gone meanwhile
        }
      }
    }
  }
}
