package symbols

// ipywidgets for cells, pre-imported in cells as widgets.
//go:generate go run ./gen github.com/seed43a1e1ab/gocl/kernel/widgets
