#!/bin/sh
# Issue 21's last target, the cell's own work in a pinned non-blocking
# write at most 6 µs: met after a 4e8-byte copy's 7 ms wait, missed after a
# 4e9-byte copy's 72 ms one (bench/RESULTS.md). One GPU run that asks why:
# is the call after a long wait slow because of the wait's length, of how
# the thread waited (spinning or sleeping, in C or in Go), of the runtime
# (the P retaken, the goroutine moved) or of the big copy, and does a
# different way of waiting help? Builds nothing: it takes prebuilt binaries
# from an archive.
#
#   bench/gpu/coldwait.sh ARCHIVE OUT [ROUNDS]
#
# ARCHIVE is a tar.xz of (built elsewhere with -ldflags='-s -w'):
#   hostblocked        go build ./bench/hostblocked
#   hostblocked-probe  the same with -tags goclprobe (clapi's probe points,
#                      and the wait mode switchable between conditions)
#   coldpath           cc -O2 bench/coldpath/coldpath.c -lOpenCL
# OUT gets coldwait.tar.gz (everything), report.md (every table, in order)
# and coldwait.log.
#
# What each step answers:
#   coldpath (plain C, no Go): how long an L1-sized and an L2-sized pointer
#     chase and C's driver call take after spinning, sleeping or waiting
#     for the GPU 7 or 72 ms: is the CPU cold after a long wait with no Go
#     at all?
#   hostblocked-probe, 4e8 bytes, the conditions cspin/csleep/spin/lockspin
#     of 7 and 72 ms before every timed call: the same question for C,
#     compiled clapi and the cell, with the copy small, and where the
#     runtime left the goroutine (P, thread, CPU) and cgo's return;
#   hostblocked-probe, 4e9 bytes: the issue's case with clapi's Wait
#     spinning in Go (now), locked to its thread, or polling in C;
#   hostblocked, 4e9 bytes, GOCL_WAIT=spin, spinc, spinlock, twice each
#     in turn (six processes, as cells run: no probes), and once at 4e8.
# Works on PoCL too (GOCL_CTX=0 with small sizes through BIG and SMALL),
# which is how it is tested.
set -u
archive=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
rounds=${3:-24}
big=${BIG:-4e9}
small=${SMALL:-4e8}
export GOCL_CTX="${GOCL_CTX:-nvidia}"
[ "$GOCL_CTX" = nvidia ] && export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}"
work=$(mktemp -d)
bin=$work/bin
mkdir -p "$bin"
log=$out/coldwait.log
report=$out/report.md
: >"$log"
: >"$report"
step() { echo "== $(date +%T) $*" | tee -a "$log" >&2; }
pack() { tar czf "$out/coldwait.tar.gz.tmp" -C "$work" --exclude=./bin . && mv "$out/coldwait.tar.gz.tmp" "$out/coldwait.tar.gz"; }
emit() { { echo "## $1"; echo; cat "$2"; echo; } >>"$report"; }
idle() {
	for s in /sys/devices/system/cpu/cpu*/cpuidle/state*; do
		[ -r "$s/name" ] && echo "$s $(cat "$s/name") usage=$(cat "$s/usage") time_us=$(cat "$s/time")"
	done
}

step unpack
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$bin" 2>>"$log" ||
	tar xJf "$archive" -C "$bin" 2>>"$log" || { echo "cannot unpack $archive" >>"$log"; exit 1; }
chmod +x "$bin"/* 2>/dev/null
{
	nvidia-smi 2>/dev/null
	lscpu
	uname -a
	cat /sys/devices/system/clocksource/clocksource0/current_clocksource
	echo "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"
	echo "cpufreq: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)"
	grep -m1 -i hypervisor /proc/cpuinfo >/dev/null && echo "hypervisor flag set"
	cat /proc/loadavg
} >"$work/machine.txt" 2>&1
idle >"$work/cpuidle-before.txt" 2>&1

step "coldpath (plain C), $rounds rounds"
timeout 150 "$bin/coldpath" "$rounds" "$big" "$small" >"$work/coldpath.md" 2>>"$log" || echo "coldpath failed" >>"$log"
emit "coldpath: plain C, the probes after each wait" "$work/coldpath.md"
pack

step "hostblocked-probe, $small bytes, waits of 7 and 72 ms before each call"
timeout 200 "$bin/hostblocked-probe" -bytes "$small" -rounds "$rounds" -json "$work/probe-small.json" \
	-between none,cspin:7ms,csleep:7ms,spin:7ms,cspin:72ms,csleep:72ms,spin:72ms,lockspin:72ms >"$work/probe-small.md" 2>>"$log" ||
	echo "hostblocked-probe small failed" >>"$log"
emit "hostblocked-probe, $small bytes, a wait before each timed call" "$work/probe-small.md"
pack

step "hostblocked-probe, $big bytes, clapi's wait modes and C waits"
timeout 200 "$bin/hostblocked-probe" -bytes "$big" -rounds "$rounds" -json "$work/probe-big.json" \
	-between none,wait=spinc,wait=spinlock,cspin:72ms,csleep:72ms >"$work/probe-big.md" 2>>"$log" ||
	echo "hostblocked-probe big failed" >>"$log"
emit "hostblocked-probe, $big bytes, Wait's modes and waits in C" "$work/probe-big.md"
pack

for rep in 1 2; do
	for mode in spin spinc spinlock; do
		step "hostblocked, $big bytes, GOCL_WAIT=$mode, process $rep"
		GOCL_WAIT=$mode timeout 120 "$bin/hostblocked" -bytes "$big" -rounds 40 -json "$work/hb-$mode-$rep.json" >"$work/hb-$mode-$rep.md" 2>>"$log" ||
			echo "hostblocked $mode $rep failed" >>"$log"
		emit "hostblocked, $big bytes, GOCL_WAIT=$mode, process $rep" "$work/hb-$mode-$rep.md"
		pack
	done
done
step "hostblocked, $small bytes, GOCL_WAIT=spin"
GOCL_WAIT=spin timeout 100 "$bin/hostblocked" -bytes "$small" -rounds 40 -json "$work/hb-small.json" >"$work/hb-small.md" 2>>"$log" ||
	echo "hostblocked small failed" >>"$log"
emit "hostblocked, $small bytes, GOCL_WAIT=spin" "$work/hb-small.md"
idle >"$work/cpuidle-after.txt" 2>&1
cat /proc/loadavg >>"$work/machine.txt"
cp "$report" "$work/report.md"
pack
step done
