#!/usr/bin/env bash
# install.sh — set gocl up on a Debian/Ubuntu machine: system packages, build,
# kernelspec, and a first notebook run through Jupyter.
#
#   ./install.sh          set up, then run the tour (00) through Jupyter and notebook 01 on this machine
#   ./install.sh --test   set up, then run every test (what CI runs)
#
# Jupyter: a `jupyter` already on the PATH is kept and the kernelspec is
# registered where it looks. Otherwise JupyterLab 4, Notebook 7 and
# ipywidgets 8 come from PyPI into gocl's own virtual environment
# ($GOCL_VENV, default /opt/gocl/venv for root, ~/.local/share/gocl/venv
# otherwise) and `jupyter` is linked into /usr/local/bin (root) or
# ~/.local/bin; when PyPI cannot be reached, Debian's classic Notebook is
# installed instead. --test always builds the venv (the browser tests run
# JupyterLab 4 and Notebook 7 from it, and Debian's Notebook 6.4 too).
# The gocl binary is copied next to that `jupyter` link, and the kernelspec
# runs that copy, so moving or deleting the clone leaves it working.
#
# Safe to run twice: it installs only what is missing, builds into a temporary
# file before replacing bin/gocl, and replaces the kernelspec atomically. When
# a step fails it says which one and why, and leaves the earlier state alone.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)

mode=demo
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
  *) echo "install.sh: unknown option '$1' (use --test, or nothing)" >&2; exit 2 ;;
esac

STEP="starting"
trap 'echo >&2; echo "install.sh: FAILED at step: $STEP (see the messages above). Nothing after it was changed; fix the cause and run ./install.sh again." >&2' ERR
step() { STEP="$1"; printf '\n==> %s\n' "$1"; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
fi

# ---------------------------------------------------------------- Go
step "checking Go"
need_go=$(awk '$1 == "go" {print $2; exit}' go.mod)
GO=""
for g in "$(command -v go || true)" /usr/local/go/bin/go; do
  if [ -n "$g" ] && [ -x "$g" ]; then GO="$g"; break; fi
done
version_ge() { # is $1 >= $2 (dotted versions)?
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}
if [ -z "$GO" ]; then
  echo "install.sh: Go $need_go or newer is needed and none was found on the PATH or in /usr/local/go." >&2
  echo "  Get it from https://go.dev/dl/ (Debian's golang-go is too old), unpack it into /usr/local/go, and run ./install.sh again." >&2
  STEP="checking Go"; false
fi
have_go=$("$GO" env GOVERSION | sed 's/^go//')
if ! version_ge "$have_go" "$need_go"; then
  echo "install.sh: $GO is Go $have_go, but gocl needs Go $need_go or newer (go.mod)." >&2
  echo "  Get a newer one from https://go.dev/dl/ (Debian's golang-go is too old) and put it first on the PATH or in /usr/local/go." >&2
  false
fi
export PATH="$(dirname "$GO"):$PATH"
echo "Go $have_go at $GO"

# ---------------------------------------------------------------- packages
step "installing missing system packages"
want=(gcc libc6-dev pkg-config ocl-icd-opencl-dev opencl-headers ocl-icd-libopencl1 clinfo)
has_platform=no
if [ -n "${OCL_ICD_FILENAMES:-}" ] || ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then has_platform=yes; fi
if [ "$has_platform" = no ] || dpkg -s pocl-opencl-icd >/dev/null 2>&1; then want+=(pocl-opencl-icd); fi
# Whose Jupyter is it? A `jupyter` that is our own venv's link does not count as the user's.
GOCL_VENV=${GOCL_VENV:-$( [ "$(id -u)" -eq 0 ] && echo /opt/gocl/venv || echo "${XDG_DATA_HOME:-$HOME/.local/share}/gocl/venv" )}
GOCL_BINDIR=${GOCL_BINDIR:-$( [ "$(id -u)" -eq 0 ] && echo /usr/local/bin || echo "$HOME/.local/bin" )}
user_jupyter=""
if j=$(command -v jupyter 2>/dev/null); then
  case "$(readlink -f "$j")" in "$GOCL_VENV"/*) ;; *) user_jupyter=$j ;; esac
fi
want_venv=no
if [ -z "$user_jupyter" ] || [ "$mode" = test ]; then want_venv=yes; want+=(python3-venv); fi
if [ "$mode" = test ]; then
  # Debian's classic Notebook 6.4 and jupyter_client: e2e/jupyter and the classic browser suite use them.
  want+=(jupyter-client jupyter-notebook jupyter-nbconvert python3-nbclient python3-nbformat)
fi
if [ "$mode" = test ]; then
  # Tests drive the kernel through real Jupyter clients and compare with ipykernel and numpy;
  # the browser test needs Chromium and Node.
  want+=(python3-ipykernel python3-zmq python3-numpy pocl-opencl-icd chromium)
fi
missing=()
for p in "${want[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node may come from elsewhere (NodeSource's nodejs bundles npm and conflicts
# with Debian's npm package): ask for Debian's only when the commands are absent.
if [ "$mode" = test ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
    echo "install.sh: these Debian packages are missing and this is not root (and sudo is absent): ${missing[*]}" >&2
    echo "  Install them as root (apt-get install ${missing[*]}) and run ./install.sh again." >&2
    false
  fi
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "all present"
fi

# ---------------------------------------------------------------- build
step "building gocl"
mkdir -p bin
CGO_ENABLED=1 "$GO" build -o bin/gocl.new . 
mv -f bin/gocl.new bin/gocl
bin/gocl version

# ---------------------------------------------------------------- Jupyter (h11lab)
if [ "$want_venv" = yes ]; then
  step "installing JupyterLab 4, Notebook 7 and ipywidgets 8 from PyPI into $GOCL_VENV"
  # The newest releases PyPI serves within these majors; pip skips what is already there.
  venv_ok=no
  if { [ -x "$GOCL_VENV/bin/python" ] || /usr/bin/python3 -m venv "$GOCL_VENV"; } &&
     "$GOCL_VENV/bin/python" -m pip install --disable-pip-version-check --timeout 30 --retries 2 -q \
       'jupyterlab>=4,<5' 'notebook>=7,<8' 'ipywidgets>=8,<9' \
       papermill nbclient nbconvert jupyter_console jupytext pexpect &&
     # gocl's plug-ins for those clients (python/gocl_jupyter): papermill's Go parameters, nbconvert --to gocl.
     "$GOCL_VENV/bin/python" -m pip install --disable-pip-version-check --timeout 30 --retries 2 -q ./python/gocl_jupyter; then
    rm -rf python/gocl_jupyter/build python/gocl_jupyter/*.egg-info
    venv_ok=yes
    "$GOCL_VENV/bin/jupyter" --version | grep -E '^(jupyterlab|notebook|ipywidgets|jupyter_server) '
  else
    echo "install.sh: could not install Jupyter from PyPI into $GOCL_VENV (see pip's message above)." >&2
  fi
  if [ "$venv_ok" = no ] && [ "$mode" = test ]; then
    echo "install.sh: --test needs JupyterLab 4 and Notebook 7 from PyPI; make https://pypi.org reachable and run it again." >&2
    false
  fi
  if [ "$venv_ok" = no ] && [ -z "$user_jupyter" ]; then
    step "falling back to Debian's Jupyter Notebook (PyPI could not be reached)"
    fallback=()
    for p in jupyter-client jupyter-notebook jupyter-nbconvert python3-nbclient python3-nbformat; do
      dpkg -s "$p" >/dev/null 2>&1 || fallback+=("$p")
    done
    if [ "${#fallback[@]}" -gt 0 ]; then
      if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
        echo "install.sh: PyPI cannot be reached and this is not root (and sudo is absent): install Debian's Jupyter as root (apt-get install ${fallback[*]}), or make https://pypi.org reachable, and run ./install.sh again." >&2
        false
      fi
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${fallback[@]}"
    fi
  fi
  if [ "$venv_ok" = yes ] && [ -z "$user_jupyter" ]; then
    step "putting jupyter on the PATH ($GOCL_BINDIR/jupyter -> $GOCL_VENV/bin/jupyter)"
    mkdir -p "$GOCL_BINDIR"
    ln -sfn "$GOCL_VENV/bin/jupyter" "$GOCL_BINDIR/jupyter"
    case ":$PATH:" in
      *":$GOCL_BINDIR:"*) ;;
      *) export PATH="$GOCL_BINDIR:$PATH"
         echo "note: $GOCL_BINDIR is not on your PATH; add it (e.g. in ~/.profile: export PATH=\"$GOCL_BINDIR:\$PATH\")." ;;
    esac
  fi
fi
hash -r

step "warming the Go build cache for compiled cells (//gocl:compile)"
# The first compiled cell builds the standard library and cl for a plugin
# (a minute on 2 cores); do it now, so a notebook's first one takes seconds.
warm=$(mktemp -d)
printf '%s' '{"cells": [{"cell_type": "code", "id": "warm", "metadata": {}, "execution_count": null, "outputs": [],
  "source": "//gocl:compile\nfunc Warm(q *cl.Queue) string { return fmt.Sprint(q) }\n"}],
  "metadata": {"kernelspec": {"name": "gocl", "display_name": "Go (gocl)", "language": "go"}}, "nbformat": 4, "nbformat_minor": 5}' >"$warm/warm.ipynb"
if (cd "$warm" && "$ROOT/bin/gocl" run warm.ipynb -o out.ipynb >/dev/null 2>&1); then
  echo "compiled cells: ready"
else
  echo "compiled cells: the warm-up build failed (interpreted cells are unaffected); a compiled cell will say why"
fi
rm -rf "$warm"

step "checking OpenCL (gocl doctor)"
if [ "$(id -u)" -eq 0 ]; then bin/gocl doctor --fix || true; else bin/gocl doctor || true; fi

step "registering the Jupyter kernelspec (running $GOCL_BINDIR/gocl)"
# A copy outside the clone: the kernelspec records the real path of the binary that registers it.
mkdir -p "$GOCL_BINDIR"
cp -f bin/gocl "$GOCL_BINDIR/gocl.new" && mv -f "$GOCL_BINDIR/gocl.new" "$GOCL_BINDIR/gocl"
"$GOCL_BINDIR/gocl" install $( [ "$(id -u)" -eq 0 ] && echo "--prefix /usr/local" || echo "--user" )
if command -v jupyter >/dev/null 2>&1; then
  # Where does this Jupyter look? When it does not see the spec just written
  # (a custom JUPYTER_DATA_DIR or JUPYTER_PATH, say), write it into the data
  # folder that Jupyter itself names, which it always searches.
  if ! jupyter kernelspec list 2>/dev/null | grep -qE '^\s*gocl\s'; then
    JUPYTER_DATA_DIR="$(jupyter --data-dir)" "$GOCL_BINDIR/gocl" install --user
  fi
  jupyter kernelspec list | grep -E '^\s*gocl\s' || {
    echo "install.sh: $(command -v jupyter) does not see the gocl kernelspec; check JUPYTER_PATH, or run: JUPYTER_DATA_DIR=\"\$(jupyter --data-dir)\" $GOCL_BINDIR/gocl install --user" >&2
    false; }
fi

# ---------------------------------------------------------------- demo or tests
if [ "$mode" = demo ]; then
  step "running notebooks/00-tour.ipynb through Jupyter with the gocl kernel"
  out=$(mktemp -d)
  jupyter nbconvert --to markdown --execute --ExecutePreprocessor.kernel_name=gocl \
    --ExecutePreprocessor.timeout=120 --output-dir "$out" notebooks/00-tour.ipynb >/dev/null
  cat "$out"/00-tour.md
  rm -rf "$out"

  step "running notebooks/01-blocking-vs-nonblocking.ipynb (the PyOpenCL question) on this machine's device"
  # As large as the experiment (5e8 float64 = 4 GB), but no larger than an eighth of the
  # free memory over the three copies the notebook holds, nor the device's largest buffer.
  avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
  max_alloc=$(clinfo --raw 2>/dev/null | awk '/CL_DEVICE_MAX_MEM_ALLOC_SIZE/ {print $NF}' | sort -n | head -n1)
  n=500000000
  by_mem=$(( avail_kb * 1024 / 8 / 8 / 3 ))
  [ "$by_mem" -lt "$n" ] && n=$by_mem
  if [ -n "$max_alloc" ] && [ $(( max_alloc / 8 )) -lt "$n" ]; then n=$(( max_alloc / 8 )); fi
  [ "$n" -lt 1000 ] && n=1000
  echo "GOCL_N=$n float64 values ($(( n * 8 / 1000000 )) MB)"
  out=$(mktemp -d)
  bin/gocl run notebooks/01-blocking-vs-nonblocking.ipynb -o "$out/01.ipynb" --kernel-env "GOCL_N=$n"
  rm -rf "$out"
  front="jupyter lab"; jupyter lab --version >/dev/null 2>&1 || front="jupyter notebook"
  printf '\ngocl is installed: start Jupyter (%s) and pick "Go (gocl)"; the notebooks are in notebooks/.\n' "$front"
  exit 0
fi

step "running every test"
# With GOCL_BIN set, go test ./... runs the end-to-end tests (e2e/) against
# this build too; without it (the inner loop) they are skipped.
export GOCL_BIN="$ROOT/bin/gocl"
"$GO" vet ./...
"$GO" test -count=1 -timeout 30m ./... 2>&1 | tee /tmp/gocl-test.log
STEP="the generated symbol tables are up to date (each regenerated and compared with the file; minutes of CPU)"
GOCL_CHECK_GENERATED=1 "$GO" test -count=1 -timeout 60m -run '^TestGeneratedUpToDate$' ./kernel/symbols/ ./kernel/symbols/stdlib/ 2>&1
STEP="clapi under GOEXPERIMENT=cgocheck2 (pointer checks on every cgo call)"
GOEXPERIMENT=cgocheck2 "$GO" test -count=1 -timeout 10m ./clapi/ 2>&1
STEP="tests through a real Jupyter client"
/usr/bin/python3 -m unittest discover -s e2e/jupyter -p 'test_*.py' -v 2>&1
STEP="tests through Jupyter's command-line clients (papermill, nbclient, jupyter console, nbconvert, jupytext)"
"$GOCL_VENV/bin/python" -m unittest discover -s e2e/clients -p 'test_*.py' -v 2>&1
STEP="real-browser test (Jupyter Notebook in headless Chromium)"
GOCL_VENV="$GOCL_VENV" GOCL_CLASSIC_JUPYTER=/usr/bin/jupyter e2e/browser/run.sh
echo "install.sh --test: all tests passed"
