package engine

import (
	"bytes"
	"go/parser"
	"go/printer"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// rewrittenSelects parses src (a file), rewrites its selects and prints it.
func rewrittenSelects(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	rewriteSelects(f)
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, f); err != nil {
		t.Fatal(err)
	}
	return commentGapRE.ReplaceAllString(b.String(), " //")
}

// commentGapRE matches the tabs go/printer puts before a line comment.
var commentGapRE = regexp.MustCompile(`[ \t]+//`)

var selLabelRE = regexp.MustCompile(`__gocl_sel\d+`)

// TestRewriteSelectsLabelsOnlyTheSelectsOwnBreaks checks which breaks the
// rewrite retargets: those that leave a select, not those of a switch, a
// for or a function literal inside it, nor the ones that already name a
// label.
func TestRewriteSelectsLabelsOnlyTheSelectsOwnBreaks(t *testing.T) {
	got := rewrittenSelects(t, `package p
func f(ch chan int) {
	for {
		select {
		case v := <-ch:
			if v == 0 {
				break // own 1
			}
			switch v {
			case 1:
				break // switch
			}
			for {
				break // for
			}
			_ = func() {
				for {
					break // literal
				}
			}
		default:
			break // own 2
		}
	}
out:
	for {
		select {
		case <-ch:
			break out
		}
	}
}
`)
	labels := selLabelRE.FindAllString(got, -1)
	if len(labels) == 0 || strings.Count(got, labels[0]) != 3 { // the label and the two own breaks
		t.Fatalf("want the first select labelled with two breaks naming it:\n%s", got)
	}
	for _, kept := range []string{"break // switch", "break // for", "break // literal", "break out"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q was changed:\n%s", kept, got)
		}
	}
	for _, own := range []string{"own 1", "own 2"} {
		if !strings.Contains(got, "break "+labels[0]+" // "+own) {
			t.Errorf("break %q does not name the select's label:\n%s", own, got)
		}
	}
	if strings.Count(got, "select {") != 2 {
		t.Errorf("both selects should still be there:\n%s", got)
	}
}

// TestRewriteSelectsMovesTheCellsLabel checks that a select the cell
// labelled gets a label of gocl's, which its plain breaks and the breaks by
// the cell's label name, while the cell's label moves to the block around
// it; a nested select gets its own.
func TestRewriteSelectsMovesTheCellsLabel(t *testing.T) {
	got := rewrittenSelects(t, `package p
func f(a, b chan int) {
L:
	select {
	case <-a:
		select {
		case <-b:
			break // inner
		}
		if len(a) > 0 {
			break L // by label
		}
		break // outer
	}
}
`)
	labels := selLabelRE.FindAllString(got, -1)
	if len(labels) != 5 || labels[0] == labels[1] {
		t.Fatalf("want an outer and an inner label (5 uses), got %v:\n%s", labels, got)
	}
	outer, inner := labels[0], labels[1]
	for _, want := range []string{"L:\n\t{\n\t" + outer + ":\n\t\tselect", "break " + inner + " // inner",
		"break " + outer + " // by label", "break " + outer + " // outer"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
}

// TestRewriteSelectsBlocksLabelledCases checks that a case holding a
// labelled statement gets its statements in a block, all but a final
// fallthrough.
func TestRewriteSelectsBlocksLabelledCases(t *testing.T) {
	got := rewrittenSelects(t, `package p
func f(k int) {
	switch k {
	case 1:
	L:
		for {
			break L
		}
		fallthrough
	case 2:
		k++
	}
}
`)
	if !regexp.MustCompile(`case 1:\n\t\t\{\n\t\tL:`).MatchString(got) || !strings.Contains(got, "}\n\t\tfallthrough\n\tcase 2:\n\t\tk++") {
		t.Errorf("case 1 should be a block followed by its fallthrough, case 2 unchanged:\n%s", got)
	}
}

// TestSelectBreakLeavesOnlyTheSelect runs the forms yaegi got wrong: a plain
// break in a select case (with and without default) inside a for loop, in a
// function, at a cell's top level, in a goroutine, in a switch case and
// outside any loop. Each must leave only the select, as in Go.
func TestSelectBreakLeavesOnlyTheSelect(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `func fill(vs ...int) chan int {
	ch := make(chan int, len(vs))
	for _, v := range vs {
		ch <- v
	}
	return ch
}

func inFunc(withDefault bool) (sum, rounds int) {
	ch := fill(3, 5, 12, 1)
	for len(ch) > 0 {
		rounds++
		if withDefault {
			select {
			case v := <-ch:
				if v == 5 {
					break
				}
				sum += v
			default:
				break
			}
		} else {
			select {
			case v := <-ch:
				if v == 5 {
					break
				}
				sum += v
			}
		}
	}
	return sum, rounds
}

func noLoop() string {
	select {
	case <-fill(1):
		if true {
			break
		}
		return "the break returned"
	}
	return "after the select"
}

func inCase(k int) string {
	switch k {
	case 1:
		select {
		default:
			if k == 1 {
				break
			}
			return "not broken"
		}
		return "after the select in a case"
	}
	return ""
}`)
	_, r := ok(t, e, `fmt.Println(inFunc(true))
fmt.Println(inFunc(false))
fmt.Println(noLoop())
fmt.Println(inCase(1))
done := make(chan [2]int)
go func() { s, n := inFunc(true); done <- [2]int{s, n} }()
fmt.Println(<-done)
ch := fill(7, 8, 9)
total := 0
for len(ch) > 0 {
	select {
	case v := <-ch:
		if v == 8 {
			break
		}
		total += v
	default:
		break
	}
	total += 100
}
fmt.Println("top level", total)`)
	expect(t, "output", r.text("stdout"), "16 4\n16 4\nafter the select\nafter the select in a case\n[16 4]\ntop level 316\n")
}

// TestSelectBreakLabelStillWorks checks the labelled breaks the rewrite
// leaves alone, next to rewritten ones.
func TestSelectBreakLabelStillWorks(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `ch := make(chan int, 4)
for _, v := range []int{3, 5, 12, 1} {
	ch <- v
}
sum, rounds := 0, 0
loop:
for {
	rounds++
	select {
	case v := <-ch:
		if v > 10 {
			break loop
		}
		if v == 5 {
			break
		}
		sum += v
	default:
		break loop
	}
}
fmt.Println("sum", sum, "rounds", rounds, "left", len(ch))`)
	expect(t, "output", r.text("stdout"), "sum 3 rounds 3 left 1\n")
}

// TestRewriteSelectsMovesBackGotos checks that a goto from a select case
// back before the select becomes a break with a number, and the goto runs
// after the select; a forward goto stays.
func TestRewriteSelectsMovesBackGotos(t *testing.T) {
	got := rewrittenSelects(t, `package p
func f(ch chan int) {
again:
	select {
	case <-ch:
		goto again // back
	default:
		goto done // forward
	}
done:
}
`)
	if !strings.Contains(got, "goto done // forward") {
		t.Errorf("the forward goto should stay:\n%s", got)
	}
	flag := regexp.MustCompile(`(__gocl_goto\d+) = 1`).FindStringSubmatch(got)
	if flag == nil {
		t.Fatalf("the back goto should set a number:\n%s", got)
	}
	labels := selLabelRE.FindAllString(got, -1)
	if len(labels) < 2 || !strings.Contains(got, "break "+labels[0]) {
		t.Errorf("the back goto should break out of the select:\n%s", got)
	}
	after := regexp.MustCompile(`(?s)\n\t\tif ` + flag[1] + ` == 1 \{\s*` + flag[1] + ` = 0\s*goto again\s*\}`)
	if !after.MatchString(got) || strings.Count(got, "goto again") != 1 {
		t.Errorf("the goto should run after the select:\n%s", got)
	}
}

// TestSelectGotoBackRuns runs the gotos out of a select that crashed yaegi's
// compiler (endless recursion): a retry in a function and at a cell's top
// level, from an inner select, and to a select's own label, which a goto
// from outside the select also names.
func TestSelectGotoBackRuns(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `func retry() string {
	tries := 0
	results := make(chan int, 1)
again:
	select {
	case v := <-results:
		return fmt.Sprint("got ", v, " after ", tries, " tries")
	case <-time.After(time.Millisecond):
		if tries++; tries == 3 {
			results <- 42
		}
		goto again
	}
}

func ownLabel() string {
	k, out := 0, ""
L:
	select {
	default:
		k++
		if k == 2 {
			break L
		}
		if k < 4 {
			out += fmt.Sprint("r", k, " ")
			goto L
		}
		out += "done "
	}
	if k < 6 {
		out += "outside "
		goto L
	}
	return out
}`)
	_, r := ok(t, e, `fmt.Println(retry())
fmt.Println(ownLabel())
n := 0
a, b := make(chan int, 10), make(chan int, 10)
outer:
n++
a <- n
b <- n
select {
case x := <-a:
	select {
	case y := <-b:
		if x+y < 6 {
			goto outer
		}
		fmt.Println("inner done", x, y)
	}
}`)
	expect(t, "output", r.text("stdout"), "got 42 after 3 tries\nr1 outside r3 done outside done outside done \ninner done 3 3\n")
}

// TestLabelInACaseRuns runs labels that stand in a switch or select case,
// which yaegi rejected as undefined, next to a fallthrough.
func TestLabelInACaseRuns(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `func f(k int) string {
	n, out := 0, ""
	switch k {
	case 1:
	L:
		for {
			n++
			if n > 3 {
				break L
			}
		}
		out += fmt.Sprint("n=", n, " ")
		fallthrough
	case 2:
		out += "two "
	}
	select {
	default:
	S:
		select {
		default:
			if n > 0 {
				break S
			}
			if n == 0 {
				break
			}
			out += "not reached "
		}
		out += "after S"
		goto end
	}
end:
	return out
}
fmt.Println(f(1))
fmt.Println(f(2))`)
	expect(t, "output", r.text("stdout"), "n=4 two after S\ntwo after S\n")
}

// TestSelectContinueRuns runs continues from select cases in loops whose
// bodies break after the select, which crashed yaegi's compiler (endless
// recursion), and a continue inside a for inside a select, which is that
// for's own.
func TestSelectContinueRuns(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `func untilThree() int {
	n := 0
	for {
		n++
		select {
		default:
			if n < 3 {
				continue
			}
		}
		break
	}
	return n
}

func mixed() []int {
	ch := make(chan int, 20)
	for i := 0; i < 20; i++ {
		ch <- i
	}
	out := []int{}
outer:
	for round := 0; round < 6; round++ {
		select {
		case v := <-ch:
			for j := 0; j < 3; j++ {
				if j == 1 {
					continue
				}
				out = append(out, 100*j)
			}
			if v%2 == 0 {
				continue outer
			}
			if v > 3 {
				continue
			}
			out = append(out, v)
		}
		out = append(out, -1)
		if round == 4 {
			break
		}
	}
	return out
}`)
	_, r := ok(t, e, "fmt.Println(untilThree(), mixed())")
	// go run prints this.
	expect(t, "output", r.text("stdout"), "3 [0 200 0 200 1 -1 0 200 0 200 3 -1 0 200 0 200]\n")
}

// TestRewriteSelectsMovesContinues checks that a continue that leaves a
// select runs after it, and that a continue of a for inside the select
// stays.
func TestRewriteSelectsMovesContinues(t *testing.T) {
	got := rewrittenSelects(t, `package p
func f(ch chan int) {
	for {
		select {
		case <-ch:
			for {
				continue // inner for
			}
			continue // the loop
		}
		break
	}
}
`)
	if !strings.Contains(got, "continue // inner for") || strings.Contains(got, "continue // the loop") {
		t.Errorf("only the loop's continue should move:\n%s", got)
	}
	if !regexp.MustCompile(`(?s)if __gocl_goto\d+ == 1 \{\s*__gocl_goto\d+ = 0\s*continue\s*\}`).MatchString(got) {
		t.Errorf("the loop's continue should run after the select:\n%s", got)
	}
}

// TestSelectBreakOfARangeLoop runs a break by the label of a range loop from
// a select's receive case, which yaegi took for a break of the select
// only.
func TestSelectBreakOfARangeLoop(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `done := make(chan struct{})
close(done)
res := []int{}
rl:
for _, x := range []int{5, 6} {
	select {
	case <-done:
		break rl
	default:
	}
	res = append(res, x)
}
fmt.Println(res)`)
	expect(t, "output", r.text("stdout"), "[]\n")
}

// TestRewriteSelectsLeavesPlainSelects checks that a select with no jump
// out of it stays as written.
func TestRewriteSelectsLeavesPlainSelects(t *testing.T) {
	got := rewrittenSelects(t, `package p
func f(ch chan int) int {
	for {
		select {
		case v := <-ch:
			return v
		default:
			for {
				break
			}
		}
	}
}
`)
	if strings.Contains(got, helperPrefix) {
		t.Errorf("a select with no jump out of it was rewritten:\n%s", got)
	}
}
