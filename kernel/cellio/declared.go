package cellio

// Declared is one top-level declaration a cell made, as the kernel keeps it
// to declare it again in a fresh engine after the engine process died.
// The engine (kernel/engine) makes these from the chunks it parsed for the
// cell; the supervisor (kernel/supervisor) keeps them and decides which can
// be declared again exactly and which are lost.
type Declared struct {
	// Cell is the engine's name of the cell that made it, "cell3".
	Cell string `json:"cell"`
	// Kind is "import", "const", "type", "func", "method", "var", "main"
	// (a cell's func main) or "compiled" (a //gocl:compile cell, whole).
	Kind string `json:"kind"`
	// Names are the names it binds: a method's is "T.M"; a compiled
	// cell's are all its top-level names.
	Names []string `json:"names,omitempty"`
	// Text is its source as written, for the kinds that are declared
	// again; Line and Col are where it starts in the cell.
	Text string `json:"text,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	// Uses are the top-level names Text refers to (those not declared in
	// it), by which the supervisor tells what a lost name takes with it.
	Uses []string `json:"uses,omitempty"`
	// Lost, when set, says why it cannot be declared again (a compiled
	// cell with package variables), or, in a replay's answer, why it
	// failed to be.
	Lost string `json:"lost,omitempty"`
}
