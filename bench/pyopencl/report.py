"""Turns one lab run's JSON into the bench/RESULTS.md table: gocl (notebook
cells through `gocl run`), PyOpenCL (seed.py) and C (clref) side by side,
step by step, with the ratios gocl/PyOpenCL and gocl/C and issue 12's targets.

    python3 report.py DIR [MACHINE]

DIR holds, for each size N, ref-N.json (clref), cells-N.json (gocl),
pyopencl-N.json (seed.py) and peak-{clref,gocl,pyopencl}-N.json (peakrss.py).
MACHINE names the machine in the heading. Standard library only.
"""
import glob
import json
import os
import re
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def med(runs, key):
    vals = [r[key] for r in runs or [] if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def fmt_s(v):
    if v is None:
        return "—"
    if v >= 1:
        return "%.3f s" % v
    if v >= 1e-3:
        return "%.2f ms" % (v * 1e3)
    return "%.1f µs" % (v * 1e6)


def fmt_rate(v):
    return "—" if v is None else "%.2f GB/s" % v


def fmt_mem(v):
    return "—" if v is None else "%.2f GB" % (v / 1e9)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ratio(r):
    return "—" if r is None else "%.2fx" % r


# Each row: label, metric kind, how to read it from a result, and the
# target (a function of the gocl/PyOpenCL and gocl/C ratios, or None).
def rows_for(sides):
    def step(key, i=None, field="return_s"):
        def get(d):
            if not d or key not in d:
                return None
            runs = d[key]
            if i is not None:
                return runs[i][field] if i < len(runs) else None
            return med(runs, field)
        return get

    def rate(key, i=None):
        return step(key, i, "gbps")

    def create(d):
        return d.get("create_copy_host_ptr_s") if d else None

    def small(d):
        return d["small_write"]["per_copy_s"] if d and "small_write" in d else None

    rate_target = ("gocl/C >= 0.98", lambda rp, rc: None if rc is None else rc >= 0.98)
    pinned_target = ("gocl/C <= 1.5 and gocl/PyOpenCL <= 1", lambda rp, rc: None if rc is None or rp is None else (rc <= 1.5 and rp <= 1.0))
    return [
        ("COPY_HOST_PTR buffer creation", "s", create, None),
        ("pageable write 1: call returned", "s", step("pageable_write", 0), None),
        ("pageable write 1: device", "rate", rate("pageable_write", 0), rate_target),
        ("pageable write 2: call returned", "s", step("pageable_write", 1), None),
        ("pageable write 2: device", "rate", rate("pageable_write", 1), rate_target),
        ("pageable write 3 (the user's third): call returned", "s", step("pageable_write", 2), None),
        ("pageable write 3: device", "rate", rate("pageable_write", 2), rate_target),
        ("pinned write, non-blocking (median of 5): host blocked", "s", step("pinned_write"), pinned_target),
        ("pinned write: device", "rate", rate("pinned_write"), rate_target),
        ("pinned read, non-blocking (median of 3): host blocked", "s", step("pinned_read"), None),
        ("pinned read: device", "rate", rate("pinned_read"), rate_target),
        ("pageable read (median of 2): call returned", "s", step("pageable_read"), None),
        ("pageable read: device", "rate", rate("pageable_read"), rate_target),
        ("8-byte blocking write, per call", "s", small, None),
    ]


def section(d, n):
    gocl, py, c = (load(os.path.join(d, "%s-%d.json" % (k, n))) for k in ("cells", "pyopencl", "ref"))
    peaks = {k: load(os.path.join(d, "peak-%s-%d.json" % (k, n))) for k in ("gocl", "pyopencl", "clref")}
    any_side = gocl or py or c
    if not any_side:
        return ""
    out = []
    nbytes = any_side.get("bytes", 8 * n)
    out.append("### %.3g bytes (%d float64 values), %s\n" % (nbytes, n, any_side.get("device", "?")))
    rounds = max((v or {}).get("rounds", 1) for v in (gocl, py, c))
    if rounds > 1:
        out.append("Each program ran %d times, in turns (C, gocl, PyOpenCL, then again): a step measured several times "
                   "in a run is the median of all %d rounds' samples (the pinned write: %d), any other figure the median "
                   "of the rounds' (bench/pyopencl/merge_rounds.py).\n" % (rounds, rounds, 5 * rounds))
    missing = [name for name, v in (("gocl", gocl), ("PyOpenCL", py), ("C", c)) if not v]
    if missing:
        out.append("Missing this run: %s (see lab.log).\n" % ", ".join(missing))
    out.append("| step | gocl | PyOpenCL | C | gocl/PyOpenCL | gocl/C | target |")
    out.append("|---|---|---|---|---|---|---|")
    verdicts = []
    for label, kind, get, target in rows_for(None):
        g, p, r = get(gocl), get(py), get(c)
        f = fmt_rate if kind == "rate" else fmt_s
        rp, rc = ratio(g, p), ratio(g, r)
        t = ""
        if target:
            ok = target[1](rp, rc)
            t = "%s: %s" % (target[0], "—" if ok is None else ("met" if ok else "**missed**"))
            if ok is not None:
                verdicts.append(ok)
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (label, f(g), f(p), f(r), fmt_ratio(rp), fmt_ratio(rc), t))
    pk = {k: (v or {}).get("peak_rss_bytes") for k, v in peaks.items()}
    rp = ratio(pk["gocl"], pk["pyopencl"])
    ok = None if rp is None else rp <= 1.02
    if ok is not None:
        verdicts.append(ok)
    out.append("| peak resident memory (whole process) | %s | %s | %s | %s | %s | gocl/PyOpenCL <= 1.02: %s |" % (
        fmt_mem(pk["gocl"]), fmt_mem(pk["pyopencl"]), fmt_mem(pk["clref"]), fmt_ratio(rp), fmt_ratio(ratio(pk["gocl"], pk["clref"])),
        "—" if ok is None else ("met" if ok else "**missed**")))
    out.append("")
    out.append("Targets met: %d of %d." % (sum(verdicts), len(verdicts)))
    if py:
        out.append("PyOpenCL %s, numpy %s; platform %s, driver %s." % (py.get("pyopencl"), py.get("numpy"), py.get("platform"), py.get("driver")))
    out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: report.py DIR [MACHINE]")
    d = sys.argv[1]
    machine = sys.argv[2] if len(sys.argv) > 2 else ""
    sizes = sorted({int(m.group(1)) for p in glob.glob(os.path.join(d, "*-*.json"))
                    for m in [re.search(r"-(\d+)\.json$", p)] if m}, reverse=True)
    if not sizes:
        sys.exit("report.py: no results in %s" % d)
    print("## gocl, PyOpenCL and C in one run (issue 12)%s\n" % (": " + machine if machine else ""))
    print("Each program runs the seed experiment of PyOpenCL issue 811 (a COPY_HOST_PTR buffer, three non-blocking")
    print("writes), then pinned copies (gocl: `cl.NewPinnedHost`; PyOpenCL: an ALLOC_HOST_PTR buffer mapped with")
    print("`enqueue_map_buffer`; C: the same calls), a pageable read and 8-byte blocking writes, one after the other on one")
    print("device. \"Call returned\" and \"host blocked\" are the time from just before the copy call until it returned, read in")
    print("each program's own language (a Go cell, Python, C); rates are bytes over the profiled device time. Peak memory is")
    print("the whole process's ru_maxrss (peakrss.py): gocl and C hold the array and the pinned copy, the verbatim Python")
    print("script also a temporary from `.astype(np.float64)`.\n")
    for n in sizes:
        print(section(d, n))


if __name__ == "__main__":
    main()
