package symtypes

import "go/types"

// yaegi's extract writes an untyped integer, float or string constant as a
// go/constant value, but an untyped rune as an untyped integer and an
// untyped bool or complex constant as a plain value of its default type. So
// `r := utf8.RuneError` would be an int, not Go's rune. untypedConsts names
// the constants of the tables whose kind extract loses, with the kind Go
// gives them; TestTablesMatchToolchain fails when the list is out of step
// with the toolchain's export data.
var untypedConsts = map[string]types.BasicKind{
	"archive/tar.TypeBlock":         types.UntypedRune,
	"archive/tar.TypeChar":          types.UntypedRune,
	"archive/tar.TypeCont":          types.UntypedRune,
	"archive/tar.TypeDir":           types.UntypedRune,
	"archive/tar.TypeFifo":          types.UntypedRune,
	"archive/tar.TypeGNULongLink":   types.UntypedRune,
	"archive/tar.TypeGNULongName":   types.UntypedRune,
	"archive/tar.TypeGNUSparse":     types.UntypedRune,
	"archive/tar.TypeLink":          types.UntypedRune,
	"archive/tar.TypeReg":           types.UntypedRune,
	"archive/tar.TypeRegA":          types.UntypedRune,
	"archive/tar.TypeSymlink":       types.UntypedRune,
	"archive/tar.TypeXGlobalHeader": types.UntypedRune,
	"archive/tar.TypeXHeader":       types.UntypedRune,
	"math/big.MaxBase":              types.UntypedRune,
	"os.PathListSeparator":          types.UntypedRune,
	"os.PathSeparator":              types.UntypedRune,
	"path/filepath.ListSeparator":   types.UntypedRune,
	"path/filepath.Separator":       types.UntypedRune,
	"syscall.ImplementsGetwd":       types.UntypedBool,
	"text/tabwriter.Escape":         types.UntypedRune,
	"unicode.MaxASCII":              types.UntypedRune,
	"unicode.MaxLatin1":             types.UntypedRune,
	"unicode.MaxRune":               types.UntypedRune,
	"unicode.ReplacementChar":       types.UntypedRune,
	"unicode.UpperLower":            types.UntypedRune,
	"unicode/utf8.MaxRune":          types.UntypedRune,
	"unicode/utf8.RuneError":        types.UntypedRune,
}
