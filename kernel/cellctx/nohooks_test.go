package cellctx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// reachers are the packages through which cells and compiled code reach the
// running request. They must find it through Running (or Current) alone.
var reachers = []string{".", "../display", "../comm", "../widgets", "../../cell"}

// allowedState are package-level variables of those packages that hold a
// function, a context or a route, each with why it is not a per-request hook.
var allowedState = map[string]string{
	"cellctx.running":   "the one running request",
	"comm.resets":       "OnReset's functions: per interpreter, registered once by packages, not per request",
	"comm.lastRoute":    "the last request that carried a comm message, for messages sent when none runs",
	"widgets.areaCtx":   "the cell the callbacks' output area belongs to, compared with Current(); widget state",
	"widgets.current":   "the Outputs of the callbacks running now, widget state",
	"display.renderers": "the fixed table of MIME renderers",
	"display.now":       "the progress bar's clock, replaced by tests",
	"cellctx.runName":   "Run's name, for InRequest",
	"cellctx.errNoSink": "an error value",
}

// TestNoHooks fails when a package that cells reach the running request
// through gets a hook of its own again: an exported Set or Install function
// that takes a function, context or interface (the shape of the
// display.SetPublisher, comm.SetPublisher, capture.SetFlusher and
// cellctx.Set this package replaced), or a package-level variable that holds
// a function, a context, a sink, a capturer or an atomic pointer, unless
// allowedState says why it is no hook.
func TestNoHooks(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range reachers {
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", dir, err)
		}
		if len(pkgs) == 0 {
			t.Fatalf("no package in %s", dir)
		}
		for name, pkg := range pkgs {
			for path, f := range pkg.Files {
				for _, d := range f.Decls {
					checkDecl(t, name, filepath.Base(path), fset, d)
				}
			}
		}
	}
}

func checkDecl(t *testing.T, pkg, file string, fset *token.FileSet, d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		n := d.Name.Name
		if d.Recv != nil || !ast.IsExported(n) || !(strings.HasPrefix(n, "Set") || strings.HasPrefix(n, "Install")) {
			return
		}
		for _, p := range d.Type.Params.List {
			if hooky(p.Type) {
				t.Errorf("%s: %s.%s installs a hook; the running request reaches code through cellctx.Running alone",
					fset.Position(d.Pos()), pkg, n)
			}
		}
	case *ast.GenDecl:
		if d.Tok != token.VAR {
			return
		}
		for _, s := range d.Specs {
			vs := s.(*ast.ValueSpec)
			bad := vs.Type != nil && hooky(vs.Type)
			for _, v := range vs.Values {
				if _, ok := v.(*ast.FuncLit); ok || hooky(v) {
					bad = true
				}
			}
			for _, id := range vs.Names {
				key := pkg + "." + id.Name
				if bad && allowedState[key] == "" {
					t.Errorf("%s: package-level %s holds a function, context, sink or route: a per-request hook? "+
						"Reach the running request through cellctx.Running instead, or say in allowedState why it is none",
						fset.Position(id.Pos()), key)
				}
			}
		}
	}
}

// hooky reports whether a type (or a value's expression) mentions a function
// type, a context, a sink, a capturer, an interface or an atomic pointer.
func hooky(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncType, *ast.InterfaceType:
			found = true
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				switch id.Name + "." + n.Sel.Name {
				case "context.Context", "atomic.Pointer", "atomic.Value", "cellio.Sink", "cellio.CommSink":
					found = true
				}
			}
		case *ast.Ident:
			switch n.Name {
			case "Capturer", "Sink", "IO", "Request":
				found = true
			}
		}
		return !found
	})
	return found
}
