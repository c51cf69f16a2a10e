#!/bin/sh
# What the type check of issue 8 costs a cell: the engine's time per cell
# in a session of 60 declarations, for a cell that needs no check and for
# three that do (kernel/engine's BenchmarkCellCost), with each one's ratio to
# the first, measured in the same run.
#
#   sh bench/celltypes/run.sh [COUNT]     (from the repository root)
set -eu
n=${1:-300}
go test -run '^$' -bench BenchmarkCellCost -benchtime "${n}x" -count 3 ./kernel/engine/ |
	awk '/^BenchmarkCellCost\// {
		name = $1; sub(/^BenchmarkCellCost\//, "", name); sub(/-[0-9]+$/, "", name); gsub(/_/, " ", name)
		v[name] = v[name] " " $3; if (!(name in seen)) { order[++k] = name; seen[name] = 1 }
	}
	function median3(x, y, z) { return x > y ? (y > z ? y : (x > z ? z : x)) : (x > z ? x : (y > z ? z : y)) }
	END {
		print "| cell | ns per cell (3 runs) | median | ratio to the first |"
		print "|---|---|---|---|"
		for (i = 1; i <= k; i++) {
			split(v[order[i]], a, " "); m = median3(a[1] + 0, a[2] + 0, a[3] + 0); if (i == 1) base = m
			printf "| %s | %s | %d | %.2fx |\n", order[i], v[order[i]], m, m / base
		}
	}'
