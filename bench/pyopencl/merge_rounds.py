"""Merges the results of several rounds of issue 12's lab (bench/gpu/lab.sh
with ROUNDS > 1) into one directory that report.py reads as one run.

    python3 merge_rounds.py OUT ROUND_DIR...

Each ROUND_DIR holds a round's ref-N.json, cells-N.json, pyopencl-N.json and
peak-*-N.json. A step measured several times in a round (the pinned write's
five copies) gets every sample of every round, so report.py's median is the
median of all of them; a step measured once per round at a position (the
first, second and third pageable write), and every single figure, gets the
median over the rounds. The three programs ran in turns, round after round,
so a swing of the machine falls on all of them alike. Standard library only.
"""
import json
import os
import statistics
import sys

# Steps whose runs are repeats of one measurement (their samples pool); the
# others' runs are positions (first write, second write...).
POOLED = {"pinned_write", "pinned_read", "pageable_read"}


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def median_of(values):
    vals = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return statistics.median(vals) if vals else None


def merge(docs):
    """merge returns one document from the rounds' documents of a program."""
    docs = [d for d in docs if d]
    if not docs:
        return None
    out = {}
    for key in docs[0]:
        vals = [d.get(key) for d in docs if key in d]
        first = vals[0]
        if isinstance(first, list) and first and isinstance(first[0], dict):
            if key in POOLED:
                out[key] = [r for v in vals for r in v]
            else:
                out[key] = [merge_runs([v[i] for v in vals if i < len(v)]) for i in range(len(first))]
        elif isinstance(first, dict):
            out[key] = merge_runs(vals)
        elif isinstance(first, (int, float)) and not isinstance(first, bool):
            out[key] = median_of(vals)
        else:
            out[key] = first
    out["rounds"] = len(docs)
    return out


def merge_runs(runs):
    out = {}
    for k in runs[0]:
        vals = [r.get(k) for r in runs]
        m = median_of(vals)
        out[k] = m if m is not None else vals[0]
    return out


def main():
    out, rounds = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    names = sorted({n for r in rounds for n in os.listdir(r) if n.endswith(".json")})
    for name in names:
        doc = merge([load(os.path.join(r, name)) for r in rounds])
        if doc is not None:
            with open(os.path.join(out, name), "w") as f:
                json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
