//go:build !go1.26

package stdlib

import ystdlib "github.com/traefik/yaegi/stdlib"

// The generated tables need Go 1.26 (they are tagged go1.26). Built with an
// older Go, cells get yaegi's own tables for Go 1.22 instead, and the
// staleness test says to regenerate.
func init() {
	for k, v := range ystdlib.Symbols {
		if k != "." && k != "github.com/traefik/yaegi/stdlib/stdlib" {
			Symbols[k] = v
		}
	}
}
