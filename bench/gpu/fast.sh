#!/bin/sh
# Issue 21's last target, the cell's own work in a pinned non-blocking
# write (at most 6 µs): one GPU run of the branch "fast"'s measurements.
# Builds nothing: it takes prebuilt binaries from an archive.
#
#   bench/gpu/fast.sh ARCHIVE OUT [BYTES...]
#
# ARCHIVE is a tar.xz of (built elsewhere, see bench/RESULTS.md):
#   hostblocked        go build -ldflags='-s -w' ./bench/hostblocked
#   hostblocked-probe  the same with -tags goclprobe (clapi's probe points on)
#   yaegicall          go build -ldflags='-s -w' ./bench/yaegicall
# OUT gets fast.tar.gz (everything), report.md (every table, in order) and
# fast.log. Sizes default to 4e8 and 4e9 bytes, as lab.sh's hostblocked.
#
# What each step answers:
#   hostblocked, twice a size (two processes): the cell's own work with the
#     direct calls (how gocl runs cells now) and through reflect.Value.Call
#     (before), interleaved round by round in one process, beside C and
#     compiled clapi: the before/after that no process swing skews;
#   hostblocked-probe, once a size: where compiled clapi's own work and the
#     cell's go, step by step (each step also pays a clock read);
#   hostblocked with GOCL_WAIT=block at the first size: the wait mode's
#     share (spin is the default on a GPU);
#   yaegicall, warm and after a 1 ms sleep before each call: the
#     interpreter's call alone, direct against reflect, without OpenCL.
# Works on PoCL too (GOCL_CTX=0, small BYTES), which is how it is tested.
set -u
archive=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
sizes=${*:-4e8 4e9}
export GOCL_CTX="${GOCL_CTX:-nvidia}"
[ "$GOCL_CTX" = nvidia ] && export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}"
work=$(mktemp -d)
bin=$work/bin
mkdir -p "$bin"
log=$out/fast.log
report=$out/report.md
: >"$log"
: >"$report"
step() { echo "== $(date +%T) $*" | tee -a "$log" >&2; }
pack() { tar czf "$out/fast.tar.gz.tmp" -C "$work" --exclude=./bin . && mv "$out/fast.tar.gz.tmp" "$out/fast.tar.gz"; }
# One table file into the report, under a heading naming the step.
emit() { { echo "## $1"; echo; cat "$2"; echo; } >>"$report"; }

step unpack
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$bin" 2>>"$log" ||
	tar xJf "$archive" -C "$bin" 2>>"$log" || { echo "cannot unpack $archive" >>"$log"; exit 1; }
chmod +x "$bin"/* 2>/dev/null
{
	nvidia-smi 2>/dev/null
	lscpu | sed -n '1,20p'
	uname -a
	cat /sys/devices/system/clocksource/clocksource0/current_clocksource
} >"$work/machine.txt" 2>&1

for rep in 1 2; do
	for n in $sizes; do
		step "hostblocked (direct and reflect cells), $n bytes, process $rep"
		timeout 180 "$bin/hostblocked" -bytes "$n" -rounds 40 -json "$work/hb-$n-$rep.json" >"$work/hb-$n-$rep.md" 2>>"$log" ||
			echo "hostblocked $n $rep failed" >>"$log"
		emit "hostblocked, $n bytes, process $rep" "$work/hb-$n-$rep.md"
		pack
	done
done
for n in $sizes; do
	step "hostblocked-probe, $n bytes"
	timeout 180 "$bin/hostblocked-probe" -bytes "$n" -rounds 40 -json "$work/hbprobe-$n.json" >"$work/hbprobe-$n.md" 2>>"$log" ||
		echo "hostblocked-probe $n failed" >>"$log"
	emit "hostblocked-probe (clapi's probe points on), $n bytes" "$work/hbprobe-$n.md"
	pack
done
first=${sizes%% *}
step "hostblocked, GOCL_WAIT=block, $first bytes"
GOCL_WAIT=block timeout 180 "$bin/hostblocked" -bytes "$first" -rounds 40 -json "$work/hb-$first-block.json" >"$work/hb-$first-block.md" 2>>"$log" ||
	echo "hostblocked block failed" >>"$log"
emit "hostblocked, GOCL_WAIT=block (Wait parks), $first bytes" "$work/hb-$first-block.md"
step "yaegicall, warm and cold"
timeout 60 "$bin/yaegicall" -n 20000 >"$work/yaegicall-warm.md" 2>>"$log" || echo "yaegicall warm failed" >>"$log"
emit "yaegicall, warm" "$work/yaegicall-warm.md"
timeout 90 "$bin/yaegicall" -n 1000 -sleep 1ms >"$work/yaegicall-cold.md" 2>>"$log" || echo "yaegicall cold failed" >>"$log"
emit "yaegicall, after a 1 ms sleep before each call" "$work/yaegicall-cold.md"
cp "$report" "$work/report.md"
pack
step done
