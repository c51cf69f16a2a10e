package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Gocl runs cells through the real binary: each program is a notebook that
// `gocl run` executes in a fresh process, the cheapest real path (a few
// milliseconds to start) and one that isolates every program. gocl run stops
// at the first failing cell, as a user would.
type Gocl struct {
	// Bin is the gocl binary.
	Bin string
	// Limit is the time a program may take; past it, the process is killed
	// and the program counts as hung. gocl's own --timeout per cell is set
	// a little shorter, so that gocl reports it first.
	Limit time.Duration
	// Dir is a scratch directory for the notebooks.
	Dir string
}

// Run executes cells in order in one notebook named name and returns what
// they did together: the stdout streams of the cells, up to the first error.
func (g Gocl) Run(name string, cells []string) Outcome {
	dir, err := os.MkdirTemp(g.Dir, strings.TrimSuffix(name, ".go")+"-")
	if err != nil {
		return Outcome{Crashed: true, Err: err.Error()}
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "cells.ipynb"), filepath.Join(dir, "out.ipynb")
	if err := os.WriteFile(in, notebookJSON(cells), 0o644); err != nil {
		return Outcome{Crashed: true, Err: err.Error()}
	}
	cellLimit := g.Limit * 3 / 4
	// --allow-errors: gocl run writes a notebook only when every cell ran
	// (as nbconvert); outcomeOf reads the cells up to the first error.
	cmd := exec.Command(g.Bin, "run", in, "-o", out, "--allow-errors",
		"--timeout", fmt.Sprintf("%.3fs", cellLimit.Seconds()))
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	hung, err := runLimited(cmd, g.Limit)
	if hung {
		return Outcome{Hung: true}
	}
	raw, rerr := os.ReadFile(out)
	if rerr != nil && strings.Contains(log.String(), "did not stop after its timeout") {
		return Outcome{Hung: true}
	}
	if rerr != nil {
		return Outcome{Crashed: true, Err: fmt.Sprintf("gocl run wrote no notebook (%v): %s", err, tail(log.String(), 2000))}
	}
	o, perr := outcomeOf(raw)
	if perr != nil {
		return Outcome{Crashed: true, Err: perr.Error()}
	}
	return o
}

// notebookJSON is an nbformat 4.5 notebook of code cells.
func notebookJSON(cells []string) []byte {
	type cell struct {
		ID             string   `json:"id"`
		CellType       string   `json:"cell_type"`
		Metadata       struct{} `json:"metadata"`
		Source         string   `json:"source"`
		Outputs        []any    `json:"outputs"`
		ExecutionCount *int     `json:"execution_count"`
	}
	nb := struct {
		NBFormat      int      `json:"nbformat"`
		NBFormatMinor int      `json:"nbformat_minor"`
		Metadata      struct{} `json:"metadata"`
		Cells         []cell   `json:"cells"`
	}{NBFormat: 4, NBFormatMinor: 5}
	for i, src := range cells {
		nb.Cells = append(nb.Cells, cell{ID: fmt.Sprintf("cell-%d", i+1), CellType: "code", Source: src, Outputs: []any{}})
	}
	b, _ := json.Marshal(nb)
	return b
}

// outcomeOf reads the outputs of an executed notebook.
func outcomeOf(raw []byte) (Outcome, error) {
	var nb struct {
		Cells []struct {
			Outputs []struct {
				OutputType string   `json:"output_type"`
				Name       string   `json:"name"`
				Text       text     `json:"text"`
				EName      string   `json:"ename"`
				EValue     string   `json:"evalue"`
				Traceback  []string `json:"traceback"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		return Outcome{}, fmt.Errorf("gocl run wrote an unreadable notebook: %v", err)
	}
	var o Outcome
	var stdout, output strings.Builder
	for _, c := range nb.Cells {
		if o.Err != "" || o.Hung {
			break // the program stopped at its first error
		}
		for _, out := range c.Outputs {
			if out.OutputType == "stream" {
				output.WriteString(string(out.Text))
			}
			switch {
			case out.OutputType == "stream" && out.Name == "stdout":
				stdout.WriteString(string(out.Text))
			case out.OutputType == "error" && o.Err == "" && !o.Hung:
				switch out.EName {
				case "TimeoutError", "Interrupted":
					o.Hung = true
				default:
					o.Err = out.EName + ": " + out.EValue
					if len(out.Traceback) > 0 {
						o.Err = strings.Join(out.Traceback, "\n")
					}
					o.Runtime = strings.Contains(strings.ToLower(out.EName), "panic")
				}
			}
		}
	}
	o.Stdout, o.Output = stdout.String(), output.String()
	return o, nil
}

// text is an nbformat multiline string: a string or a list of strings.
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = text(s)
		return nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*t = text(strings.Join(l, ""))
	return nil
}
