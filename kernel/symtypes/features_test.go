package symtypes

import (
	"go/token"
	"strings"
	"testing"
)

// features are small programs, each about one thing the Importer must get
// right; checkProgram compares each with the toolchain.
var features = map[string]string{
	"unexported interface methods": `package main
import ("go/ast"; "testing"; "reflect")
var e ast.Expr = &ast.Ident{Name: "x"}
var s ast.Stmt = &ast.ReturnStmt{}
var tb testing.TB = &testing.T{}
var rt reflect.Type = reflect.TypeOf(0)
func main() { _, _, _, _ = e, s, tb, rt }`,
	"generic instances in compiled APIs": `package main
import ("strings"; "bytes"; "iter")
func main() {
	seq := strings.SplitSeq("a,b", ",")
	var s iter.Seq[string] = seq
	for part := range strings.Lines("a\nb") { _ = part }
	for b := range bytes.SplitSeq([]byte("a b"), []byte(" ")) { _ = b }
	_ = s
}`,
	"aliases and wrappers": `package main
import ("os"; "log"; "io/fs")
func main() {
	var fi os.FileInfo
	var m os.FileMode = fs.ModeDir
	l := log.New(os.Stderr, "", 0)
	var l2 *log.Logger = l
	l2.Println(fi, m)
}`,
	"untyped constants": `package main
import ("unicode/utf8"; "unicode"; "math"; "os"; "time")
func main() {
	r := utf8.RuneError
	var f float32 = math.Pi
	big := math.MaxUint64 / 2
	sep := os.PathSeparator
	d := 3 * time.Second
	const c = unicode.MaxRune + 1
	_, _, _, _, _ = r, f, big, sep, d
}`,
	"channels, funcs, structs": `package main
import ("time"; "context"; "net/http"; "encoding/json"; "sync")
type T struct { A int ` + "`json:\"a\"`" + `; sync.Mutex }
func main() {
	var tick <-chan time.Time = time.Tick(time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	<-ctx.Done()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x", nil)
	req.Header.Set("a", "b")
	var t T
	t.Lock()
	b, err := json.MarshalIndent(t, "", " ")
	_, _, _ = tick, b, err
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
}`,
	"recursive and embedded types": `package main
import ("container/list"; "container/ring"; "bufio"; "os"; "go/ast")
func main() {
	l := list.New()
	e := l.PushBack(1).Next()
	r := ring.New(3).Next().Prev()
	rw := bufio.NewReadWriter(bufio.NewReader(os.Stdin), bufio.NewWriter(os.Stdout))
	n, err := rw.WriteString("x")
	var f ast.File
	for _, d := range f.Decls { _ = d.Pos() }
	_, _, _, _ = e, r, n, err
}`,
	"generic sources": `package main
import ("slices"; "maps"; "cmp"; "sort")
func main() {
	xs := []int{3, 1, 2}
	slices.Sort(xs)
	i, found := slices.BinarySearch(xs, 2)
	m := map[string]int{"a": 1}
	m2 := maps.Clone(m)
	c := cmp.Compare(1, 2)
	sort.Ints(xs)
	_, _, _, _ = i, found, m2, c
}`,
}

// TestFeaturesMatchToolchain checks each feature program with the Importer
// and with the toolchain.
func TestFeaturesMatchToolchain(t *testing.T) {
	orc := oracle(t)
	im := gocl()
	for name, src := range features {
		o := checkProgram(token.NewFileSet(), name+".go", []byte(src), orc, im)
		switch {
		case o.skip != "":
			t.Errorf("%s: not compared: %s", name, o.skip)
		case len(o.diffs) > 0:
			t.Errorf("%s differs from the toolchain:\n\t%s", name, strings.Join(o.diffs, "\n\t"))
		}
	}
}
