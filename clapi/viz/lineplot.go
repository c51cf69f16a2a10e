package viz

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Series is one named line of a [LinePlotSVG]: points (X[i], Y[i]).
type Series struct {
	Name string
	X, Y []float64
}

// PlotOption changes how [LinePlotSVG] draws.
type PlotOption func(*plotConfig)

type plotConfig struct {
	logX, logY    bool
	xBytes        bool
	refY          float64
	refLabel      string
	hasRef        bool
	width, height vg.Length
}

// LogX draws the x axis on a logarithmic scale; every x must be positive.
func LogX() PlotOption { return func(c *plotConfig) { c.logX = true } }

// LogY draws the y axis on a logarithmic scale; every y must be positive.
func LogY() PlotOption { return func(c *plotConfig) { c.logY = true } }

// XBytes labels the x ticks as byte sizes in decimal units ("4 KB",
// "1 GB"), for plots against transfer size.
func XBytes() PlotOption { return func(c *plotConfig) { c.xBytes = true } }

// ReferenceLine adds a dashed horizontal line at y with a legend entry,
// e.g. ReferenceLine(63, "PCIe Gen5 x16: 63 GB/s"). The y axis is extended
// to show it.
func ReferenceLine(y float64, label string) PlotOption {
	return func(c *plotConfig) { c.refY, c.refLabel, c.hasRef = y, label, true }
}

// PlotSize sets the size of the picture in points (1/72 inch); the default
// is 560 × 340.
func PlotSize(width, height float64) PlotOption {
	return func(c *plotConfig) { c.width, c.height = vg.Length(width), vg.Length(height) }
}

// sansFont is the face used for all plot text. gonum/plot measures text
// with the embedded Liberation fonts; the SVG names fallbacks so that
// viewers without Liberation still draw a similar sans-serif.
var sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// LinePlotSVG draws series as lines with point markers on shared axes and
// returns a self-contained SVG (gonum/plot through vgsvg, fonts named, not
// embedded). Bad input (mismatched lengths, NaN, non-positive values on a
// log axis) gives a small SVG that states the problem; use [LinePlot] to get
// the error instead.
func LinePlotSVG(title, xLabel, yLabel string, series []Series, opts ...PlotOption) string {
	svg, err := LinePlot(title, xLabel, yLabel, series, opts...)
	if err != nil {
		return messageSVG(title, err.Error())
	}
	return svg
}

// LinePlot is [LinePlotSVG] that reports bad input as an error.
func LinePlot(title, xLabel, yLabel string, series []Series, opts ...PlotOption) (string, error) {
	cfg := plotConfig{width: 560, height: 340}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.width <= 0 || cfg.height <= 0 {
		return "", fmt.Errorf("viz: plot size %v × %v: both must be positive", cfg.width, cfg.height)
	}
	if err := checkSeries(series, cfg); err != nil {
		return "", err
	}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, st := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		size := st.Size
		*st = sansFont
		st.Size = size
	}
	p.Add(plotter.NewGrid())

	for i, s := range series {
		pts := make(plotter.XYs, len(s.X))
		for j := range s.X {
			pts[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		line, marks, err := plotter.NewLinePoints(pts)
		if err != nil {
			return "", fmt.Errorf("viz: series %q: %w", s.Name, err)
		}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(1.5)
		marks.Color = plotutil.Color(i)
		marks.Shape = plotutil.Shape(i)
		p.Add(line, marks)
		if s.Name != "" {
			p.Legend.Add(s.Name, line, marks)
		}
	}
	if !cfg.logY && p.Y.Min > 0 {
		p.Y.Min = 0 // rates and times read honestly from zero
	}
	if cfg.hasRef {
		ref := plotter.NewFunction(func(float64) float64 { return cfg.refY })
		ref.Color = plotutil.Color(len(series) + 1)
		ref.Width = vg.Points(1.2)
		ref.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		ref.XMin, ref.XMax = p.X.Min, p.X.Max
		if cfg.logX {
			ref.Samples = 2
		}
		p.Add(ref)
		if cfg.refLabel != "" {
			p.Legend.Add(cfg.refLabel, ref)
		}
		p.Y.Min = min(p.Y.Min, cfg.refY)
		p.Y.Max = max(p.Y.Max, cfg.refY)
	}
	if !cfg.logY && p.Y.Max > p.Y.Min {
		// Headroom above the highest line for the legend.
		p.Y.Max += 0.22 * (p.Y.Max - p.Y.Min)
	}
	if p.X.Min == p.X.Max {
		p.X.Min, p.X.Max = widen(p.X.Min, cfg.logX)
	}
	if p.Y.Min == p.Y.Max {
		p.Y.Min, p.Y.Max = widen(p.Y.Min, cfg.logY)
	}
	if cfg.logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if cfg.xBytes {
		p.X.Tick.Marker = byteTicks{log: cfg.logX}
	}
	if cfg.logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	} else {
		p.Y.Tick.Marker = plainTicks{}
	}
	// Top left: bandwidth and speed-up curves rise to the right.
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(8)
	p.Legend.YOffs = -vg.Points(4)

	w, err := p.WriterTo(cfg.width, cfg.height, "svg")
	if err != nil {
		return "", fmt.Errorf("viz: rendering plot: %w", err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("viz: rendering plot: %w", err)
	}
	return tidySVG(buf.String()), nil
}

// checkSeries rejects input that would draw a wrong picture.
func checkSeries(series []Series, cfg plotConfig) error {
	if len(series) == 0 {
		return errors.New("viz: no series to plot: pass at least one Series with points")
	}
	for _, s := range series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("viz: series %q has %d x values but %d y values: they must pair up", s.Name, len(s.X), len(s.Y))
		}
		if len(s.X) == 0 {
			return fmt.Errorf("viz: series %q has no points", s.Name)
		}
		for j := range s.X {
			x, y := s.X[j], s.Y[j]
			if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
				return fmt.Errorf("viz: series %q point %d is (%v, %v): values must be finite", s.Name, j, x, y)
			}
			if cfg.logX && x <= 0 {
				return fmt.Errorf("viz: series %q point %d has x = %v, which a log x axis cannot show: drop it or use a linear axis", s.Name, j, x)
			}
			if cfg.logY && y <= 0 {
				return fmt.Errorf("viz: series %q point %d has y = %v, which a log y axis cannot show: drop it or use a linear axis", s.Name, j, y)
			}
		}
	}
	if cfg.hasRef && (math.IsNaN(cfg.refY) || math.IsInf(cfg.refY, 0) || cfg.logY && cfg.refY <= 0) {
		return fmt.Errorf("viz: reference line at y = %v cannot be drawn on this axis", cfg.refY)
	}
	return nil
}

// widen turns an empty range around v into a visible one.
func widen(v float64, log bool) (float64, float64) {
	if log {
		return v / 2, v * 2
	}
	if v == 0 {
		return -1, 1
	}
	d := math.Abs(v) * 0.1
	return v - d, v + d
}

// byteTicks labels an axis of byte sizes: decades on a log axis, a 1-2-5
// step on a linear one.
type byteTicks struct{ log bool }

func (t byteTicks) Ticks(lo, hi float64) []plot.Tick {
	if !t.log {
		ticks := plot.DefaultTicks{}.Ticks(lo, hi)
		for i := range ticks {
			if ticks[i].Label != "" {
				ticks[i].Label = compactBytes(ticks[i].Value)
			}
		}
		return ticks
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		dec := math.Pow(10, e)
		ticks = append(ticks, plot.Tick{Value: dec, Label: compactBytes(dec)})
		for m := 2.0; m < 10; m++ {
			ticks = append(ticks, plot.Tick{Value: m * dec})
		}
	}
	return ticks
}

// plainTicks are gonum's default linear ticks labelled without trailing
// zeros ("25", not "25.00").
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(roundSig(ticks[i].Value, 12), 'f', -1, 64)
		}
	}
	return ticks
}

// tidySVG drops the XML prolog and generator comment, so the SVG can also
// be embedded in HTML, and names fallback fonts for viewers without
// Liberation Sans.
func tidySVG(s string) string {
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:]
	}
	return strings.ReplaceAll(s, "font-family:Liberation Sans;", "font-family:Liberation Sans,Arial,Helvetica,sans-serif;")
}

var _ plot.Ticker = byteTicks{}
