#!/usr/bin/env bash
# run.sh — gocl's real-browser end-to-end tests in headless Chromium, driven
# by playwright-core: every notebook, interrupt, restart, completion, the
# tooltip and stdin in JupyterLab 4 and Notebook 7 (from gocl's venv) and in
# Debian's classic Notebook 6.4 (notebook.test.mjs says what it checks), then
# JupyterLab's debugger on Go cells (debugger.test.mjs), then the
# @jupyterlab/services protocol test through jupyter_server
# (services.test.mjs).
#
#   e2e/browser/run.sh                       run them
#   e2e/browser/run.sh --update-screenshots  run them and, if they pass, write docs/jupyterlab-*.png
#
# Needs the Debian packages chromium, nodejs, npm and jupyter-notebook, and
# gocl's venv with JupyterLab 4 and Notebook 7 ($GOCL_VENV; install.sh
# builds both). Installs the npm packages from package-lock.json when
# node_modules is missing or stale (npm's cache makes reruns offline); never
# downloads a browser. Uses $GOCL_BIN when set (install.sh sets it), else
# builds gocl into a temporary directory. GOCL_FRONTENDS, GOCL_NOTEBOOK,
# GOCL_N: see notebook.test.mjs. GOCL_FRONTENDS without lab skips the
# debugger test.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

case "${1:-}" in
  "") ;;
  --update-screenshots) export GOCL_SCREENSHOTS="$ROOT/docs" ;;
  -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
  *) echo "run.sh: unknown option '$1' (use --update-screenshots, or nothing)" >&2; exit 2 ;;
esac

export GOCL_VENV=${GOCL_VENV:-$( [ "$(id -u)" -eq 0 ] && echo /opt/gocl/venv || echo "${XDG_DATA_HOME:-$HOME/.local/share}/gocl/venv" )}
export GOCL_CLASSIC_JUPYTER=${GOCL_CLASSIC_JUPYTER:-/usr/bin/jupyter}
for j in "$GOCL_VENV/bin/jupyter" "$GOCL_CLASSIC_JUPYTER"; do
  if [ ! -x "$j" ]; then
    echo "run.sh: no Jupyter at $j: run ./install.sh --test (it builds the venv and installs Debian's jupyter-notebook), or set GOCL_VENV / GOCL_CLASSIC_JUPYTER" >&2
    exit 1
  fi
done
for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "run.sh: '$tool' is not installed: apt-get install nodejs npm jupyter-notebook chromium (or run ./install.sh --test)" >&2
    exit 1
  fi
done
chrome=${GOCL_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chrome" ]; then
  echo "run.sh: no browser at $chrome: apt-get install chromium (or set GOCL_CHROMIUM)" >&2
  exit 1
fi

cd "$HERE"
# npm ci installs exactly what package-lock.json says; skip it when
# node_modules is already newer than the lock.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "run.sh: installing playwright-core and @jupyterlab/services (npm ci)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi

tmp=""
cleanup() { if [ -n "$tmp" ]; then rm -rf "$tmp"; fi; }
trap cleanup EXIT
if [ -z "${GOCL_BIN:-}" ]; then
  GO=$(command -v go || echo /usr/local/go/bin/go)
  tmp=$(mktemp -d)
  echo "run.sh: building gocl into $tmp (set GOCL_BIN to skip)"
  (cd "$ROOT" && CGO_ENABLED=1 "$GO" build -o "$tmp/gocl" .)
  export GOCL_BIN="$tmp/gocl"
fi

# Hang guards for the whole runs; the tests' own timeouts are tighter.
start=$(date +%s)
timeout -k 10 1500 node --test --test-concurrency=1 notebook.test.mjs
echo "run.sh: browser suites took $(( $(date +%s) - start )) s"
case ",${GOCL_FRONTENDS:-lab}," in
  *,lab,*)
    start=$(date +%s)
    timeout -k 10 400 node --test --test-concurrency=1 debugger.test.mjs
    echo "run.sh: JupyterLab debugger test took $(( $(date +%s) - start )) s" ;;
esac
start=$(date +%s)
timeout -k 10 300 node --test --test-concurrency=1 services.test.mjs
echo "run.sh: @jupyterlab/services protocol test took $(( $(date +%s) - start )) s"

