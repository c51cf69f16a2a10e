"""Issue 23 through jupyter_client: an interrupt never costs the session.

The interrupt is KernelManager.interrupt_kernel (interrupt_mode "message":
an interrupt_request on control), as Lab's toolbar button sends it.
"""
import time
import unittest

import goclenv

goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)

SETUP = """import "sync/atomic"
keep := 7
twice := func(n int) int { return 2 * n }
type counter struct{ n int }
func (c *counter) Inc() int { c.n++; return c.n }
ctr := &counter{}
inc := ctr.Inc
ticks := int64(0)
go func() {
	for {
		atomic.AddInt64(&ticks, 1)
		time.Sleep(5 * time.Millisecond)
	}
}()
"""

CHECK = """t0 := atomic.LoadInt64(&ticks)
time.Sleep(100 * time.Millisecond)
fmt.Println(keep, twice(21), inc() == ctr.n, atomic.LoadInt64(&ticks) > t0)"""


class InterruptTest(unittest.TestCase):
    def setUp(self):
        self.km = KernelManager(kernel_name="gocl")
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)
        c, _ = self.run_cell(SETUP)
        self.assertEqual(c["status"], "ok", c)

    def tearDown(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def run_cell(self, code):
        outputs = []
        reply = self.kc.execute_interactive(code, timeout=60, output_hook=outputs.append)
        return reply["content"], outputs

    def check(self, after):
        c, outs = self.run_cell(CHECK)
        out = "".join(o["content"]["text"] for o in outs
                      if o["msg_type"] == "stream" and o["content"]["name"] == "stdout")
        self.assertEqual((c["status"], out), ("ok", "7 42 true true\n"), (after, c))

    def interrupted(self, code, *presses):
        """Runs code and presses interrupt at each offset (seconds) after it started."""
        msg_id = self.kc.execute(code)
        start = time.time()
        for at in presses:
            time.sleep(max(0, start + at - time.time()))
            self.km.interrupt_kernel()
        while True:
            reply = self.kc.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg_id:
                self.assertEqual(reply["content"].get("ename"), "Interrupted", code)
                return

    def test_func_values_survive(self):
        for code in ["for {}", "time.Sleep(time.Hour)", "<-make(chan int)"]:
            self.interrupted(code, 0.3)
            self.check("after interrupting " + code)

    def test_rhythms_keep_the_session(self):
        self.interrupted("for {}", 0.3, 0.4)  # a double click
        self.check("after two presses 100 ms apart")
        start = time.time()
        self.interrupted("for {}", 0.3)
        self.interrupted("for {}", max(0.1, 1.8 - (time.time() - start)))  # one press on each of two cells
        self.check("after one press on each of two cells")
        self.km.interrupt_kernel()  # while idle
        time.sleep(0.5)
        self.interrupted("for {}", 0.5)
        self.check("after a press while idle, then one on a cell")


if __name__ == "__main__":
    unittest.main()
