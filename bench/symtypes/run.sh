#!/bin/sh
# Importing a cell's usual packages (fmt, strings, time, encoding/json,
# net/http) as go/types packages: kernel/symtypes from yaegi's symbol tables,
# cold (fresh importer) and warm (cached), against go/types' own importer
# reading the toolchain's export data, cold, in the same run.
# Usage: bench/symtypes/run.sh   (from the repository root)
set -e
out=$(nice go test -run '^$' -bench 'Import|Toolchain' -benchtime 2s -count 3 ./kernel/symtypes)
echo "$out"
echo "$out" | awk '
/^Benchmark/ { b = $1; sub(/-[0-9]+$/, "", b); n[b]++; s[b] += $3 }
END {
	w = s["BenchmarkImportWarm"] / n["BenchmarkImportWarm"]
	c = s["BenchmarkImportCold"] / n["BenchmarkImportCold"]
	t = s["BenchmarkToolchainCold"] / n["BenchmarkToolchainCold"]
	if (t > 0) printf "symtypes cold %.2f ms, warm %.3f us; toolchain export data cold %.2f ms; cold ratio %.2fx\n", c/1e6, w/1e3, t/1e6, c/t
}'
