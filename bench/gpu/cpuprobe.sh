#!/bin/sh
# Does the CPU a process runs on decide how long NVIDIA's pinned-write call
# takes in it (10 or 30-40 us, bench/RESULTS.md)? clref at 4e8 bytes, five
# processes each unpinned and under taskset on three CPU pairs, in turns.
#
#   bench/gpu/cpuprobe.sh BIN OUT      (BIN holds clref: make -C bench/transfer)
set -u
bin=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}" CLREF_DEVICE="${CLREF_DEVICE:-nvidia}"
for r in 1 2 3 4 5; do
	for c in none 0-1 6-7 12-13; do
		if [ "$c" = none ]; then
			timeout 60 "$bin/clref" 5e7 >"$out/clref-none-$r.json" 2>>"$out/err.txt"
		else
			timeout 60 taskset -c "$c" "$bin/clref" 5e7 >"$out/clref-cpus$c-$r.json" 2>>"$out/err.txt"
		fi
	done
done
python3 - "$out" <<'PY'
import glob, json, statistics, sys
for c in ("none", "cpus0-1", "cpus6-7", "cpus12-13"):
    v = []
    for f in sorted(glob.glob(f"{sys.argv[1]}/clref-{c}-*.json")):
        w = json.load(open(f))["pinned_write"][1:]
        v.append(round(statistics.median(x["return_s"] for x in w) * 1e6, 1))
    print(c, "median of pinned writes 2-5 per process (us):", v)
PY
