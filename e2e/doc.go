// Package e2e holds gocl's end-to-end tests: they take the real gocl binary (GOCL_BIN; skipped without it),
// start it as Jupyter would (a connection file, five sockets) and drive it as
// a front end does — through a zmq4 client here, and through Debian's
// jupyter_client, nbconvert and a browser in e2e/jupyter.
package e2e
