"""Issue 19 through jupyter_client: the kernel answers while its engine starts.

The kernel binds its sockets and answers kernel_info before the engine
process (kernel/supervisor) is up; a cell sent meanwhile waits for the engine
and runs, an interrupt ends it, a shutdown ends the kernel and the engine
that was starting. To hold the engine's start open for as long as a test
needs, GOCL_ENGINE_EXE points at a wrapper that waits for a gate file before
it executes `gocl engine`.
"""
import os
import queue
import stat
import tempfile
import time
import unittest

import goclenv

goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)

WRAPPER = """#!/bin/sh
echo $$ > "{dir}/wrapper.pid"
while [ ! -e "{dir}/gate" ]; do sleep 0.02; done
touch "{dir}/engine-started"
exec "{gocl}" "$@"
"""


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return ") Z " not in f.read()  # a zombie is gone
    except OSError:
        return False


class StartTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gocl-start-")
        wrapper = os.path.join(self.dir, "engine.sh")
        with open(wrapper, "w") as f:
            f.write(WRAPPER.format(dir=self.dir, gocl=os.path.abspath(goclenv.GOCL)))
        os.chmod(wrapper, stat.S_IRWXU)
        env = dict(os.environ, GOCL_ENGINE_EXE=wrapper)
        self.km = KernelManager(kernel_name="gocl")
        self.km.start_kernel(env=env)
        self.kc = self.km.client()
        self.kc.start_channels()

    def tearDown(self):
        self.open_gate()
        self.kc.stop_channels()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def open_gate(self):
        open(self.path("gate"), "w").close()

    def engine_started(self):
        return os.path.exists(self.path("engine-started"))

    def reply(self, msg_id, timeout=30):
        deadline = time.time() + timeout
        while True:
            m = self.kc.get_shell_msg(timeout=max(0.01, deadline - time.time()))
            if m["parent_header"].get("msg_id") == msg_id:
                return m["content"]

    def no_reply(self, msg_id, wait):
        """Fails if msg_id is answered within wait seconds."""
        deadline = time.time() + wait
        while time.time() < deadline:
            try:
                m = self.kc.get_shell_msg(timeout=0.05)
            except queue.Empty:
                continue
            self.assertNotEqual(m["parent_header"].get("msg_id"), msg_id,
                                "answered while the engine was not started: %s" % m["content"])

    def stdout(self, msg_id):
        out = ""
        while True:
            try:
                m = self.kc.get_iopub_msg(timeout=5)
            except queue.Empty:
                return out
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "stream" and m["content"]["name"] == "stdout":
                out += m["content"]["text"]
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                return out

    def kernel_info_first(self):
        c = self.reply(self.kc.kernel_info())
        self.assertEqual(c["status"], "ok")
        self.assertEqual(c["implementation"], "gocl")
        self.assertFalse(self.engine_started(), "kernel_info was answered only after the engine started")

    def test_kernel_info_then_a_cell_sent_before_the_engine_is_up(self):
        self.kernel_info_first()
        msg_id = self.kc.execute('fmt.Println("sent early")')
        self.no_reply(msg_id, 0.5)
        self.open_gate()
        c = self.reply(msg_id)
        self.assertEqual(c["status"], "ok", c)
        self.assertEqual(c["execution_count"], 1)
        self.assertEqual(self.stdout(msg_id), "sent early\n")

    def test_interrupt_while_the_engine_starts(self):
        self.kernel_info_first()
        msg_id = self.kc.execute('fmt.Println("never")')
        self.no_reply(msg_id, 0.3)
        self.km.interrupt_kernel()
        c = self.reply(msg_id)
        self.assertEqual((c["status"], c.get("ename")), ("error", "Interrupted"), c)
        self.assertFalse(self.engine_started())
        self.assertEqual(self.stdout(msg_id), "")
        self.open_gate()
        msg_id = self.kc.execute("fmt.Println(6 * 7)")
        c = self.reply(msg_id)
        self.assertEqual(c["status"], "ok", c)
        self.assertEqual(self.stdout(msg_id), "42\n")

    def test_shutdown_while_the_engine_starts(self):
        self.kernel_info_first()
        deadline = time.time() + 30
        while not os.path.exists(self.path("wrapper.pid")):
            self.assertLess(time.time(), deadline, "the engine process never started")
            time.sleep(0.02)
        time.sleep(0.05)  # the pid is written
        with open(self.path("wrapper.pid")) as f:
            wrapper = int(f.read())
        proc = self.km.provisioner.process
        self.km.shutdown_kernel(now=False)
        # The kernel ended on its own (a kill would leave -9 or -15), and the
        # engine it was starting is gone with it.
        self.assertEqual(proc.returncode, 0)
        deadline = time.time() + 10
        while alive(wrapper) and time.time() < deadline:
            time.sleep(0.02)
        self.assertFalse(alive(wrapper), "the engine process that was starting outlived its kernel")
        self.assertFalse(self.engine_started())


if __name__ == "__main__":
    unittest.main()
