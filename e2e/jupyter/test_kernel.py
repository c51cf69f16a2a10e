"""gocl driven by Debian's jupyter_client, the way Notebook, Lab and nbclient drive it."""
import atexit
import os
import queue
import subprocess
import tempfile
import time
import unittest

import goclenv

goclenv.setup()
from jupyter_client.manager import KernelManager  # noqa: E402  (after JUPYTER_PATH is set)


class KernelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km = KernelManager(kernel_name="gocl")
        cls.km.start_kernel()
        cls.kc = cls.km.client()
        cls.kc.start_channels()
        cls.kc.wait_for_ready(timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=False)

    def run_cell(self, code, **kw):
        outputs = []
        reply = self.kc.execute_interactive(code, timeout=60, output_hook=outputs.append, **kw)
        return reply["content"], outputs

    def stdout(self, outputs):
        return "".join(o["content"]["text"] for o in outputs
                       if o["msg_type"] == "stream" and o["content"]["name"] == "stdout")

    def test_kernel_info(self):
        self.kc.kernel_info()
        reply = self.kc.get_shell_msg(timeout=10)
        c = reply["content"]
        self.assertEqual(c["status"], "ok")
        self.assertEqual(c["implementation"], "gocl")
        self.assertEqual(c["language_info"]["name"], "go")
        self.assertEqual(c["language_info"]["file_extension"], ".go")

    def test_hello_value_and_error(self):
        c, outs = self.run_cell('fmt.Println("hello from Go")\n6 * 7')
        self.assertEqual(c["status"], "ok")
        self.assertEqual(self.stdout(outs), "hello from Go\n")
        results = [o for o in outs if o["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1)
        self.assertEqual(results[0]["content"]["data"]["text/plain"], "42")
        c, outs = self.run_cell("undefinedThing + 1")
        self.assertEqual(c["status"], "error")
        errors = [o for o in outs if o["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("undefinedThing", "\n".join(errors[0]["content"]["traceback"]))

    def test_state_survives_errors(self):
        self.run_cell("counter := 10")
        self.run_cell("counter = counter +")
        c, outs = self.run_cell("counter")
        self.assertEqual(c["status"], "ok")
        self.assertEqual([o for o in outs if o["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"], "10")

    def test_interrupt_infinite_loop(self):
        msg_id = self.kc.execute("for {}")
        time.sleep(0.5)
        start = time.time()
        self.km.interrupt_kernel()  # interrupt_mode "message": interrupt_request on control
        reply = self.kc.get_shell_msg(timeout=20)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        self.assertLess(time.time() - start, 10)  # a hang guard, not a timing test
        c, _ = self.run_cell("1 + 1")
        self.assertEqual(c["status"], "ok")

    def test_stdin(self):
        prompts = []

        def stdin_hook(msg):
            prompts.append(msg["content"]["prompt"])
            self.kc.input("Gopher")

        c, outs = self.run_cell('fmt.Print("Your name: ")\nvar n string\nfmt.Scanln(&n)\nfmt.Println("hi", n)',
                                allow_stdin=True, stdin_hook=stdin_hook)
        self.assertEqual(c["status"], "ok", c)
        self.assertEqual(prompts, ["Your name: "])
        self.assertIn("hi Gopher", self.stdout(outs))


class RestartTest(unittest.TestCase):
    def test_restart_gives_fresh_state(self):
        km = KernelManager(kernel_name="gocl")
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            kc.execute_interactive("lost := 1", timeout=30)
            km.restart_kernel(now=False)
            kc.wait_for_ready(timeout=60)
            reply = kc.execute_interactive("lost", timeout=30)
            self.assertEqual(reply["content"]["status"], "error")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
        self.assertFalse(km.is_alive())


class NbconvertTest(unittest.TestCase):
    def test_tour_notebook_executes(self):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute",
                            "--ExecutePreprocessor.kernel_name=gocl", "--ExecutePreprocessor.timeout=120",
                            "--output-dir", out, os.path.join(goclenv.ROOT, "notebooks", "00-tour.ipynb")],
                           check=True, capture_output=True)
            import nbformat
            nb = nbformat.read(os.path.join(out, "00-tour.ipynb"), as_version=4)
        outs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
        self.assertTrue(any(o.output_type == "stream" for o in outs))
        self.assertTrue(any(o.output_type == "execute_result" for o in outs))


# At exit, not in tearDownModule: the test modules share one kernelspec
# prefix, and removing it after the first module would leave the others
# running whatever "gocl" kernelspec the system has.
atexit.register(goclenv.teardown)


if __name__ == "__main__":
    unittest.main()
