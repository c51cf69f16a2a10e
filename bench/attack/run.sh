#!/bin/sh
# Runs the attack suite of issue 13 (e2e/attack) against bin/gocl and prints
# its figures as a markdown table, then gocl's execute round trip against a
# do-nothing kernel through jupyter_client (bench/kernel/nullbench.py), for
# bench/RESULTS.md.
#
#   bench/attack/run.sh [N round trips, default 500]
set -e
cd "$(dirname "$0")/../.."
go build -o bin/gocl .
report=$(mktemp)
GOCL_BIN=$PWD/bin/gocl GOCL_ATTACK_REPORT=$report go test -count=1 ./e2e/attack/ >&2
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $(date -u +%Y-%m-%d)"
echo
cat "$report"
rm -f "$report"
/usr/bin/python3 bench/kernel/nullbench.py --n "${1:-500}" --gocl bin/gocl
