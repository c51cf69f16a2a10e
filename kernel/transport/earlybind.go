package transport

import (
	"net"

	"github.com/seed43a1e1ab/gocl/internal/earlybind"
)

// listen is net.Listen, taking instead the socket that `gocl kernel` bound
// for addr while the program was still starting (package earlybind), if it
// did: a front end's first connection then finds the port open.
func listen(network, addr string) (net.Listener, error) {
	if network == "tcp" {
		if f := earlybind.Take(addr); f != nil {
			ln, err := net.FileListener(f)
			f.Close() // the listener holds its own copy
			if err == nil {
				return ln, nil
			}
		}
	}
	return net.Listen(network, addr)
}
