"""A session that survives its mistakes, driven by Debian's jupyter_client.

Each crash kills gocl's engine process (never the kernel): the cell ends with
one error naming what killed it, the heartbeat keeps beating, the next cell
runs with counting going on, and no engine process outlives the kernel.
"""
import os
import signal
import threading
import time
import unittest

import goclenv

goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)


def engine_pids(kernel_pid):
    """The live `gocl engine` processes whose parent is kernel_pid."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and fields[1] == str(kernel_pid) and b"engine" in cmd:
            out.append(int(d))
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


class CrashTest(unittest.TestCase):
    def setUp(self):
        self.km = KernelManager(kernel_name="gocl")
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)
        # kernel_info is answered while the engine starts (issue 19):
        # is_complete waits for it, so that engine_pids finds it serving.
        msg_id = self.kc.is_complete("x")
        while self.kc.get_shell_msg(timeout=60)["parent_header"].get("msg_id") != msg_id:
            pass
        self.kernel_pid = self.km.provisioner.pid
        self.hb_missed = 0
        self.hb_stop = threading.Event()
        self.hb = threading.Thread(target=self.watch_heartbeat, daemon=True)
        self.hb.start()

    def watch_heartbeat(self):
        while not self.hb_stop.wait(0.2):
            if not self.kc.hb_channel.is_beating():
                self.hb_missed += 1

    def tearDown(self):
        self.hb_stop.set()
        self.hb.join()
        engines = engine_pids(self.kernel_pid)
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=False)
        deadline = time.time() + 5
        for pid in engines:
            while alive(pid):
                self.assertLess(time.time(), deadline, f"engine {pid} outlived its kernel")
                time.sleep(0.05)
        self.assertEqual(self.hb_missed, 0, "the heartbeat stopped during the test")

    def run_cell(self, code, timeout=60):
        outputs = []
        reply = self.kc.execute_interactive(code, timeout=timeout, output_hook=outputs.append)
        return reply["content"], outputs

    def crash(self, code, *want):
        self.run_cell("func triple(a int) int { return 3 * a }")
        c, outs = self.run_cell(code)
        self.assertEqual(c["status"], "error", c)
        errors = [o["content"] for o in outs if o["msg_type"] == "error"]
        self.assertEqual(len(errors), 1, outs)
        text = errors[0]["evalue"] + "\n".join(errors[0]["traceback"])
        for w in want + ("values", "triple"):
            self.assertIn(w, text)
        c, outs = self.run_cell("triple(14)")
        self.assertEqual(c["status"], "ok", c)
        self.assertEqual(c["execution_count"], 3)
        self.assertEqual([o["content"]["data"]["text/plain"] for o in outs if o["msg_type"] == "execute_result"], ["42"])
        self.assertTrue(self.km.is_alive())

    def test_stack_overflow(self):
        self.crash("func down(n int) int { return down(n+1) + 1 }\ndown(0)", "stack overflow")

    def test_concurrent_map_writes(self):
        self.crash('m := map[int]int{}\nvar wg sync.WaitGroup\nfor i := 0; i < 8; i++ { wg.Add(1); go func() { '
                   'defer wg.Done(); for j := 0; j < 1000000; j++ { m[j] = j } }() }\nwg.Wait()',
                   "concurrent map writes")

    def test_opencl_kernel_out_of_bounds(self):
        self.crash('ctx := cl.CreateSomeContext()\nq := cl.NewQueue(ctx)\nbuf := cl.NewBufferSize(ctx, cl.ReadWrite, 16)\n'
                   'prog := cl.BuildProgram(ctx, "__kernel void k(__global int *x) { x[get_global_id(0) * 1000000000L + 4000000000L] = 1; }", "")\n'
                   'k := prog.Kernel("k")\nk.SetArgs(buf)\ncl.EnqueueKernel(q, k, []int{64}, nil).Wait()',
                   "SIGSEGV", "out of bounds")

    def test_engine_killed_from_outside(self):
        engines = engine_pids(self.kernel_pid)
        self.assertEqual(len(engines), 1)
        threading.Timer(0.5, os.kill, (engines[0], signal.SIGKILL)).start()
        self.crash("time.Sleep(30 * time.Second)", "SIGKILL")

    def test_interrupt_during_wait_then_release(self):
        self.run_cell("var wg sync.WaitGroup\nwg.Add(1)")
        threading.Timer(0.5, self.km.interrupt_kernel).start()
        c, _ = self.run_cell("wg.Wait()")
        self.assertEqual(c["ename"], "Interrupted")
        time.sleep(5.5)  # not a second interrupt
        c, outs = self.run_cell("wg.Done()\n1 + 1")
        self.assertEqual(c["status"], "ok", c)
        self.assertIn("still blocked", "".join(o["content"].get("text", "") for o in outs if o["msg_type"] == "stream"))

    def test_crash_loses_names_instead_of_answering_wrong(self):
        self.run_cell('name := "Ada"\nfunc Name() string { return name }\nfunc Shout(s string) string { return s + "!" }')
        c, _ = self.run_cell("var mu sync.Mutex\nmu.Unlock()")
        self.assertEqual(c["ename"], "EngineCrash", c)
        c, outs = self.run_cell('Shout("hi")')
        self.assertEqual([o["content"]["data"]["text/plain"] for o in outs if o["msg_type"] == "execute_result"], ['"hi!"'])
        c, _ = self.run_cell("Name()")
        self.assertEqual(c["status"], "error", c)
        self.assertIn("it uses name, lost in the crash of cell #1; run that cell again", c["evalue"])

    def test_crash_in_a_widget_callback_is_told_to_the_next_cell(self):
        _, outs = self.run_cell('s := widgets.NewIntSlider("n", 0, 10, 1)\n'
                                "s.OnChange(func(v int) { var mu sync.Mutex; mu.Unlock() })\nwidgets.Show(s)")
        slider = [o["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] for o in outs
                  if o["msg_type"] == "display_data" and o["content"]["data"].get("text/plain", "").startswith("IntSlider")]
        self.assertEqual(len(slider), 1, outs)
        msg = self.kc.session.msg("comm_msg", {"comm_id": slider[0], "data": {
            "method": "update", "state": {"value": 5}, "buffer_paths": []}})
        self.kc.shell_channel.send(msg)
        deadline = time.time() + 30
        while time.time() < deadline:  # the callback's idle status
            m = self.kc.get_iopub_msg(timeout=30)
            if (m["parent_header"].get("msg_id") == msg["header"]["msg_id"] and m["msg_type"] == "status"
                    and m["content"]["execution_state"] == "idle"):
                break
        c, outs = self.run_cell("1 + 1")
        self.assertEqual(c["status"], "ok", c)
        err = "".join(o["content"]["text"] for o in outs if o["msg_type"] == "stream" and o["content"]["name"] == "stderr")
        self.assertIn("widget callback crashed the engine", err)
        # The runtime's headline, or (when a dying runtime's headline is
        # lost among its pipes) the cause told by its trace.
        self.assertTrue("unlock of unlocked mutex" in err or "misuse of package sync" in err, err)


def tearDownModule():
    goclenv.teardown()


if __name__ == "__main__":
    unittest.main()
