#!/usr/bin/env bash
# run.sh — gocl's real-browser end-to-end test: Debian's classic Jupyter
# Notebook in headless Chromium, driven by playwright-core (see
# notebook.test.mjs for what it checks).
#
#   e2e/browser/run.sh                      run the test
#   e2e/browser/run.sh --update-screenshot  run it and, if it passes, write docs/screenshot.png
#
# Needs the Debian packages chromium, nodejs, npm and jupyter-notebook
# (install.sh --test installs them). Installs playwright-core from
# package-lock.json when node_modules is missing or stale; never downloads a
# browser. Uses $GOCL_BIN when set (install.sh sets it), else builds gocl
# into a temporary directory. GOCL_NOTEBOOK, GOCL_N: see notebook.test.mjs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

case "${1:-}" in
  "") ;;
  --update-screenshot) export GOCL_SCREENSHOT="$ROOT/docs/screenshot.png" ;;
  -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
  *) echo "run.sh: unknown option '$1' (use --update-screenshot, or nothing)" >&2; exit 2 ;;
esac

for tool in node npm jupyter; do
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
  echo "run.sh: installing playwright-core (npm ci)"
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

# A hang guard for the whole run; the test's own timeouts are tighter.
timeout -k 10 240 node --test notebook.test.mjs
