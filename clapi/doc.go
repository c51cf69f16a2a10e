// Package clapi is gocl's OpenCL binding, pre-imported in notebook cells as
// cl. It reads like PyOpenCL:
//
//	ctx := cl.CreateSomeContext()           // GOCL_CTX / PYOPENCL_CTX choose; never prompts
//	queue := cl.NewQueue(ctx, cl.Profiling)
//	a := cl.Random(1 << 20)
//	buf := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, a)
//	ev := cl.EnqueueCopy(queue, buf, a, cl.NonBlocking)
//	ev.Wait()
//	ev                                      // an event card: did the call block?
//
// # Errors
//
// Cells should not need error plumbing on every line, so every function
// that can fail panics with a *[Error]: the OpenCL call, its status code by
// name and number, a detail and a hint, e.g.
//
//	clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61): ... Hint: ...
//
// Mistakes gocl can see before calling OpenCL (a copy larger than its
// buffer, a released object, a wrong slice type, a zero size, a Go int
// where OpenCL needs a fixed-size integer) are refused the same way, with
// Code 0 and the name of the OpenCL error they would have caused, so C is
// never handed bad input. The engine shows the panic at the cell line. Use
// [Try] to get the *Error back as an error value instead.
//
// # Host memory and safety
//
// Host memory is a Go slice of a fixed-size numeric type, or pinned memory
// from [NewPinnedHost] (or a view of it). A non-blocking copy from or to a
// Go slice pins it (runtime.Pinner) and keeps it alive until the device is
// done, even if the event is dropped: the pin is released once gocl sees
// the command end (Wait, Status, or a completion callback registered off
// the call's path: see adopt.go), not by the garbage collector. Pinned views
// are slices over C memory: after Close, copies from them are refused, but
// indexing them in Go cannot be guarded, so drop them with the PinnedHost.
//
// # Objects
//
// Every object has an idempotent Release, and a finalizer that releases it
// if you do not (PinnedHost excepted when views were taken: see its doc).
// Waiting ([Event.Wait], [Queue.Finish]) happens in Go, so interrupting the
// cell stops the wait. On a GPU the waiting goroutine spins, asking the
// command's status every 2 µs, as NVIDIA's clWaitForEvents spins for a C
// program: the call after a short wait then starts warmer (a thread that
// slept runs its next call several times slower); after tens of
// milliseconds the virtual machine's caches are cold whichever way the
// thread waited, C's included (bench/RESULTS.md, "Issue 21: why the call
// after a long wait runs cold"). Elsewhere, and after a second of
// spinning, it parks on a channel fed by a goroutine blocked in
// clWaitForEvents (or the completion callback). GOCL_WAIT=block or spin
// chooses for every device; spinlock and spinc (spin locked to the
// thread, or in C) exist to measure against spin, and measured no better.
package clapi
