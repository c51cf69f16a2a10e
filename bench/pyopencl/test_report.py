"""Checks report.py on made-up results: ratios, targets met and missed."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def copies(k, ret, dev, nbytes):
    return [{"return_s": ret, "done_s": ret + dev, "device_s": dev, "gbps": nbytes / dev / 1e9} for _ in range(k)]


def result(ret_pinned, dev, nbytes=4000):
    return {"bytes": nbytes, "device": "Made-up GPU", "create_copy_host_ptr_s": 1.0,
            "pageable_write": copies(3, 0.5, 0.5, nbytes), "pinned_write": copies(5, ret_pinned, dev, nbytes),
            "pinned_read": copies(3, 1e-5, dev, nbytes), "pageable_read": copies(2, 0.3, 0.3, nbytes),
            "small_write": {"iters": 10, "bytes": 8, "per_copy_s": 1e-5}}


class ReportTest(unittest.TestCase):
    def run_report(self, files):
        with tempfile.TemporaryDirectory() as d:
            for name, v in files.items():
                with open(os.path.join(d, name), "w") as f:
                    json.dump(v, f)
            return subprocess.run([sys.executable, os.path.join(HERE, "report.py"), d, "Made-up machine"],
                                  capture_output=True, text=True, check=True).stdout

    def test_ratios_and_targets(self):
        out = self.run_report({
            "cells-500.json": result(3e-5, 0.1), "pyopencl-500.json": result(2e-5, 0.1), "ref-500.json": result(1e-5, 0.099),
            "peak-gocl-500.json": {"peak_rss_bytes": 8.1e9}, "peak-pyopencl-500.json": {"peak_rss_bytes": 8e9},
            "peak-clref-500.json": {"peak_rss_bytes": 8e9},
        })
        self.assertIn("Made-up machine", out)
        row = [l for l in out.splitlines() if l.startswith("| pinned write, non-blocking")][0]
        # gocl 30 µs against PyOpenCL 20 µs and C 10 µs: 1.50x and 3.00x, target missed.
        self.assertIn("1.50x", row)
        self.assertIn("3.00x", row)
        self.assertIn("**missed**", row)
        rate = [l for l in out.splitlines() if l.startswith("| pinned write: device")][0]
        self.assertIn("0.99x", rate)  # 0.099/0.1 of C's rate: above 0.98
        self.assertIn("met", rate)
        mem = [l for l in out.splitlines() if l.startswith("| peak resident memory")][0]
        self.assertIn("1.01x", mem)
        self.assertIn("met", mem)

    def test_missing_side_is_said(self):
        out = self.run_report({"cells-500.json": result(3e-5, 0.1)})
        self.assertIn("Missing this run: PyOpenCL, C", out)


if __name__ == "__main__":
    unittest.main()
