package clapi

import "github.com/seed43a1e1ab/gocl/clapi/viz"

// Series is one named line of a [LinePlot]: points (X[i], Y[i]).
type Series = viz.Series

// PlotOption changes how [LinePlot] draws: [LogX], [LogY], [XBytes],
// [ReferenceLine], [PlotSize].
type PlotOption = viz.PlotOption

// PlotView is a line plot; in a cell it shows itself as SVG.
type PlotView struct {
	svg string
}

// LinePlot draws series as lines with point markers on shared axes (with
// gonum/plot), e.g. bandwidth against transfer size:
//
//	cl.LinePlot("Host to device", "transfer size", "GB/s",
//		[]cl.Series{{Name: "pinned", X: sizes, Y: rates}},
//		cl.LogX(), cl.XBytes(), cl.ReferenceLine(63, "PCIe Gen5 x16"))
//
// Bad input (x and y of different lengths, NaN, a non-positive value on a
// log axis) is refused with a *[Error] that says which point is wrong.
func LinePlot(title, xLabel, yLabel string, series []Series, opts ...PlotOption) *PlotView {
	svg, err := viz.LinePlot(title, xLabel, yLabel, series, opts...)
	if err != nil {
		refuse("LinePlot", "", err.Error(), "fix the data or the axis options")
	}
	return &PlotView{svg: svg}
}

// SVG is the plot as a self-contained SVG document.
func (p *PlotView) SVG() string { return p.svg }

// String says what the value is, for text-only front ends.
func (p *PlotView) String() string { return "cl.PlotView (SVG line plot)" }

// LogX draws the x axis on a logarithmic scale; every x must be positive.
func LogX() PlotOption { return viz.LogX() }

// LogY draws the y axis on a logarithmic scale; every y must be positive.
func LogY() PlotOption { return viz.LogY() }

// XBytes labels the x ticks as byte sizes in decimal units ("4 KB", "1 GB").
func XBytes() PlotOption { return viz.XBytes() }

// ReferenceLine adds a dashed horizontal line at y with a legend entry, such
// as a link's theoretical bandwidth.
func ReferenceLine(y float64, label string) PlotOption { return viz.ReferenceLine(y, label) }

// PlotSize sets the size of the picture in points (1/72 inch); the default
// is 560 × 340.
func PlotSize(width, height float64) PlotOption { return viz.PlotSize(width, height) }
