//go:build !cgo

package doctor

import "errors"

// dlopenCheck cannot load libraries without cgo; the report then says that
// libraries were found but not loaded.
func dlopenCheck(string) error {
	return errors.New("not loaded: gocl was built without cgo, so libraries can only be found, not tried")
}
