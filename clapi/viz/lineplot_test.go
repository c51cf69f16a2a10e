package viz

import (
	"math"
	"strings"
	"testing"
)

// sweep is a made-up bandwidth curve from 4 KB to 4 GB.
func sweep(peak float64) Series {
	s := Series{Name: "pinned write"}
	for b := 4e3; b <= 4.1e9; b *= 4 {
		s.X = append(s.X, b)
		s.Y = append(s.Y, peak*b/(b+2e6))
	}
	return s
}

func TestLinePlotSVG(t *testing.T) {
	pageable := sweep(8)
	pageable.Name = "pageable write"
	svg := LinePlotSVG("Host to device bandwidth", "transfer size", "GB/s", []Series{sweep(55), pageable},
		LogX(), XBytes(), ReferenceLine(63, "PCIe Gen5 x16: 63 GB/s"))
	writeSample(t, "lineplot.svg", svg)
	if !strings.HasPrefix(svg, "<svg") {
		t.Fatalf("does not start with <svg: %.60s", svg)
	}
	texts := strings.Join(svgTexts(t, svg), "|")
	for _, want := range []string{"Host to device bandwidth", "transfer size", "GB/s", "pinned write", "pageable write",
		"PCIe Gen5 x16: 63 GB/s", "10 KB", "1 MB", "1 GB"} {
		if !strings.Contains(texts, want) {
			t.Errorf("plot texts lack %q: %q", want, texts)
		}
	}
	if !strings.Contains(svg, "sans-serif") {
		t.Errorf("no fallback font named")
	}
}

func TestLinePlotErrors(t *testing.T) {
	cases := []struct {
		name   string
		series []Series
		opts   []PlotOption
		want   string
	}{
		{"none", nil, nil, "no series"},
		{"mismatch", []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1}}}, nil, "2 x values but 1 y values"},
		{"empty", []Series{{Name: "a"}}, nil, "no points"},
		{"nan", []Series{{Name: "a", X: []float64{1}, Y: []float64{math.NaN()}}}, nil, "finite"},
		{"log zero", []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{1, 2}}}, []PlotOption{LogX()}, "log x axis"},
		{"log y", []Series{{Name: "a", X: []float64{1}, Y: []float64{-1}}}, []PlotOption{LogY()}, "log y axis"},
		{"size", []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}}, []PlotOption{PlotSize(0, 10)}, "positive"},
	}
	for _, c := range cases {
		_, err := LinePlot("t", "x", "y", c.series, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		svg := LinePlotSVG("t", "x", "y", c.series, c.opts...)
		if !strings.Contains(strings.Join(svgTexts(t, svg), "|"), c.want) {
			t.Errorf("%s: LinePlotSVG does not show the error", c.name)
		}
	}
}

func TestLinePlotSinglePoint(t *testing.T) {
	svg, err := LinePlot("one", "x", "y", []Series{{Name: "p", X: []float64{4096}, Y: []float64{3}}}, LogX(), LogY())
	if err != nil {
		t.Fatal(err)
	}
	svgTexts(t, svg)
}
