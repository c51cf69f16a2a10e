package clapi

// releaseLater runs a finalizer's release on a goroutine of its own. Go runs
// all finalizers of the process on one goroutine, and a driver call can
// block for long (NVIDIA's clReleaseEvent was seen to hang on a failed user
// event), which would stall every other finalizer; this way only that
// release waits.
func releaseLater(release func()) {
	go func() {
		defer func() { recover() }() // nothing to report to from a finalizer
		release()
	}()
}
