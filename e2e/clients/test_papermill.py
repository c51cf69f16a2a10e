"""papermill with gocl-jupyter's translator, through papermill's own CLI.

Each -p/-y value must arrive in the notebook as the Go value it names, with
the Go type the translator documents; a value Go cannot spell fails before
the notebook runs, with a message that names the parameter.
"""
import json
import os
import tempfile
import unittest

import clientenv

clientenv.setup()

from gocl_jupyter.papermill import GoTranslator  # noqa: E402


class TranslatorTest(unittest.TestCase):
    def test_literals(self):
        got = GoTranslator.codify({"n": 3, "s": 'a"\\\n\x01é', "x": 2.0, "b": False,
                                   "xs": [1, 2.5], "m": {"k": ["v"]}, "e": []})
        self.assertEqual(got, '// Parameters\nn := 3\ns := "a\\"\\\\\\n\\x01é"\nx := 2.0\nb := false\n'
                              'xs := []float64{1, 2.5}\nm := map[string][]string{"k": []string{"v"}}\ne := []any{}\n')


class PapermillTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gocl-papermill-")
        self.inp = os.path.join(self.dir, "in.ipynb")
        self.out = os.path.join(self.dir, "out.ipynb")
        clientenv.notebook([
            ('size := 1 << 20\nkind := "pageable"\nscale := 1.0\nverbose := false\n'
             'sizes := []int{1}\nopts := map[string]any{}\n', ["parameters"]),
            'fmt.Printf("size %T %v\\n", size, size)\nfmt.Printf("kind %T %q\\n", kind, kind)\n'
            'fmt.Printf("scale %T %v\\n", scale, scale)\nfmt.Printf("verbose %T %v\\n", verbose, verbose)\n'
            'fmt.Printf("sizes %T %v\\n", sizes, sizes)\nfmt.Printf("opts %T %v\\n", opts, opts)\n',
        ], self.inp)

    def papermill(self, *args):
        return clientenv.run([clientenv.tool("papermill"), "--kernel", "gocl", self.inp, self.out, *args])

    def test_parameters_arrive_as_go_values(self):
        r = self.papermill("-p", "size", "4096", "-p", "kind", 'pinned "x"\n', "-p", "scale", "2.5",
                           "-p", "verbose", "True", "-y", "sizes: [1024, 65536]\nopts: {a: 1, b: [x, y]}")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.out) as f:
            nb = json.load(f)
        injected = [c for c in nb["cells"] if "injected-parameters" in c["metadata"].get("tags", [])]
        self.assertEqual(len(injected), 1, "papermill injects one cell")
        self.assertEqual(clientenv.stdout_of(nb),
                         'size int 4096\nkind string "pinned \\"x\\"\\n"\nscale float64 2.5\nverbose bool true\n'
                         'sizes []int [1024 65536]\nopts map[string]interface {} map[a:1 b:[x y]]\n')

    def test_a_parameter_go_cannot_spell_is_a_clear_error(self):
        for args, want in [(["-p", "my-size", "1"], "papermill parameter 'my-size' is not a Go identifier"),
                           (["-y", "size: null"], "papermill parameter size is None"),
                           (["-y", "opts: {1: 2}"], "has the key 1 (int)")]:
            r = self.papermill(*args)
            self.assertNotEqual(r.returncode, 0, args)
            self.assertIn(want, r.stderr, args)
            self.assertIn("GoParameterError", r.stderr, args)


class SweepNotebookTest(unittest.TestCase):
    """notebooks/09-papermill-sweep.ipynb, driven by papermill at a small size on whatever device CI has."""

    def test_sweep_follows_the_parameters_and_its_verdict_the_numbers(self):
        import re
        d = tempfile.mkdtemp(prefix="gocl-papermill-09-")
        out = os.path.join(d, "out.ipynb")
        r = clientenv.run([clientenv.tool("papermill"), os.path.join(clientenv.ROOT, "notebooks", "09-papermill-sweep.ipynb"),
                           out, "-p", "size", "1048576", "-p", "memory", "pageable", "-p", "direction", "d2h", "-p", "reps", "3"])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            text = clientenv.stdout_of(json.load(f))
        self.assertIn("Sweep: pageable memory, d2h, 5 sizes from 4096 to 1048576 bytes, best of 3 copies each", text)
        rows = [(int(m[1]), float(m[2])) for m in re.finditer(r"^\s*(\d+) bytes  host\s+[\d.]+ µs\s+([\d.]+) GB/s", text, re.M)]
        self.assertEqual([b for b, _ in rows], [4096, 16384, 65536, 262144, 1048576], text)
        peak_bytes, peak = max(rows, key=lambda r: r[1])
        # The table prints rates to 3 decimals and the verdict to 2, both from the unrounded number:
        # compare the verdict's figure with the table's within that rounding, not as text.
        m = re.search(r"^Peak: ([\d.]+) GB/s \(host-observed\), device to host from pageable memory, at (\d+) bytes\.$", text, re.M)
        self.assertIsNotNone(m, text)
        self.assertEqual(int(m[2]), peak_bytes, text)
        self.assertAlmostEqual(float(m[1]), peak, delta=0.0051, msg=text)
        half = next(b for b, g in rows if g >= peak / 2)
        if half != rows[0][0]:
            self.assertIn(f"Half of the peak is first reached at {half} bytes", text)
        else:
            self.assertIn("Even the smallest copy (4096 bytes) reaches half of the peak", text)

    def test_a_bad_parameter_value_is_a_clear_error(self):
        d = tempfile.mkdtemp(prefix="gocl-papermill-09-")
        r = clientenv.run([clientenv.tool("papermill"), os.path.join(clientenv.ROOT, "notebooks", "09-papermill-sweep.ipynb"),
                           os.path.join(d, "out.ipynb"), "-p", "memory", "mapped"])
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('panic: memory="mapped": want "pinned" or "pageable"', r.stderr)
        self.assertNotIn("Passed unknown parameter", r.stderr, "the translator's inspect should find the parameters cell's names")


if __name__ == "__main__":
    unittest.main()
