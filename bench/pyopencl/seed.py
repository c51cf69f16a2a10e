"""The seed script of shared/reference/README.md (PyOpenCL issue 811), in
PyOpenCL, instrumented: per step the call's host time, the device time, GB/s
and the peak resident memory so far; then the same copies from pinned memory
the way PyOpenCL users get it (an ALLOC_HOST_PTR buffer mapped with
enqueue_map_buffer), a pageable read, and 8-byte blocking writes.

    python3 seed.py [N] > pyopencl.json     # N float64 values, default 5e8 (4 GB)

The device is PyOpenCL's choice from PYOPENCL_CTX ("nvidia", "0:1"). The JSON
has the fields of bench/transfer/clref.c and bench/transfer/cells.ipynb, so
bench/pyopencl/report.py puts the three side by side. Two changes to the
script as the user wrote it, both needed to measure it: the queue has
PROFILING_ENABLE (for device times), and the third copy is waited for after
its call has been timed (its call time is what the user printed).
"""
import json
import os
import resource
import sys
import time

import numpy as np
import pyopencl as cl

mf = cl.mem_flags


def peak_rss():
    """Peak resident memory of this process so far, in bytes (Linux: KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 500_000_000
    nbytes = 8 * n
    # The user's script: 1000x1000x500 float64 is n = 5e8.
    shape = (1000, 1000, 500) if n == 500_000_000 else (n,)

    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    dev = queue.device
    out = {
        "source": "pyopencl", "pyopencl": cl.VERSION_TEXT, "numpy": np.__version__,
        "platform": dev.platform.name, "device": dev.name, "driver": dev.driver_version,
        "device_version": dev.version, "selector": os.environ.get("PYOPENCL_CTX", ""),
        "n": n, "bytes": nbytes, "peak_rss_bytes": {},
    }

    def step(name):
        out["peak_rss_bytes"][name] = peak_rss()

    def timing(ev, t0, t_ret, t_done):
        dev_s = (ev.profile.end - ev.profile.start) * 1e-9
        return {"return_s": t_ret - t0, "done_s": t_done - t0, "device_s": dev_s,
                "gbps": nbytes / dev_s / 1e9 if dev_s > 0 else 0}

    def timed(dst, src, wait=True):
        t0 = time.perf_counter()
        ev = cl.enqueue_copy(queue, dst, src, is_blocking=False)
        t_ret = time.perf_counter()
        ev.wait()
        return timing(ev, t0, t_ret, time.perf_counter())

    # --- the user's script, line for line ---
    a = np.random.random(shape).astype(np.float64)
    step("random")
    t0 = time.perf_counter()
    a_buff = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
    out["create_copy_host_ptr_s"] = time.perf_counter() - t0
    step("create_copy_host_ptr")
    writes = [timed(a_buff, a), timed(a_buff, a)]  # event1.wait(), event2.wait()
    t0 = time.perf_counter()
    event3 = cl.enqueue_copy(queue, a_buff, a, is_blocking=False)  # "returned only after the copy"
    t_ret = time.perf_counter()
    event3.wait()
    writes.append(timing(event3, t0, t_ret, time.perf_counter()))
    out["pageable_write"] = writes
    step("pageable_write")

    # --- pinned memory, as PyOpenCL users get it ---
    pin_buf = cl.Buffer(ctx, mf.READ_WRITE | mf.ALLOC_HOST_PTR, size=nbytes)
    pinned, _ = cl.enqueue_map_buffer(queue, pin_buf, cl.map_flags.READ | cl.map_flags.WRITE, 0, a.shape, a.dtype)
    pinned[...] = a
    step("pinned_alloc")
    out["pinned_write"] = [timed(a_buff, pinned) for _ in range(5)]
    pinned[...] = 0
    out["pinned_read"] = [timed(pinned, a_buff) for _ in range(3)]
    if not np.array_equal(pinned, a):
        sys.exit("the pinned read-back differs from what was written")
    step("pinned")
    out["pageable_read"] = [timed(a, a_buff) for _ in range(2)]
    step("pageable_read")

    # --- 8-byte blocking writes: the cost of one call ---
    iters, warmup = 10000, 100
    small = cl.Buffer(ctx, mf.READ_WRITE, size=8)
    x = np.zeros(1)
    for i in range(-warmup, iters):
        if i == 0:
            t0 = time.perf_counter()
        x[0] = i
        cl.enqueue_copy(queue, small, x)  # blocking (is_blocking defaults to True)
    per = (time.perf_counter() - t0) / iters
    back = np.zeros(1)
    cl.enqueue_copy(queue, back, small)
    if back[0] != iters - 1:
        sys.exit("the 8-byte buffer holds %r, not %d" % (back[0], iters - 1))
    out["small_write"] = {"iters": iters, "bytes": 8, "per_copy_s": per}
    out["peak_rss_total_bytes"] = peak_rss()
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
