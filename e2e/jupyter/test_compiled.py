"""Compiled cells (//gocl:compile) driven by Debian's jupyter_client."""
import os
import tempfile
import time
import unittest

import goclenv

goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)


def start(env):
    km = KernelManager(kernel_name="gocl")
    km.start_kernel(env={**os.environ, **env})
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


class CompiledTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.moddir = tempfile.mkdtemp(prefix="gocl-mod-")
        cls.km, cls.kc = start({"GOCL_MODDIR": cls.moddir, "GOCL_PLUGIN_CACHE": tempfile.mkdtemp(prefix="gocl-plugins-")})

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=False)

    def run_cell(self, code):
        outputs = []
        reply = self.kc.execute_interactive(code, timeout=120, output_hook=outputs.append)
        return reply["content"], outputs

    def value(self, code):
        c, outs = self.run_cell(code)
        self.assertEqual(c["status"], "ok", c.get("traceback"))
        res = [o for o in outs if o["msg_type"] == "execute_result"]
        return res[0]["content"]["data"]["text/plain"] if res else None

    def stdout(self, outs):
        return "".join(o["content"]["text"] for o in outs
                       if o["msg_type"] == "stream" and o["content"]["name"] == "stdout")

    def test_1_generics_collections_and_shared_state(self):
        self.value("""//gocl:compile
type Ordered interface{ ~int | ~float64 | ~string }

func MaxOf[T Ordered](xs ...T) T {
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m
}

var MaxInt = MaxOf[int]

func Widest(words []string) string { return MaxOf(words...) }

func Histogram(xs []int) map[int]int {
	h := map[int]int{}
	for _, x := range slices.Sorted(slices.Values(xs)) {
		h[x]++
	}
	return h
}

var Seen int

func See(n int) int { Seen += n; return Seen }
""")
        self.assertEqual(self.value('Widest([]string{"kiwi", "apple", "pear"})'), '"pear"')
        self.assertEqual(self.value("MaxInt(3, 9, 4)"), "9")
        self.assertEqual(self.value("Histogram([]int{3, 1, 3})[3]"), "2")
        self.assertEqual(self.value("Seen = 5\nSee(2)\nSeen"), "7")
        c, _ = self.run_cell("MaxOf[int](1, 2)")
        self.assertEqual(c["status"], "error")
        self.assertIn("var MaxOfInt = MaxOf[int]", c["evalue"])

    def test_2_cl_objects_cross(self):
        self.value("""//gocl:compile
func Fill(q *cl.Queue, b *cl.Buffer, xs []float64) *cl.Event {
	for i := range xs {
		xs[i] = float64(i)
	}
	return cl.EnqueueCopy(q, b, xs, cl.NonBlocking)
}
""")
        got = self.value("""ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx, cl.Profiling)
xs := make([]float64, 256)
buf := cl.NewBufferSize(ctx, cl.ReadWrite, 8*len(xs))
ev := Fill(q, buf, xs)
ev.Wait()
back := make([]float64, len(xs))
cl.EnqueueCopy(q, back, buf).Wait()
back[255]""")
        self.assertEqual(got, "255")

    def test_3_redefinition_errors_and_panics(self):
        self.value("//gocl:compile\nfunc Scale(x float64) float64 { return 2 * x }\n")
        c, outs = self.run_cell("//gocl:compile\nfunc Scale(x float64) float64 { return 3 * x }\n")
        self.assertEqual(c["status"], "ok")
        self.assertIn("replaced Scale", self.stdout(outs))
        self.assertEqual(self.value("Scale(2)"), "6")
        c, _ = self.run_cell("//gocl:compile\nfunc Bad() string {\n\treturn 1\n}\n")
        self.assertEqual(c["ename"], "CompileError")
        tb = "\n".join(c["traceback"])
        self.assertIn("line 3, column 9", tb)
        self.assertIn("return 1", tb)
        self.value("//gocl:compile\nfunc Div(a, b int) int {\n\treturn a / b\n}\n")
        c, _ = self.run_cell("Div(1, 0)")
        self.assertEqual(c["ename"], "panic")
        self.assertEqual(c["evalue"], "runtime error: integer divide by zero")
        self.assertIn("return a / b", "\n".join(c["traceback"]))

    def test_4_interrupt_reaches_compiled_loop(self):
        self.value("""//gocl:compile
func Forever() int {
	n := 0
	for !cell.Interrupted() {
		n++
	}
	return n
}
""")
        msg_id = self.kc.execute("Forever()")
        time.sleep(1)
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=30)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        self.assertEqual(self.value("1 + 1"), "2")


class CompiledModulesTest(unittest.TestCase):
    def test_module_pinned_and_offline_error(self):
        moddir = tempfile.mkdtemp(prefix="gocl-mod-")
        km, kc = start({"GOCL_MODDIR": moddir, "GOCL_PLUGIN_CACHE": "off"})
        try:
            outs = []
            r = kc.execute_interactive('//gocl:compile\nimport "gonum.org/v1/gonum/stat"\n\n'
                                       'func Var(xs []float64) float64 { return stat.Variance(xs, nil) }\n',
                                       timeout=300, output_hook=outs.append)
            self.assertEqual(r["content"]["status"], "ok", r["content"].get("traceback"))
            out = "".join(o["content"].get("text", "") for o in outs if o["msg_type"] == "stream")
            self.assertIn("module gonum.org/v1/gonum v", out)
            with open(os.path.join(moddir, "gocl.mod")) as f:
                self.assertIn("gonum.org/v1/gonum v", f.read())
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
        km, kc = start({"GOCL_MODDIR": tempfile.mkdtemp(prefix="gocl-mod-"), "GOPROXY": "off", "GOCL_PLUGIN_CACHE": "off"})
        try:
            r = kc.execute_interactive('//gocl:compile\nimport "github.com/gocl-test/absent/pkg"\n\nvar X = pkg.X\n', timeout=120)
            self.assertEqual(r["content"]["ename"], "CompileError")
            self.assertIn("GOPROXY=off", r["content"]["evalue"])
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


def tearDownModule():
    goclenv.teardown()


if __name__ == "__main__":
    unittest.main()
