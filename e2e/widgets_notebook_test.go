package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// exploreNotebook is the widget notebook: its controls re-run a copy and
// redraw a card, a timeline and a plot in Output widgets.
const exploreNotebook = "07-explore-transfers.ipynb"

// widgetNotebook is what checkWidgetNotebook reads of an executed notebook.
type widgetNotebook struct {
	Cells []struct {
		CellType       string `json:"cell_type"`
		ExecutionCount *int   `json:"execution_count"`
		Outputs        []struct {
			OutputType string                     `json:"output_type"`
			Name       string                     `json:"name"`
			Text       json.RawMessage            `json:"text"`
			Data       map[string]json.RawMessage `json:"data"`
			Ename      string                     `json:"ename"`
			Evalue     string                     `json:"evalue"`
		} `json:"outputs"`
	} `json:"cells"`
	Metadata struct {
		Widgets map[string]struct {
			VersionMajor int `json:"version_major"`
			VersionMinor int `json:"version_minor"`
			State        map[string]struct {
				ModelName   string         `json:"model_name"`
				ModelModule string         `json:"model_module"`
				ModuleVer   string         `json:"model_module_version"`
				State       map[string]any `json:"state"`
			} `json:"state"`
		} `json:"widgets"`
	} `json:"metadata"`
}

// checkWidgetNotebook returns what is wrong with an executed notebook 07:
// errors, cells that did not run, no device line; a page without widgets
// (no widget-view outputs, or views of models missing from metadata.widgets);
// and, for readers without a kernel, no card, timeline and plot in the
// outputs' static HTML, or a card that does not show lastCard (the state the
// notebook's last Go-driven change left).
func checkWidgetNotebook(path, lastCard string) (device string, problems []string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", []string{err.Error()}
	}
	var nb widgetNotebook
	if err := json.Unmarshal(raw, &nb); err != nil {
		return "", []string{fmt.Sprintf("%s is not a notebook: %v", path, err)}
	}
	ws, ok := nb.Metadata.Widgets["application/vnd.jupyter.widget-state+json"]
	if !ok || ws.VersionMajor != 2 || ws.VersionMinor != 0 {
		problems = append(problems, "no widget state 2.0 in metadata.widgets")
	}
	var views, cards, timelines, plots int
	lastCardSeen := false
	models := map[string]int{}
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		if c.ExecutionCount == nil {
			problems = append(problems, fmt.Sprintf("cell %d did not run", i))
		}
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "error":
				problems = append(problems, fmt.Sprintf("cell %d: %s: %s", i, o.Ename, o.Evalue))
			case "stream":
				text := multiline(o.Text)
				if o.Name == "stderr" && strings.TrimSpace(text) != "" {
					problems = append(problems, fmt.Sprintf("cell %d wrote to stderr: %q", i, text))
				}
				if m := deviceLine.FindStringSubmatch(text); m != nil && device == "" {
					device = m[1]
				}
			}
			if v, ok := o.Data["application/vnd.jupyter.widget-view+json"]; ok {
				views++
				var view struct {
					ModelID      string `json:"model_id"`
					VersionMajor int    `json:"version_major"`
				}
				if json.Unmarshal(v, &view) != nil || view.VersionMajor != 2 {
					problems = append(problems, fmt.Sprintf("cell %d: bad widget view %s", i, v))
				} else if _, ok := ws.State[view.ModelID]; !ok {
					problems = append(problems, fmt.Sprintf("cell %d shows widget %s, which metadata.widgets lacks", i, view.ModelID))
				}
			}
			html := multiline(o.Data["text/html"])
			if strings.Contains(html, ">device time</td>") && strings.Contains(html, ">host blocked<") {
				cards++
				if strings.Contains(html, lastCard) {
					lastCardSeen = true
				}
			}
			if strings.Contains(html, "<svg") && strings.Contains(html, `class="gocl-timeline"`) { // the timeline's stable marker
				timelines++
			}
			if strings.Contains(html, "<svg") && strings.Contains(html, "GB/s seen by the host") {
				plots++
			}
		}
	}
	for id, m := range ws.State {
		models[m.ModelName]++
		if m.ModelName == "OutputModel" { // a callback's error lands in its Output
			outs, _ := m.State["outputs"].([]any)
			for _, o := range outs {
				if o, _ := o.(map[string]any); o["output_type"] == "error" {
					problems = append(problems, fmt.Sprintf("Output widget %s holds an error: %v: %v", id, o["ename"], o["evalue"]))
				}
			}
		}
		if m.ModelName == "OutputModel" && m.ModelModule != "@jupyter-widgets/output" ||
			strings.HasSuffix(m.ModelName, "SliderModel") && (m.ModelModule != "@jupyter-widgets/controls" || m.ModuleVer != "2.0.0") {
			problems = append(problems, fmt.Sprintf("%s from %s %s", m.ModelName, m.ModelModule, m.ModuleVer))
		}
	}
	for _, want := range []string{"FloatLogSliderModel", "DropdownModel", "ToggleButtonsModel", "OutputModel", "PlayModel", "LabelModel"} {
		if models[want] == 0 {
			problems = append(problems, "metadata.widgets has no "+want)
		}
	}
	if device == "" {
		problems = append(problems, `no "Device: ..." line in the outputs`)
	}
	if views < 5 {
		problems = append(problems, fmt.Sprintf("%d widget views, want at least 5", views))
	}
	if cards < 2 || timelines < 1 || plots < 1 {
		problems = append(problems, fmt.Sprintf("static copies: %d cards, %d timelines, %d plots; want at least 2, 1, 1", cards, timelines, plots))
	}
	if lastCard != "" && !lastCardSeen {
		problems = append(problems, fmt.Sprintf("no card shows %q: the static copy did not follow the last change", lastCard))
	}
	return device, problems
}

// TestExploreNotebook runs notebook 07 through gocl run and through
// nbconvert --execute, and checks both as a reader without a kernel sees
// them: its last Go-driven change (the largest size, 8 MB at GOCL_N=1e6)
// must be in the saved card.
func TestExploreNotebook(t *testing.T) {
	needOpenCL(t)
	const lastCard = "8.00 MB"
	// At smallN, and at the browser test's size, where the buffer (800 KB)
	// is smaller than some controls' defaults elsewhere.
	for _, n := range []struct{ n, last string }{{smallN, lastCard}, {"100000", "800 KB"}} {
		t.Run("gocl run N="+n.n, func(t *testing.T) {
			dir := t.TempDir()
			in := copyNotebook(t, exploreNotebook, dir)
			out := filepath.Join(dir, "out.ipynb")
			log, err := runLogged(t, 3*time.Minute, exec.Command(goclBin, "run", in, "-o", out, "--kernel-env", "GOCL_N="+n.n))
			if err != nil {
				t.Fatalf("gocl run: %v\n%s", err, log)
			}
			device, problems := checkWidgetNotebook(out, n.last)
			for _, p := range problems {
				t.Error(p)
			}
			t.Logf("ran on %s", device)
		})
	}
	t.Run("nbconvert", func(t *testing.T) {
		jupyter, err := exec.LookPath("jupyter")
		if err != nil {
			t.Skip("jupyter not installed (Debian: jupyter-nbconvert, python3-nbclient)")
		}
		prefix := t.TempDir()
		if out, err := exec.Command(goclBin, "install", "--prefix", prefix).CombinedOutput(); err != nil {
			t.Fatalf("gocl install --prefix: %v\n%s", err, out)
		}
		dir := t.TempDir()
		in := copyNotebook(t, exploreNotebook, dir)
		cmd := exec.Command(jupyter, "nbconvert", "--to", "notebook", "--execute",
			"--ExecutePreprocessor.kernel_name=gocl", "--ExecutePreprocessor.timeout=180",
			"--output", "out.ipynb", "--output-dir", dir, in)
		cmd.Env = append(os.Environ(),
			"JUPYTER_PATH="+filepath.Join(prefix, "share", "jupyter"),
			"JUPYTER_DATA_DIR="+filepath.Join(prefix, "data"),
			"JUPYTER_RUNTIME_DIR="+filepath.Join(prefix, "runtime"),
			"GOCL_N="+smallN)
		log, err := runLogged(t, 4*time.Minute, cmd)
		if err != nil {
			t.Fatalf("nbconvert --execute: %v\n%s", err, log)
		}
		device, problems := checkWidgetNotebook(filepath.Join(dir, "out.ipynb"), lastCard)
		for _, p := range problems {
			t.Error(p)
		}
		t.Logf("ran on %s", device)
	})
}

// TestExploreNotebookCommitted checks the committed outputs of notebook 07:
// every cell ran without errors, and it reads sensibly without a kernel.
func TestExploreNotebookCommitted(t *testing.T) {
	device, problems := checkWidgetNotebook(filepath.Join(notebooksDir(t), exploreNotebook), "")
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("committed outputs from %s", device)
}

// TestCheckWidgetNotebookCatchesProblems: a notebook whose widgets are not in
// its metadata and whose card is stale must be refused.
func TestCheckWidgetNotebookCatchesProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.ipynb")
	bad := `{"cells": [{"cell_type": "code", "execution_count": 1, "source": "x", "outputs": [
	  {"output_type": "stream", "name": "stdout", "text": "Device: pthread-cpu\n"},
	  {"output_type": "display_data", "metadata": {}, "data": {
	    "application/vnd.jupyter.widget-view+json": {"model_id": "gone", "version_major": 2, "version_minor": 0},
	    "text/html": "<td>device time</td><td>host blocked</td> 4.10 kB"}}]}],
	 "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"version_major": 1, "version_minor": 0, "state": {
	   "o1": {"model_name": "OutputModel", "model_module": "@jupyter-widgets/output", "model_module_version": "1.0.0",
	     "state": {"outputs": [{"output_type": "error", "ename": "panic", "evalue": "CL_INVALID_VALUE", "traceback": []}]}}}}}},
	 "nbformat": 4, "nbformat_minor": 5}`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems := checkWidgetNotebook(path, "8.00 MB")
	all := strings.Join(problems, "\n")
	for _, w := range []string{"no widget state", "which metadata.widgets lacks", "holds an error: panic: CL_INVALID_VALUE",
		"no FloatLogSliderModel", "static copies", "did not follow"} {
		if !strings.Contains(all, w) {
			t.Errorf("problems lack %q:\n%s", w, all)
		}
	}
}
