package symtypes

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Fake packages for the tests that need no toolchain.

type node struct {
	Name     string `json:"name"`
	Children []*node
	parent   *node
}

func (n *node) Add(c *node) *node { c.parent = n; n.Children = append(n.Children, c); return c }
func (n node) Len() int           { return len(n.Children) }

type walker interface {
	Walk(func(*node) bool) int
	private()
}

var counter int

func fakeTable() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		"example.com/tree/tree": {
			"Node":    reflect.ValueOf((*node)(nil)),
			"Walker":  reflect.ValueOf((*walker)(nil)),
			"_Walker": reflect.ValueOf((*struct{})(nil)), // yaegi's wrapper: skipped
			"Count":   reflect.ValueOf(&counter).Elem(),
			"New":     reflect.ValueOf(func(name string, opts ...int) *node { return &node{Name: name} }),
			"Chans":   reflect.ValueOf(func(in <-chan int, out chan<- string) {}),
			"Max":     reflect.ValueOf(constant.MakeFromLiteral("1e300", token.FLOAT, 0)),
			"Limit":   reflect.ValueOf(uint16(7)),
			"Old":     reflect.ValueOf(func() int { return 0 }),
			"Origin":  reflect.ValueOf(struct{ X, Y float64 }{}),
		},
		".": {"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{})},
	}
}

// TestFakeTable checks how each kind of table symbol comes out.
func TestFakeTable(t *testing.T) {
	src := Source{Path: "example.com/tree", Code: `package tree
// Old is the source's: it wins over the table's.
func Old(x string) string { return x }
func Map[T, U any](xs []T, f func(T) U) []U { return nil }`}
	im := New([]map[string]map[string]reflect.Value{fakeTable()}, []Source{src})
	pkg, err := im.Import("example.com/tree")
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Name() != "tree" {
		t.Errorf("package name %q, want tree (from the table key)", pkg.Name())
	}
	q := func(p *types.Package) string { return p.Name() }
	want := map[string]string{
		"Node":   "type tree.Node struct{Name string \"json:\\\"name\\\"\"; Children []*tree.Node; parent *tree.Node}",
		"Walker": "type tree.Walker interface{Walk(func(*tree.Node) bool) int; private()}",
		"Count":  "var tree.Count int",
		"New":    "func tree.New(string, ...int) *tree.Node",
		"Chans":  "func tree.Chans(<-chan int, chan<- string)",
		"Max":    "const tree.Max untyped float",
		"Limit":  "const tree.Limit uint16",
		"Old":    "func tree.Old(x string) string",
		"Map":    "func tree.Map[T, U any](xs []T, f func(T) U) []U",
		"Origin": "var tree.Origin struct{X float64; Y float64}",
	}
	for name, w := range want {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Errorf("%s: missing", name)
			continue
		}
		if g := types.ObjectString(obj, q); g != w {
			t.Errorf("%s: %s\n\twant %s", name, g, w)
		}
	}
	if obj := pkg.Scope().Lookup("_Walker"); obj != nil {
		t.Errorf("yaegi's wrapper _Walker is in the package: %v", obj)
	}
	// node and walker are unexported types of a package in no table (this
	// one), as gocl's wrappers are: they are made as the table's Node and
	// Walker.
	n := pkg.Scope().Lookup("Node").Type()
	ms := types.NewMethodSet(types.NewPointer(n))
	if ms.Len() != 2 || ms.Lookup(nil, "Add") == nil || ms.Lookup(nil, "Len") == nil {
		t.Errorf("method set of *Node: %v, want Add and Len", ms)
	}
	if ms := types.NewMethodSet(n); ms.Len() != 1 {
		t.Errorf("method set of Node: %v, want Len only", ms)
	}
	if c := pkg.Scope().Lookup("Limit").(*types.Const); c.Val().String() != "7" {
		t.Errorf("Limit = %v, want 7", c.Val())
	}
}

// TestCheckWithFakes type-checks a cell against the fake package: recursive
// types, variadic calls, channel directions and a generic of the source.
func TestCheckWithFakes(t *testing.T) {
	src := Source{Path: "example.com/tree", Code: "package tree\nfunc Map[T, U any](xs []T, f func(T) U) []U { return nil }"}
	im := New([]map[string]map[string]reflect.Value{fakeTable()}, []Source{src})
	info, err := check(t, im, `package main
import "example.com/tree"
func main() {
	root := tree.New("r", 1, 2)
	leaf := root.Add(tree.New("l")).Children[0].Children
	names := tree.Map([]int{1}, func(i int) string { return "" })
	in := make(chan int)
	tree.Chans(in, make(chan string))
	var x float64 = tree.Max
	_, _, _ = leaf, names, x
}`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for e, tv := range info.Types {
		got[types.ExprString(e)] = types.TypeString(tv.Type, func(p *types.Package) string { return p.Name() })
	}
	for expr, w := range map[string]string{
		"leaf":  "[]*tree.Node",
		"names": "[]string",
		"root":  "*tree.Node",
	} {
		if got[expr] != w {
			t.Errorf("%s: %q, want %q", expr, got[expr], w)
		}
	}
	_, err = check(t, im, "package main\nimport \"example.com/tree\"\nvar c = tree.Chans\nfunc main() { c(make(chan<- int), nil) }")
	if err == nil || !strings.Contains(err.Error(), "cannot use") {
		t.Errorf("passing a send-only chan where a receive-only one is wanted: %v, want a type error", err)
	}
}

func check(t *testing.T, imp types.Importer, src string) (*types.Info, error) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	_, err = (&types.Config{Importer: imp}).Check("main", fset, []*ast.File{f}, info)
	return info, err
}

// TestSourceErrors checks that a broken source and a missing package fail
// saying which package and why, and do not break other packages.
func TestSourceErrors(t *testing.T) {
	im := New([]map[string]map[string]reflect.Value{fakeTable()}, []Source{
		{Path: "example.com/bad", Code: "package bad\nfunc F() int { return \"\" }"},
		{Path: "example.com/loop", Code: "package loop\nimport \"example.com/loop\"\nvar X = loop.X"},
	})
	for path, want := range map[string]string{
		"example.com/bad":  "type-check the interpreted source of example.com/bad",
		"example.com/loop": "import cycle",
		"example.com/none": "not importable",
	} {
		if _, err := im.Import(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Import(%q): %v, want an error with %q", path, err, want)
		}
		if _, err := im.Import(path); err == nil {
			t.Errorf("second Import(%q) succeeded after the first failed", path)
		}
	}
	if _, err := im.Import("example.com/tree"); err != nil {
		t.Errorf("a good package after bad ones: %v", err)
	}
}

// TestConcurrentImport imports and type-checks from many goroutines (run
// with -race) and checks that every goroutine gets the same packages.
func TestConcurrentImport(t *testing.T) {
	im := newGocl()
	paths := []string{"fmt", "net/http", "encoding/json", "slices", "maps", "time", "strings", "go/ast"}
	var wg sync.WaitGroup
	got := make([][]*types.Package, 8)
	errs := make(chan error, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range paths {
				p := paths[(i+g)%len(paths)]
				pkg, err := im.Import(p)
				if err != nil {
					errs <- err
					return
				}
				got[g] = append(got[g], pkg)
			}
			if _, err := check(t, im, fmt.Sprintf(`package main
import ("fmt"; "net/http"; "slices"; "strings")
func main() { xs := strings.Fields("b a"); slices.Sort(xs); fmt.Println(xs, http.StatusOK, %d) }`, g)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for g := range got {
		for i, pkg := range got[g] {
			if want, _ := im.Import(paths[(i+g)%len(paths)]); pkg != want {
				t.Errorf("goroutine %d got another %s package", g, pkg.Path())
			}
		}
	}
}

// Point is a type of a fake compiled cell.
type Point struct{ X, Y int }

// TestAddCompiledCells adds the tables of compiled cells one by one, as the
// engine gets them, and type-checks a cell that uses both.
func TestAddCompiledCells(t *testing.T) {
	im := New([]map[string]map[string]reflect.Value{fakeTable()}, nil)
	if err := im.Add(map[string]map[string]reflect.Value{
		"goclsession/c1/c1": {"Point": reflect.ValueOf((*Point)(nil))},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := im.Import("goclsession/c1"); err != nil {
		t.Fatal(err)
	}
	if err := im.Add(map[string]map[string]reflect.Value{
		"goclsession/c2/c2": {"Mid": reflect.ValueOf(func(a, b Point) Point { return a })},
	}); err != nil {
		t.Fatal(err)
	}
	info, err := check(t, im, `package main
import ("goclsession/c1"; "goclsession/c2")
var m = c2.Mid(c1.Point{X: 1}, c1.Point{Y: 2}).X
func main() {}`)
	if err != nil {
		t.Fatalf("a cell using two compiled cells: %v", err)
	}
	calls := 0
	for e, tv := range info.Types {
		if call, ok := e.(*ast.CallExpr); ok && types.ExprString(call.Fun) == "c2.Mid" {
			calls++
			if g := types.TypeString(tv.Type, nil); g != "github.com/seed43a1e1ab/gocl/kernel/symtypes.Point" {
				t.Errorf("c2.Mid(...) is %s, want reflect's type, that c1.Point names", g)
			}
		}
	}
	if calls != 1 {
		t.Errorf("%d calls of c2.Mid have a type, want 1", calls)
	}
	err = im.Add(map[string]map[string]reflect.Value{"goclsession/c1/c1": {"Z": reflect.ValueOf(0)}})
	if err == nil || !strings.Contains(err.Error(), "imported already") {
		t.Errorf("Add to an imported package: %v, want an error", err)
	}
	if pkg, _ := im.Import("goclsession/c1"); pkg.Scope().Lookup("Z") != nil {
		t.Errorf("the failed Add changed the imported package")
	}
}
