package clapi

import (
	"strings"
	"testing"
)

func TestLinePlot(t *testing.T) {
	p := LinePlot("bandwidth", "size", "GB/s",
		[]Series{{Name: "pinned", X: []float64{4e3, 4e6, 4e9}, Y: []float64{1, 30, 55}}},
		LogX(), XBytes(), ReferenceLine(63, "PCIe Gen5 x16"), PlotSize(400, 300))
	svg := p.SVG()
	for _, w := range []string{"<svg", "pinned", "PCIe Gen5 x16", "GB/s"} {
		if !strings.Contains(svg, w) {
			t.Errorf("plot lacks %q", w)
		}
	}
	err := Try(func() {
		LinePlot("t", "x", "y", []Series{{Name: "bad", X: []float64{0, 1}, Y: []float64{1, 2}}}, LogX())
	})
	if err == nil || !strings.Contains(err.Error(), "log x axis") {
		t.Errorf("x = 0 on a log axis: err = %v", err)
	}
}
