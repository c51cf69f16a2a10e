package engine

import (
	"go/ast"
	"go/parser"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
)

// JupyterLab finds the file of a cell by hashing its source as the kernel
// says in debugInfo: tmpFilePrefix + Murmur2(source, hashSeed) +
// tmpFileSuffix. The engine derives the same path from each cell it runs.
const (
	hashSeed      = 0x676f636c // "gocl"
	tmpFileSuffix = ".go"
)

// tmpFilePrefix is the directory of dumped cells, one per kernel process
// (the engine's parent), so that a replacement engine finds the same files.
func tmpFilePrefix() string {
	return filepath.Join(os.TempDir(), "gocl_debug_"+strconv.Itoa(os.Getppid())) + string(filepath.Separator)
}

// pathOf is the path JupyterLab gives a cell's source.
func (d *debugState) pathOf(code string) string {
	return d.prefix + strconv.FormatUint(uint64(murmur2([]byte(code), hashSeed)), 10) + tmpFileSuffix
}

// murmur2 is MurmurHash2 (32 bits, x86) of data, as JupyterLab and
// ipykernel hash a cell's UTF-8 source.
func murmur2(data []byte, seed uint32) uint32 {
	const m = 0x5bd1e995
	h := seed ^ uint32(len(data))
	for len(data) >= 4 {
		k := uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24
		k *= m
		k ^= k >> 24
		k *= m
		h *= m
		h ^= k
		data = data[4:]
	}
	switch len(data) {
	case 3:
		h ^= uint32(data[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[0])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}

// breakableLines are the lines of a cell where a statement starts, in
// order: where a breakpoint can stop. The cell's model places each
// statement on its line (cellmodel.PosMap).
func breakableLines(code string) []int {
	seen := map[int]bool{}
	model, _ := cellmodel.Parse(code, cellmodel.Options{Name: "cell", Mode: parser.SkipObjectResolution, KeepGoing: true})
	for _, p := range model.Parts {
		n := p.Node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n.(type) {
			case nil, *ast.BlockStmt, *ast.EmptyStmt:
			case ast.Stmt:
				if pos, ok := model.Map.Position(n.Pos()); ok {
					seen[pos.Line] = true
				}
			}
			return true
		})
	}
	lines := make([]int, 0, len(seen))
	for l := range seen {
		lines = append(lines, l)
	}
	sort.Ints(lines)
	return lines
}

// nextBreakable is the first breakable line at or after line.
func nextBreakable(breakable []int, line int) (int, bool) {
	i := sort.SearchInts(breakable, line)
	if i == len(breakable) {
		return 0, false
	}
	return breakable[i], true
}
