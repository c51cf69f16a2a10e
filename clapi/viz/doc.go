// Package viz turns OpenCL event measurements into pictures and words:
// event cards with a plain-words verdict ([Verdict], [EventCardHTML],
// [EventCardText]), timelines ([TimelineSVG], [TimelineTable]), tables
// ([TableHTML]), line plots ([LinePlotSVG]) and the number formats they
// share ([FormatBytes], [FormatDuration], [FormatRate]). It uses no cgo:
// the binding measures, viz explains.
//
// # Why the timeline is hand-written and the line plot is not
//
// A timeline of OpenCL commands is a Gantt chart: named lanes (host, one per
// queue), bars from start to end coloured by command kind, a label on or
// beside each bar, a tooltip with the exact figures. gonum/plot has no such
// plotter; building one on it would mean a custom Plotter with nominal
// y-axis lanes, custom text placement and tooltips, which vg cannot express
// (it has no SVG <title> elements), and it would still measure label widths
// with embedded fonts. The chart is a few rectangles and text elements, so
// [TimelineSVG] writes the SVG directly: it is small, has hover tooltips and
// is self-contained.
//
// A line plot of bandwidth against transfer size is exactly what gonum/plot
// does well (log axes, ticks, legends, markers), so [LinePlotSVG] uses it
// through vgsvg rather than reimplementing axes.
//
// Sizes and rates use decimal units (1 GB = 10⁹ bytes), as GPU data sheets
// and PCIe figures do.
package viz
