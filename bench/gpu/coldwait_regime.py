"""Split bench/hostblocked's rounds by the machine's state at the time.

The H200 machine swings between a fast and a slow state for tens of
seconds at a time, whatever the process does (bench/RESULTS.md, "Issue 21:
why the call after a long wait runs cold"). C's own driver call in the same
round says which state a round ran in; this prints, for rounds where C's
call was under 35 µs and for the rest, the medians of C's call and of the
gocl ways' own work (the call's time minus the driver call inside it).

    python3 bench/gpu/coldwait_regime.py FILE.json[:CONDITION] ...

FILE.json is hostblocked's -json output; CONDITION names a -between
condition when the run had several (none, cspin:72ms, wait=spinc, ...).
"""
import json
import statistics
import sys

SPLIT_US = 35


def rounds(path, cond):
    s = json.load(open(path))["samples"]
    key = (lambda w: cond + "/" + w) if cond else (lambda w: w)
    c = [x["return_s"] * 1e6 for x in s[key("C")]]
    own = {w: [(x["return_s"] - x["binding_s"]) * 1e6 for x in s[key(w)]] for w in ("compiled", "cell")}
    return c, own


def main(args):
    for arg in args:
        path, _, cond = arg.partition(":")
        c, own = rounds(path, cond)
        n = min(len(c), *(len(v) for v in own.values()))
        parts = []
        for name, idx in (("C's call < %d µs" % SPLIT_US, [i for i in range(n) if c[i] < SPLIT_US]),
                          ("the rest", [i for i in range(n) if c[i] >= SPLIT_US])):
            if not idx:
                parts.append("%s: 0 rounds" % name)
                continue
            med = lambda v: statistics.median(v[i] for i in idx)
            parts.append("%s: %d rounds, C %.1f µs, compiled %.1f, cell %.1f" % (name, len(idx), med(c), med(own["compiled"]), med(own["cell"])))
        print("%s %s: %s" % (path, cond or "", "; ".join(parts)))


if __name__ == "__main__":
    main(sys.argv[1:])
