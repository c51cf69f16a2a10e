package stdexamples

// Quarantine names the examples whose wrong answer, hang or crash is known
// and reported (issue 24), with the reason; TestStdExamples logs them
// instead of failing, and fails when one no longer goes wrong (remove its
// entry then). Every entry is a bug to fix, not a verdict: each reason names
// the construct and a minimal program is in the report.
var Quarantine = map[string]string{
	// xml.Marshal(Person{Name: "Ann", Address: Address{City: "Oslo"}}) with
	// an embedded struct prints nothing (MarshalIndent: the embedded fields
	// in an <Address> element); Unmarshal leaves the embedded fields empty.
	// encoding/json gets it right through gocl's crossing layer
	// (kernel/engine/crossing.go), which does not cover encoding/xml.
	"encoding/xml.ExampleEncoder":       "encoding/xml sees a cell type's embedded struct as a named field",
	"encoding/xml.ExampleMarshalIndent": "encoding/xml sees a cell type's embedded struct as a named field",
	"encoding/xml.ExampleUnmarshal":     "encoding/xml sees a cell type's embedded struct as a named field",
}
