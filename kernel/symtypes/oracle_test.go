package symtypes

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/symbols"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
)

// The oracle is go/types with the toolchain's export data: what `go build`
// would see. The tests compare what the Importer gives with it.

var (
	oracleOnce sync.Once
	oracleImp  types.Importer
	oracleErr  error
	// oracleExports maps an import path to its export data file.
	oracleExports = map[string]string{}
)

// oracle returns an importer that reads the export data `go list -export`
// gives for the packages of the tables (one go command for all, instead of
// one per package; the export data of a package holds what it needs of its
// dependencies).
func oracle(t testing.TB) types.Importer {
	t.Helper()
	oracleOnce.Do(func() {
		args := []string{"list", "-export", "-f", "{{.ImportPath}}={{.Export}}"}
		for _, p := range gocl().Paths() {
			if p != "github.com/traefik/yaegi" { // yaegi's hooks, no package
				args = append(args, p)
			}
		}
		cmd := exec.Command("go", args...)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			oracleErr = fmt.Errorf("go list -export: %w", err)
			return
		}
		exports := oracleExports
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if path, file, ok := strings.Cut(line, "="); ok && file != "" {
				exports[path] = file
			}
		}
		lookup := func(path string) (io.ReadCloser, error) {
			file, ok := exports[path]
			if !ok {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(file)
		}
		oracleImp = importer.ForCompiler(token.NewFileSet(), "gc", lookup)
	})
	if oracleErr != nil {
		t.Skipf("no toolchain oracle: %v", oracleErr)
	}
	return oracleImp
}

var (
	sharedOnce sync.Once
	sharedImp  *Importer
)

// gocl returns the importer for the tables and sources a gocl cell sees.
func gocl() *Importer {
	sharedOnce.Do(func() { sharedImp = newGocl() })
	return sharedImp
}

func newGocl() *Importer {
	var srcs []Source
	for _, s := range stdlib.Sources() {
		srcs = append(srcs, Source(s))
	}
	return New([]map[string]map[string]reflect.Value{stdlib.Symbols, symbols.Symbols}, srcs)
}

// canon writes a type as types.TypeString does, qualified by package path,
// but without what reflect cannot know: parameter names, aliases (byte,
// rune, any, os.FileInfo) and how an interface was written (its method set
// is listed, sorted).
func canon(t types.Type) string {
	var b strings.Builder
	writeCanon(&b, t)
	return b.String()
}

func writeCanon(b *strings.Builder, t types.Type) {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		switch t.Kind() {
		case types.Byte:
			b.WriteString("uint8")
		case types.Rune:
			b.WriteString("int32")
		case types.UnsafePointer:
			b.WriteString("unsafe.Pointer")
		default:
			b.WriteString(t.Name())
		}
	case *types.Named:
		if t.Obj().Pkg() != nil {
			b.WriteString(t.Obj().Pkg().Path() + ".")
		}
		if strings.Contains(t.Obj().Name(), "[") {
			b.WriteString("reflect-named:") // an instance the Importer could not make
		}
		b.WriteString(t.Obj().Name())
		if args := t.TypeArgs(); args.Len() > 0 {
			b.WriteString("[")
			for i := 0; i < args.Len(); i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				writeCanon(b, args.At(i))
			}
			b.WriteString("]")
		}
	case *types.Pointer:
		b.WriteString("*")
		writeCanon(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		writeCanon(b, t.Elem())
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		writeCanon(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		writeCanon(b, t.Key())
		b.WriteString("]")
		writeCanon(b, t.Elem())
	case *types.Chan:
		b.WriteString([]string{"chan ", "chan<- ", "<-chan "}[t.Dir()])
		writeCanon(b, t.Elem())
	case *types.Signature:
		b.WriteString("func")
		writeSig(b, t)
	case *types.Struct:
		b.WriteString("struct{")
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if i > 0 {
				b.WriteString("; ")
			}
			if !f.Embedded() {
				b.WriteString(f.Name() + " ")
			}
			writeCanon(b, f.Type())
			if tag := t.Tag(i); tag != "" {
				fmt.Fprintf(b, " %q", tag)
			}
		}
		b.WriteString("}")
	case *types.Interface:
		var ms []string
		for i := 0; i < t.NumMethods(); i++ {
			m := t.Method(i)
			var mb strings.Builder
			mb.WriteString(m.Name())
			writeSig(&mb, m.Type().(*types.Signature))
			ms = append(ms, mb.String())
		}
		sort.Strings(ms)
		if t.IsComparable() && !t.IsMethodSet() {
			ms = append(ms, "comparable")
		}
		b.WriteString("interface{" + strings.Join(ms, "; ") + "}")
	case *types.Tuple:
		writeTuple(b, t, false)
	default:
		b.WriteString(types.TypeString(t, nil))
	}
}

func writeSig(b *strings.Builder, s *types.Signature) {
	writeTuple(b, s.Params(), s.Variadic())
	if s.Results().Len() > 0 {
		b.WriteString(" ")
		writeTuple(b, s.Results(), false)
	}
}

func writeTuple(b *strings.Builder, t *types.Tuple, variadic bool) {
	b.WriteString("(")
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := t.At(i).Type()
		if s, ok := typ.(*types.Slice); ok && variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = s.Elem()
		}
		writeCanon(b, typ)
	}
	b.WriteString(")")
}
