"""Checks merge_rounds.py on made-up rounds: pooled samples, positional
medians, scalar medians."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class MergeRounds(unittest.TestCase):
    def test_merge(self):
        with tempfile.TemporaryDirectory() as d:
            rounds = []
            for i, (pin, first, create) in enumerate([([1, 2], 10, 5.0), ([3, 4], 30, 7.0), ([5, 6], 20, 6.0)]):
                r = os.path.join(d, "r%d" % i)
                os.makedirs(r)
                doc = {"bytes": 8, "device": "dev", "create_copy_host_ptr_s": create,
                       "pinned_write": [{"return_s": x, "gbps": 1.0} for x in pin],
                       "pageable_write": [{"return_s": first, "gbps": 2.0}, {"return_s": first + 1, "gbps": 3.0}]}
                with open(os.path.join(r, "cells-1.json"), "w") as f:
                    json.dump(doc, f)
                rounds.append(r)
            out = os.path.join(d, "out")
            subprocess.check_call([sys.executable, os.path.join(HERE, "merge_rounds.py"), out] + rounds)
            with open(os.path.join(out, "cells-1.json")) as f:
                m = json.load(f)
            self.assertEqual([r["return_s"] for r in m["pinned_write"]], [1, 2, 3, 4, 5, 6])
            self.assertEqual(m["pageable_write"][0]["return_s"], 20)
            self.assertEqual(m["pageable_write"][1]["return_s"], 21)
            self.assertEqual(m["create_copy_host_ptr_s"], 6.0)
            self.assertEqual(m["rounds"], 3)
            self.assertEqual(m["device"], "dev")


if __name__ == "__main__":
    unittest.main()
