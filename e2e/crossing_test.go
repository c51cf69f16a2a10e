package e2e

import (
	"strings"
	"testing"
)

// crossingCells is a program in notebook form spread over cells as a user
// writes it: the types in one cell, their methods in a later one, then
// values of them handed to fmt, errors, encoding/json and text/template.
var crossingCells = []string{
	"import (\n\t\"encoding/json\"\n\t\"errors\"\n\t\"os\"\n\t\"text/template\"\n)\n" +
		"type Level int\ntype Point struct {\n\tX, Y int\n\thidden string\n\tTag string `json:\"tag,omitempty\"`\n}\n" +
		"type QueryError struct {\n\tQuery string\n\tErr error\n}\nvar ErrNotFound = errors.New(\"not found\")",
	"func (l Level) String() string { return [...]string{\"low\", \"mid\", \"high\"}[l] }\n" +
		"func (e *QueryError) Error() string { return \"query \" + e.Query + \": \" + e.Err.Error() }\n" +
		"func (e *QueryError) Unwrap() error { return e.Err }",
	"levels := []Level{0, 2}\np := Point{1, 2, \"h\", \"\"}\n" +
		"fmt.Println(levels, Level(1), p)\nfmt.Printf(\"%T %T %v %+v %d\\n\", p, levels, levels, p, levels)\n" +
		"fmt.Printf(\"%#v\\n\", p)",
	"err := fmt.Errorf(\"find: %w\", &QueryError{\"users\", ErrNotFound})\nfmt.Println(err)\n" +
		"fmt.Println(errors.Is(err, ErrNotFound))\nvar qe *QueryError\nif errors.As(err, &qe) {\n\tfmt.Println(\"as:\", qe.Query)\n}",
	"b, jerr := json.Marshal([]Point{{X: 1}, {Y: 2, Tag: \"t\"}})\nfmt.Println(string(b), jerr)\n" +
		"type Row struct {\n\tName string\n\tLevel Level\n}\n" +
		"tmpl := template.Must(template.New(\"r\").Parse(\"{{.Name}} is {{.Level}}\\n\"))\n_ = tmpl.Execute(os.Stdout, Row{\"disk\", 2})",
}

// TestCellValuesReachCompiledCodeAsGo checks the cells' output against go
// run of the same program.
func TestCellValuesReachCompiledCodeAsGo(t *testing.T) {
	var prog strings.Builder
	prog.WriteString("package main\n\nimport \"fmt\"\n")
	var body []string
	for i, c := range crossingCells {
		switch i {
		case 0, 1:
			prog.WriteString(c + "\n")
		default:
			body = append(body, c)
		}
	}
	// The last cell's type declaration is a statement in main, as in Go.
	prog.WriteString("func main() {\n" + strings.Join(body, "\n") + "\n}\n")
	want := goRun(t, prog.String())
	k := startKernel(t)
	var got strings.Builder
	for _, c := range crossingCells {
		got.WriteString(cellOutput(t, k, c))
	}
	if got.String() != want {
		t.Errorf("cells printed\n%s\ngo run printed\n%s", got.String(), want)
	}
}

// TestShownValueOfACellType checks the text/plain of a cell's last
// expression of a cell's type: the String method of its elements, the
// struct's fields.
func TestShownValueOfACellType(t *testing.T) {
	k := startKernel(t)
	cellOutput(t, k, "type Level int\nfunc (l Level) String() string { return [...]string{\"low\", \"mid\", \"high\"}[l] }\ntype P struct{ X int; hidden string }")
	for code, want := range map[string]string{
		"[]Level{0, 2}":              "[low high]",
		"map[string]Level{\"a\": 1}": "map[a:mid]",
		"Level(2)":                   "high",
		"P{1, \"h\"}":                "{1 h}",
	} {
		rep, outs := k.execute(code, nil)
		res := ofType(outs, "execute_result")
		if rep["status"] != "ok" || len(res) != 1 {
			t.Errorf("%s: reply %v, %d results", code, rep, len(res))
			continue
		}
		if got := dataOf(t, res[0])["text/plain"]; got != want {
			t.Errorf("%s shows %q, want %q (as fmt.Print prints it)", code, got, want)
		}
	}
}
