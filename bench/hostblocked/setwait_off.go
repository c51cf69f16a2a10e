//go:build !goclprobe

package main

// setWaitMode: without clapi's probe build, Wait's way cannot change at
// run time (GOCL_WAIT picks it per process).
func setWaitMode(name string) bool { return name == "" }
