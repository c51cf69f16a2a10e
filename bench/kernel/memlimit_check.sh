#!/bin/sh
# Checks the engine's memory limit (RLIMIT_DATA, kernel/supervisor) against a
# real GPU driver: NVIDIA's reserves very large virtual ranges, which an
# address-space limit would break; a data-segment limit should not. Run on the
# GPU machine from the repository root:
#
#   sh bench/kernel/memlimit_check.sh
#
# It runs one notebook through `gocl run` (the same supervised engine as the
# kernel) under the default limit and under GOCL_MEMORY_LIMIT=8GB, and prints
# each cell's outputs. Expected: both runs create the GPU context, a 4 GiB
# device buffer, a 4 GiB PinnedHost and copy between them ("copied 4 GiB");
# the 30 GB make fails as an EngineCrash "out of memory" naming the limit;
# the cell after it runs. A failure at the context or the buffers under 8GB
# means the driver's memory counts toward RLIMIT_DATA: report it.
set -eu
GOCL=${GOCL_BIN:-bin/gocl}
[ -x "$GOCL" ] || go build -o bin/gocl .
dir=$(mktemp -d)
python3 - "$dir/check.ipynb" <<'PY'
import json, sys
cells = [
    'for _, l := range strings.Split(string(must(os.ReadFile("/proc/self/limits"))), "\\n") { if strings.Contains(l, "data") || strings.Contains(l, "address") { fmt.Println(l) } }',
    'ctx := cl.CreateSomeContext()\nq := cl.NewQueue(ctx)\nfmt.Println(ctx)',
    'dev := cl.NewBufferSize(ctx, cl.ReadWrite, 4<<30)\npin := cl.NewPinnedHost(q, 4<<30)\ncl.EnqueueCopy(q, dev, pin, cl.NonBlocking).Wait()\nfmt.Println("copied 4 GiB")',
    'for _, l := range strings.Split(string(must(os.ReadFile("/proc/self/status"))), "\\n") { if strings.HasPrefix(l, "Vm") { fmt.Println(l) } }',
    'big := make([]byte, 30<<30)\nfor i := range big { big[i] = 1 }',
    'fmt.Println("the next cell runs")',
]
src = ['func must(b []byte, err error) []byte { if err != nil { panic(err) }; return b }'] + cells
nb = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None} for c in src],
      "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
json.dump(nb, open(sys.argv[1], "w"))
PY
for limit in "" 8GB; do
  echo "== GOCL_MEMORY_LIMIT=${limit:-<default>}: $(GOCL_MEMORY_LIMIT=$limit "$GOCL" doctor | grep 'Engine memory limit')"
  GOCL_MEMORY_LIMIT=$limit "$GOCL" run --allow-errors "$dir/check.ipynb" -o "$dir/out.ipynb" >/dev/null 2>&1 || true
  python3 - "$dir/out.ipynb" <<'PY'
import json, sys
for i, c in enumerate(json.load(open(sys.argv[1]))["cells"]):
    for o in c["outputs"]:
        t = o.get("text") or (o.get("data") or {}).get("text/plain") or (o.get("ename", "") + ": " + o.get("evalue", ""))
        print(f"[{i}] {o['output_type']}: {''.join(t).strip()[:300]}")
PY
done
rm -rf "$dir"
