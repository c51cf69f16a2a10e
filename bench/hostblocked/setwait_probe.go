//go:build goclprobe

package main

import "github.com/seed43a1e1ab/gocl/clapi"

// setWaitMode picks how clapi's Waits wait for the conditions that ask
// (wait=NAME); clapi's probe build has the switch.
func setWaitMode(name string) bool { return clapi.SetWaitMode(name) }
